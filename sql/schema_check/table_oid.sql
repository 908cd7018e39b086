-- A table the tool reads, by schema ($1) and name ($2), both as the
-- catalog spells them (bound values, never spliced in); no row when there
-- is none. A plain or a partitioned table.
SELECT c.oid::int8 AS oid, c.relkind::text AS relkind
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1::text AND c.relname = $2::text AND c.relkind IN ('r', 'p')
