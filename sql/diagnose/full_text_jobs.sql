-- diagnose --full-text (pushleft-controller-diagnose(1), HUGE TEXT), first: the whole last_error
-- of each job of deployment $1, oldest job first, in pieces of at most $2
-- bytes of UTF-8. Run in the read-only snapshot of the other two
-- (full_text_results.sql, full_text_events.sql), and streamed: the tool
-- writes each piece as it arrives and never holds a whole value.
--
-- Each value is converted to UTF-8 bytes once (the LATERAL subquery, which
-- OFFSET 0 keeps from being inlined into every piece) and cut by bytes,
-- which costs the same for the last piece as for the first; a piece may
-- end inside a character, which the tool joins to the next. `chunk`
-- counts each value's pieces from 0 and `bytes` is its whole length: the
-- tool refuses a value that arrives with a piece missing or out of
-- order. A job without last_error has no row. The jobs come from the
-- index jobs_deployment (in created_at order already).
SELECT j.id, NULL::bigint AS sequence, octet_length(x.bytes)::bigint AS bytes,
       g AS chunk, substring(x.bytes, g * $2 + 1, $2) AS piece
FROM :"schema".jobs j
CROSS JOIN LATERAL (
    SELECT convert_to(j.payload ->> 'last_error', 'UTF8') AS bytes OFFSET 0
) x
CROSS JOIN LATERAL generate_series(0, greatest(octet_length(x.bytes) - 1, 0) / $2) g
WHERE j.deployment_id = $1
ORDER BY j.created_at, j.id, g
