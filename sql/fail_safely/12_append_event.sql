-- Step 10: appends the runbook's event with sequence = max + 1 (safe: the
-- deployment row is locked, so no other event can be inserted for it
-- meanwhile; a unique violation retries the whole transaction). The payload
-- ($3) is built by the tool, so that what the database stores can be
-- compared with what was written: the runbook's keys (`reason`, and
-- `operator` for a teardown) and the audit (who, from where, with what, the
-- idempotency key, stuck or not).
--   $1 deployment id, $2 kind, $3 payload
INSERT INTO :"schema".deployment_events (sequence, id, org_id, deployment_id, kind, payload)
SELECT COALESCE(max(e.sequence), 0) + 1,
       gen_random_uuid(),
       d.org_id,
       d.id,
       $2::text,
       $3::jsonb
FROM :"schema".deployments d
LEFT JOIN :"schema".deployment_events e ON e.deployment_id = d.id
WHERE d.id = $1
GROUP BY d.id, d.org_id
RETURNING id, deployment_id, sequence, kind, payload, occurred_at
