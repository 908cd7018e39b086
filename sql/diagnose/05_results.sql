-- 3. Results the agents reported (append-only).
SELECT r.id, r.job_id, r.reported_at, j.kind, r.node_id, r.attempt, r.outcome,
       r.output - 'log' AS output
FROM :"schema".agent_job_results r
JOIN :"schema".jobs j ON j.id = r.job_id
WHERE j.deployment_id = $1
ORDER BY r.reported_at, r.id
