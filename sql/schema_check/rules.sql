-- The rewrite rules on a table ($1: its oid) and its partition (or
-- inheritance) tree: a rule runs its own statements in place of, or beside,
-- fail-safely's write.
WITH RECURSIVE tree AS (
    SELECT $1::int8::oid AS relid
    UNION ALL
    SELECT i.inhrelid FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
)
SELECT c.relname::text AS relation, r.rulename::text AS name
FROM tree
JOIN pg_class c ON c.oid = tree.relid
JOIN pg_rewrite r ON r.ev_class = tree.relid
WHERE r.rulename <> '_RETURN'
ORDER BY c.relname, r.rulename
