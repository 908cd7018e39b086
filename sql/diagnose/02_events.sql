-- 1. The event trail, newest first so a table can ask for the last N
--    ($2 = NULL for all); `log` is never read out of the database.
SELECT sequence, id, kind, occurred_at, payload - 'log' AS payload
FROM :"schema".deployment_events
WHERE deployment_id = $1
ORDER BY sequence DESC
LIMIT $2
