-- Step 8, idempotent replay: the event an earlier run wrote with this key,
-- if any (index deployment_events_idempotency_key). Read after the key's
-- advisory lock (02_lock_key.sql, step 5), so a run with the same key that
-- committed before us is always seen, whatever deployment it was for. The
-- `log` key never leaves the database.
SELECT id, sequence, deployment_id, kind, payload - 'log' AS payload, occurred_at
FROM :"schema".deployment_events
WHERE payload ? 'idempotency_key'          -- the partial index's predicate
  AND payload ->> 'idempotency_key' = $1
ORDER BY occurred_at, sequence
LIMIT 1
