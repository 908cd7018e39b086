-- Right after a write's COMMIT, in the same message (db::transition, step 13;
-- README, "Connecting"):
-- the WAL insert position now (at or past the end of the commit record: the
-- write position can trail it), and how many standbys the
-- primary streams to, how many of them are synchronous (sync or quorum,
-- with synchronous_standby_names set) and how many have replayed up to that
-- position. A standby whose replay_lsn this role may not see (without
-- pg_read_all_stats it reads NULL) counts as unknown, never as confirmed.
SELECT pg_catalog.pg_current_wal_insert_lsn()::text AS commit_lsn,
       pg_catalog.current_setting('synchronous_standby_names') AS synchronous_standby_names,
       count(r.pid) AS standbys,
       count(r.pid) FILTER (WHERE r.sync_state IN ('sync', 'quorum')) AS synchronous,
       count(r.pid) FILTER (WHERE r.replay_lsn >= pg_catalog.pg_current_wal_insert_lsn()) AS confirmed,
       count(r.pid) FILTER (WHERE r.replay_lsn IS NULL) AS unknown
FROM (SELECT 1) AS one
LEFT JOIN pg_catalog.pg_stat_replication AS r ON true
