-- 2. Every job, where it is targeted, its lease, and its last error.
--    The lease token itself is the fence for results and is not shown,
--    only whether there is one.
SELECT id, kind, status, target_node_id, attempt, max_attempts, available_at,
       lease_expires_at, payload ->> 'last_error' AS last_error,
       lease_token IS NOT NULL AS has_lease_token, created_at, updated_at
FROM :"schema".jobs
WHERE deployment_id = $1
ORDER BY created_at, id
