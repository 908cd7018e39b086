-- Step 7, again (see 07_lock_deployment.sql): then its jobs, in a fixed
-- order. No dispatch (target, lease) can commit on them, and no agent
-- result can be inserted for them (its foreign key needs a KEY SHARE lock
-- on the job row).
SELECT id, kind, status, target_node_id, attempt, max_attempts, available_at,
       lease_expires_at, payload ->> 'last_error' AS last_error,
       lease_token IS NOT NULL AS has_lease_token, created_at, updated_at
FROM :"schema".jobs
WHERE deployment_id = $1
ORDER BY created_at, id
FOR UPDATE
