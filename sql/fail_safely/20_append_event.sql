-- Appends the runbook's event with sequence = max + 1 (safe: the deployment
-- row is locked, so no other event can be inserted for it meanwhile; a
-- unique violation retries the whole transaction). The payload keeps the
-- runbook's keys (`reason`, and `operator` for a teardown) and adds the
-- audit: who (OS user, session_user, current_user), where from (host),
-- with what (tool version) and the idempotency key.
--   $1 deployment id, $2 kind, $3 reason, $4 operator flag (NULL: omitted),
--   $5 idempotency key, $6 previous status, $7 OS user, $8 host, $9 tool
INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload)
SELECT COALESCE(max(e.sequence), 0) + 1,
       gen_random_uuid(),
       d.org_id,
       d.id,
       $2::text,
       jsonb_strip_nulls(jsonb_build_object(
           'reason', $3::text,
           'operator', $4::boolean,
           'idempotency_key', $5::text,
           'audit', jsonb_build_object(
               'previous_status', $6::text,
               'os_user', $7::text,
               'session_user', session_user,
               'current_user', current_user,
               'host', $8::text,
               'tool', $9::text)))
FROM deployments d
LEFT JOIN deployment_events e ON e.deployment_id = d.id
WHERE d.id = $1
GROUP BY d.id, d.org_id
RETURNING id, sequence, kind, payload, occurred_at
