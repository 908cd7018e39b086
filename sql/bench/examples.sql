-- The deployments the benchmark diagnoses (bench.examples(), generate.sql),
-- with the length of their trails, for the labels.
SELECT x.example, x.deployment_id,
       (SELECT count(*) FROM deployment_events e WHERE e.deployment_id = x.deployment_id) AS events
FROM bench.examples() x
ORDER BY x.example DESC;
