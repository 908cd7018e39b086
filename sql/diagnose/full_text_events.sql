-- diagnose --full-text (pushleft-controller-diagnose(1), HUGE TEXT), last: the whole payload,
-- without its log key, of each event of deployment $1, oldest first, in
-- pieces of at most $2 bytes of UTF-8; the same columns and rules as
-- sql/diagnose/full_text_jobs.sql, with the event's sequence. The trail
-- comes from the index deployment_events_deployment_sequence, in order:
-- only each event's own pieces are sorted.
SELECT e.id, e.sequence, octet_length(x.bytes)::bigint AS bytes,
       g AS chunk, substring(x.bytes, g * $2 + 1, $2) AS piece
FROM :"schema".deployment_events e
CROSS JOIN LATERAL (
    SELECT convert_to((e.payload - 'log')::text, 'UTF8') AS bytes OFFSET 0
) x
CROSS JOIN LATERAL generate_series(0, greatest(octet_length(x.bytes) - 1, 0) / $2) g
WHERE e.deployment_id = $1
ORDER BY e.sequence, g
