-- Step 6: the relations the transaction may write: the partition (or
-- inheritance) trees of deployments ($1: its oid) and deployment_events
-- ($2), their TOAST tables and every index of both.
WITH RECURSIVE tree AS (
    SELECT $1::int8::oid AS relid, 'deployments'::text AS root
    UNION ALL
    SELECT $2::int8::oid, 'deployment_events'::text
    UNION ALL
    SELECT i.inhrelid, tree.root FROM pg_inherits i JOIN tree ON i.inhparent = tree.relid
)
SELECT tree.relid::int8 AS relid, tree.root, 'table' AS part FROM tree
UNION ALL
SELECT c.reltoastrelid::int8, tree.root, 'toast'
FROM tree JOIN pg_class c ON c.oid = tree.relid
WHERE c.reltoastrelid <> 0
UNION ALL
SELECT x.indexrelid::int8, tree.root, 'index'
FROM tree JOIN pg_class c ON c.oid = tree.relid
JOIN pg_index x ON x.indrelid = c.oid OR x.indrelid = c.reltoastrelid
