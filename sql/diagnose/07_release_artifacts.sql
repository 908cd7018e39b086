-- 4. Artifact.
SELECT id, image FROM release_artifacts WHERE deployment_id = $1 ORDER BY id
