-- Steps 4 and 11, the guard's counters: rows this backend inserted, updated
-- and deleted per relation in the current transaction (including rows
-- changed by triggers), for every table, the catalogs included: DDL, a
-- TRUNCATE (a new relfilenode in pg_class) and CREATE ROLE show up there.
-- On PostgreSQL 15 they also carry not-yet-flushed counts of earlier
-- transactions of this backend, so the guard compares a delta: read first
-- in step 4's message, before anything is written, and again in step 11's,
-- before COMMIT. Keyed by oid: partitions count for the table they belong
-- to. No parameters: it travels in a simple-query message.
SELECT relid::int8 AS relid,
       schemaname::text || '.' || relname::text AS name,
       n_tup_ins AS inserted,
       n_tup_upd AS updated,
       n_tup_del AS deleted
FROM pg_stat_xact_all_tables
WHERE n_tup_ins <> 0 OR n_tup_upd <> 0 OR n_tup_del <> 0
