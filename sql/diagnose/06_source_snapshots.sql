-- 4. Source.
SELECT id, verified_at FROM source_snapshots WHERE deployment_id = $1 ORDER BY id
