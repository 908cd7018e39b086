-- Whether a table ($2) exists in the schema ($1) and the current user may
-- read it.
SELECT count(*) > 0 AS present,
       coalesce(bool_and(has_table_privilege(c.oid, 'SELECT')), false) AS readable
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1::text AND c.relname = $2::text AND c.relkind IN ('r', 'p')
