-- Every trigger on each table ($1: their oids, all in one round trip) and
-- on every relation of its partition (or inheritance) tree, with its
-- function and the table whose tree it is in (root): what the protecting
-- triggers are checked against, and what fail-safely must vouch for on the
-- two tables it writes (a partition can carry a trigger of its own).
-- tgtype bits: 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate,
-- 64 instead. tgenabled: O origin, A always, R replica only, D disabled.
WITH RECURSIVE tree AS (
    SELECT r.oid::oid AS root, r.oid::oid AS relid FROM unnest($1::int8[]) AS r(oid)
    UNION ALL
    SELECT tree.root, i.inhrelid FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
)
SELECT tree.root::int8 AS root,
       c.relname::text AS relation,
       t.tgname::text AS name,
       t.tgenabled::text AS enabled,
       t.tgtype::int4 AS tgtype,
       -- Internal: made by the system for a constraint (a foreign key's).
       -- On PostgreSQL 14 and older, the copy of a user's trigger on a
       -- partition is marked internal too; its parent is not.
       t.tgisinternal AND NOT EXISTS (
           SELECT 1 FROM pg_trigger parent
           WHERE parent.oid = t.tgparentid AND NOT parent.tgisinternal
       ) AS internal,
       t.tgconstraint <> 0 AS constraint_trigger,
       p.oid::regprocedure::text AS function,
       pn.nspname = 'pg_catalog' AS builtin,
       l.lanname::text AS language,
       coalesce(p.prosrc, '') AS source
FROM tree
JOIN pg_class c ON c.oid = tree.relid
JOIN pg_trigger t ON t.tgrelid = tree.relid
JOIN pg_proc p ON p.oid = t.tgfoid
JOIN pg_namespace pn ON pn.oid = p.pronamespace
JOIN pg_language l ON l.oid = p.prolang
ORDER BY tree.root, c.relname, t.tgname
