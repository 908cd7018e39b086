-- 4. Source.
SELECT id, verified_at FROM :"schema".source_snapshots WHERE deployment_id = $1 ORDER BY id
