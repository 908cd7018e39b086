-- The relations of each table's partition (or inheritance) tree ($1:
-- their oids, all in one round trip), each table itself first: those that hold rows (relkind r) must each
-- carry the protecting triggers.
WITH RECURSIVE tree AS (
    SELECT r.oid::oid AS root, r.oid::oid AS relid, 0 AS depth FROM unnest($1::int8[]) AS r(oid)
    UNION ALL
    SELECT tree.root, i.inhrelid, tree.depth + 1
    FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
)
SELECT tree.root::int8 AS root, c.relname::text AS relation, c.relkind::text AS relkind
FROM tree JOIN pg_class c ON c.oid = tree.relid
ORDER BY tree.root, tree.depth, c.relname
