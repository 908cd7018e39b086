-- 4. Artifact.
SELECT id, image FROM :"schema".release_artifacts WHERE deployment_id = $1 ORDER BY id
