-- Step 6, one statement: lock the deployment row ($1), then its jobs, then
-- its instances, in that order (each later lock waits for the earlier
-- ones: its scan is gated on them), and look for an event with the
-- idempotency key ($2), which step 4's advisory lock already serializes.
--
-- With the deployment locked no other transaction can insert a job, an
-- instance or an event for it (their foreign keys need a KEY SHARE lock on
-- its row) or change its status; with the jobs locked no dispatch (target,
-- lease) can commit on them and no agent result can be inserted for them;
-- with the instances locked no active_node_id can be set on them. A job
-- or instance inserted by a transaction that committed while this
-- statement waited for the deployment is not among those locked here: the
-- read of step 7, a statement of its own, sees it and locks again
-- (07–09_lock_*.sql) before anything is decided.
--
-- The replay (step 8): the first event an earlier run wrote with this key
-- (index deployment_events_idempotency_key), read after the key's lock, so
-- a run with the same key that committed before us is always seen,
-- whatever deployment it was for. The `log` key never leaves the database.
WITH locked_deployment AS MATERIALIZED (
    SELECT d.id
    FROM :"schema".deployments d
    WHERE d.id = $1
    FOR UPDATE
), locked_jobs AS MATERIALIZED (
    SELECT j.id
    FROM :"schema".jobs j
    WHERE j.deployment_id = $1 AND EXISTS (SELECT 1 FROM locked_deployment)
    ORDER BY j.created_at, j.id
    FOR UPDATE
), locked_instances AS MATERIALIZED (
    SELECT i.id
    FROM :"schema".application_instances i
    WHERE i.deployment_id = $1 AND EXISTS (SELECT 1 FROM locked_deployment)
      AND (SELECT count(*) FROM locked_jobs) >= 0
    ORDER BY i.role_name, i.id
    FOR UPDATE
), earlier AS (
    SELECT e.id, e.sequence, e.deployment_id, e.kind, e.payload - 'log' AS payload,
           e.occurred_at
    FROM :"schema".deployment_events e
    WHERE e.payload ? 'idempotency_key'          -- the partial index's predicate
      AND e.payload ->> 'idempotency_key' = $2
    ORDER BY e.occurred_at, e.sequence
    LIMIT 1
)
SELECT EXISTS (SELECT 1 FROM locked_deployment) AS found,
       ARRAY(SELECT id FROM locked_jobs) AS job_ids,
       ARRAY(SELECT id FROM locked_instances) AS instance_ids,
       earlier.id IS NOT NULL AS replay,
       earlier.id, earlier.sequence, earlier.deployment_id, earlier.kind, earlier.payload,
       earlier.occurred_at
FROM (SELECT 1) AS one
LEFT JOIN earlier ON true
