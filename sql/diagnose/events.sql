-- diagnose -o json: the whole event trail of one deployment ($1), oldest
-- first, without the payloads' log key (as the runbook's `- 'log'`). Run
-- in the same read-only snapshot as sql/diagnose/snapshot.sql (which then
-- reads only the last event) and streamed row by row into the JSON
-- document, so a trail of a million events is never held in memory. An
-- index range scan on deployment_events_deployment_sequence. Each payload
-- comes cut, as in sql/diagnose/snapshot.sql: its first :text_cut
-- characters of JSON text, its length in bytes and whether it was cut.
SELECT e.sequence, e.id, e.kind, e.occurred_at,
       left(p.text, :text_cut) AS payload,
       octet_length(p.text)::bigint AS payload_length,
       length(p.text) > :text_cut AS payload_cut
FROM :"schema".deployment_events e
CROSS JOIN LATERAL (SELECT (e.payload - 'log')::text AS text OFFSET 0) p
WHERE e.deployment_id = $1
ORDER BY e.sequence
