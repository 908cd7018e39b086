-- Step 11: the relation locks this transaction holds beyond reading: a
-- TRUNCATE, DDL, LOCK TABLE or a sequence's nextval takes one that tuple
-- counters never see. No parameters: it travels in step 11's message.
SELECT l.relation::int8 AS relid,
       coalesce(n.nspname::text || '.' || c.relname::text, l.relation::text) AS name,
       coalesce(c.relkind::text, '') AS kind,
       l.mode
FROM pg_locks l
LEFT JOIN pg_class c ON c.oid = l.relation
LEFT JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE l.pid = pg_backend_pid() AND l.locktype = 'relation' AND l.granted
  AND l.mode NOT IN ('AccessShareLock', 'RowShareLock')
