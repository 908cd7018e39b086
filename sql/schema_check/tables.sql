-- The tables the tool reads ($2: their names, as the catalog spells them)
-- in schema $1, each a plain or partitioned table, with every column and
-- its type as SQL spells it: one row per column, all tables in one round
-- trip. A table that is missing has no row.
SELECT c.relname::text AS table_name,
       c.oid::int8 AS oid,
       a.attname::text AS column_name,
       format_type(a.atttypid, a.atttypmod) AS type
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname = $1::text AND c.relname = ANY ($2::text[]) AND c.relkind IN ('r', 'p')
ORDER BY c.relname, a.attnum
