-- diagnose -o json: the whole event trail of one deployment ($1), oldest
-- first, without the payloads' log key (as the runbook's `- 'log'`). Run
-- in the same read-only snapshot as sql/diagnose/snapshot.sql (which then
-- reads only the last event) and streamed row by row into the JSON
-- document, so a trail of a million events is never held in memory. An
-- index range scan on deployment_events_deployment_sequence.
SELECT sequence, id, kind, occurred_at, payload - 'log' AS payload
FROM :"schema".deployment_events
WHERE deployment_id = $1
ORDER BY sequence
