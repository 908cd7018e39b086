-- The guard's counters: rows this backend inserted, updated and deleted per
-- table in the current transaction (including rows changed by triggers).
-- On PostgreSQL 15 they also carry not-yet-flushed counts of earlier
-- transactions of this backend, so the guard compares a delta: read once at
-- the start of the transaction and once before COMMIT.
SELECT schemaname || '.' || relname AS table_name,
       n_tup_ins AS inserted,
       n_tup_upd AS updated,
       n_tup_del AS deleted
FROM pg_stat_xact_user_tables
