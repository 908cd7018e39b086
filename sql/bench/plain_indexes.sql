-- The benchmark's no-index schema keeps only what backs a primary key or a
-- unique constraint (foreign keys need nothing on the referencing side):
-- these are the other indexes of the schema the search path names, which
-- the benchmark drops (the ones `doctor` should then report missing).
SELECT i.indexrelid::regclass::text AS index_name
FROM pg_index i
JOIN pg_class t ON t.oid = i.indrelid
WHERE t.relnamespace = current_schema()::regnamespace
  AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                  WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u'))
ORDER BY 1;
