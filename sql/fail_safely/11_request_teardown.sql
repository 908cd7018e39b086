-- Step 10, path teardown_requested, one statement: the runbook's UPDATE
-- (the same state change the API's teardown makes), with the runbook's
-- condition, then (only when it touched exactly one row) the
-- event with sequence = max + 1 (safe: the deployment row is locked, so no
-- other event can be inserted for it meanwhile; a unique violation retries
-- the whole transaction). The payload ($3) is built by the tool, so that
-- what the database stores can be compared with what was written: the
-- runbook's `reason` and `operator`, and the audit. RETURNING shows what
-- the database really holds after each (a BEFORE trigger may have
-- changed it); the tool checks both and rolls back on any difference.
--   $1 deployment id, $2 the event's kind, $3 its payload
-- The last column leaves the written ids in a setting of this transaction
-- (set_config(…, true): gone at its end) for the read-back of step 11,
-- which travels in a message without parameters; the tool checks that it
-- reads back exactly these ids.
WITH changed AS MATERIALIZED (
    UPDATE :"schema".deployments
    SET status = 'teardown_queued', updated_at = now()
    WHERE id = $1 AND status NOT IN ('teardown_queued', 'destroyed')
    RETURNING id, status
), appended AS MATERIALIZED (
    INSERT INTO :"schema".deployment_events (sequence, id, org_id, deployment_id, kind, payload)
    SELECT COALESCE(max(e.sequence), 0) + 1,
           gen_random_uuid(),
           d.org_id,
           d.id,
           $2::text,
           $3::jsonb
    FROM :"schema".deployments d
    LEFT JOIN :"schema".deployment_events e ON e.deployment_id = d.id
    WHERE d.id = $1 AND (SELECT count(*) FROM changed) = 1
    GROUP BY d.id, d.org_id
    RETURNING id, deployment_id, sequence, kind, payload, occurred_at
)
SELECT (SELECT count(*) FROM changed) AS updated,
       (SELECT c.id FROM changed c LIMIT 1) AS id,
       (SELECT c.status FROM changed c LIMIT 1) AS status,
       a.id AS event_id, a.deployment_id AS event_deployment_id, a.sequence, a.kind,
       a.payload, a.occurred_at,
       CASE WHEN a.id IS NOT NULL
            THEN set_config('pushleft_controller.written', $1::text || ' ' || a.id::text, true)
       END AS written
FROM (SELECT 1) AS one
LEFT JOIN appended a ON true
