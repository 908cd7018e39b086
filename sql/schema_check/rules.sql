-- The rewrite rules on each table ($1: their oids, one round trip) and its partition (or
-- inheritance) tree: a rule runs its own statements in place of, or beside,
-- fail-safely's write.
WITH RECURSIVE tree AS (
    SELECT r.oid::oid AS root, r.oid::oid AS relid FROM unnest($1::int8[]) AS r(oid)
    UNION ALL
    SELECT tree.root, i.inhrelid FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
)
SELECT tree.root::int8 AS root, c.relname::text AS relation, r.rulename::text AS name
FROM tree
JOIN pg_class c ON c.oid = tree.relid
JOIN pg_rewrite r ON r.ev_class = tree.relid
WHERE r.rulename <> '_RETURN'
ORDER BY tree.root, c.relname, r.rulename
