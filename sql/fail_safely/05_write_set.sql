-- Step 4, last: the relations the transaction may write: the partition (or
-- inheritance) trees of deployments and deployment_events in the schema
-- (`:'schema'`, rendered as a literal: no parameters, for the simple-query
-- message), their TOAST tables and every index of both; and, on a
-- database that records plans, pushleft_approvals.applications (root
-- `applications`), where a write records its application.
WITH RECURSIVE tree AS (
    SELECT c.oid AS relid, c.relname::text AS root
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE ((n.nspname = :'schema' AND c.relname IN ('deployments', 'deployment_events'))
           OR (n.nspname = 'pushleft_approvals' AND c.relname = 'applications'))
      AND c.relkind IN ('r', 'p')
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
