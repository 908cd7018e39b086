-- diagnose --full-text (pushleft-controller-diagnose(1), HUGE TEXT), second: the whole output,
-- without its log key, of each agent result on a job of deployment $1,
-- oldest first, in pieces of at most $2 bytes of UTF-8; the same columns
-- and rules as sql/diagnose/full_text_jobs.sql. The results come from the
-- index agent_job_results_job, per job of the deployment.
SELECT r.id, NULL::bigint AS sequence, octet_length(x.bytes)::bigint AS bytes,
       g AS chunk, substring(x.bytes, g * $2 + 1, $2) AS piece
FROM :"schema".jobs j
JOIN :"schema".agent_job_results r ON r.job_id = j.id
CROSS JOIN LATERAL (
    SELECT convert_to((r.output - 'log')::text, 'UTF8') AS bytes OFFSET 0
) x
CROSS JOIN LATERAL generate_series(0, greatest(octet_length(x.bytes) - 1, 0) / $2) g
WHERE j.deployment_id = $1
ORDER BY r.reported_at, r.id, g
