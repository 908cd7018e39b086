-- Whether deployment_events ($1: its oid) has UNIQUE (deployment_id,
-- sequence): fail-safely's max(sequence) + 1 is only race-safe with it.
-- On a partitioned table it is the partitioned index.
SELECT EXISTS (
    SELECT 1 FROM pg_index i
    WHERE i.indrelid = $1::int8::oid AND i.indisunique
      AND i.indpred IS NULL AND i.indnkeyatts = 2
      AND (SELECT array_agg(a.attname::text ORDER BY a.attname)
           FROM pg_attribute a
           WHERE a.attrelid = i.indrelid
             AND a.attnum = ANY (i.indkey::int2[]))
          = ARRAY['deployment_id', 'sequence']) AS present
