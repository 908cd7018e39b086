-- Right after a write's COMMIT, in the same message (db::transition, step 13;
-- README, "Connecting"):
-- the WAL insert position now (at or past the end of the commit record: the
-- write position can trail it), and how many standbys the
-- primary streams to, how many of them are synchronous (sync or quorum,
-- with synchronous_standby_names set) and how many have replayed up to that
-- position. A standby whose replay_lsn this role may not see (without
-- pg_read_all_stats it reads NULL) counts as unknown, never as confirmed.
--
-- It runs after COMMIT, outside any transaction of the tool's, so with the
-- session's own search_path (a pooled session's, or one a look-alike
-- schema leads): every function, operator and type is named in
-- pg_catalog, so nothing of another schema can run in the operator's place.
SELECT pg_catalog.pg_current_wal_insert_lsn()::pg_catalog.text AS commit_lsn,
       pg_catalog.current_setting('synchronous_standby_names') AS synchronous_standby_names,
       pg_catalog.count(r.pid) AS standbys,
       pg_catalog.count(r.pid) FILTER (
           WHERE r.sync_state OPERATOR(pg_catalog.=) 'sync'
              OR r.sync_state OPERATOR(pg_catalog.=) 'quorum') AS synchronous,
       pg_catalog.count(r.pid) FILTER (
           WHERE r.replay_lsn OPERATOR(pg_catalog.>=) pg_catalog.pg_current_wal_insert_lsn())
           AS confirmed,
       pg_catalog.count(r.pid) FILTER (WHERE r.replay_lsn IS NULL) AS unknown
FROM (SELECT 1) AS one
LEFT JOIN pg_catalog.pg_stat_replication AS r ON true
