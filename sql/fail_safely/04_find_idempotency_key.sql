-- Idempotent replay: the event an earlier run wrote with this key, if any
-- (index deployment_events_idempotency_key). Read after the deployment row
-- is locked, so a run that committed before us is always seen.
SELECT id, sequence, deployment_id, kind, payload, occurred_at
FROM deployment_events
WHERE payload ? 'idempotency_key'          -- the partial index's predicate
  AND payload ->> 'idempotency_key' = $1
ORDER BY occurred_at, sequence
LIMIT 1
