-- A table the tool reads ($1: its name, as the session resolves it), and
-- its kind; NULL when it does not exist.
SELECT to_regclass($1)::oid::int8 AS oid,
       (SELECT relkind::text FROM pg_class WHERE oid = to_regclass($1)) AS relkind
