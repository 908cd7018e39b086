-- The relations of a table's partition (or inheritance) tree ($1: its
-- oid), the table itself first: those that hold rows (relkind r) must each
-- carry the protecting triggers.
WITH RECURSIVE tree AS (
    SELECT $1::int8::oid AS relid, 0 AS depth
    UNION ALL
    SELECT i.inhrelid, tree.depth + 1 FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
)
SELECT c.relname::text AS relation, c.relkind::text AS relkind
FROM tree JOIN pg_class c ON c.oid = tree.relid
ORDER BY tree.depth, c.relname
