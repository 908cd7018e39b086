-- The first message of every transaction the tool opens (README,
-- "Connecting"): ONE simple-query message, so one round trip, that states
-- the transaction's own terms and pins every setting the tool relies on
-- before any other statement of the transaction runs. Nothing is taken
-- from the server's, the database's, the role's or a pooled session's
-- defaults, and nothing from startup options (a pooler may refuse or drop
-- them): whatever default_transaction_isolation or
-- default_transaction_read_only says, the START TRANSACTION below decides.
--
-- The placeholders are rendered by db::session from fixed keywords and
-- whole numbers of milliseconds, never from text a user typed.
--
-- SET runs no user code. The statements after the search path is pinned
-- resolve functions and operators in pg_catalog only (pg_temp is never
-- searched for functions or operators).
START TRANSACTION ISOLATION LEVEL :isolation, :access;
SET LOCAL search_path = pg_catalog, pg_temp;
SET LOCAL jit = off;
SET LOCAL standard_conforming_strings = on;
SET LOCAL statement_timeout = :statement_timeout_ms;
SET LOCAL lock_timeout = :lock_timeout_ms;
SET LOCAL idle_in_transaction_session_timeout = :idle_in_transaction_timeout_ms;
-- PostgreSQL 14+: while a statement runs (a lock wait, say), check every
-- second that the client is still there, so a killed client's backend
-- lets go of its locks at once instead of at the end of the wait.
SELECT pg_catalog.set_config(name, '1000', true)
FROM pg_catalog.pg_settings
WHERE name = 'client_connection_check_interval';
-- Triggers fire. replica would silence every trigger, the audit trail's
-- included. Left in the server session by an earlier client of a pool
-- (source 'session'), it is nobody's intent for this transaction: set it
-- back (only a role allowed to set it can; for any other this fails and
-- the tool refuses with the reason). Given in the options or set for the
-- role or database, it is somebody's: the tool refuses instead.
SELECT pg_catalog.set_config('session_replication_role', 'origin', true)
FROM pg_catalog.pg_settings
WHERE name = 'session_replication_role'
  AND setting <> 'origin'
  AND source = 'session';
-- What is in force now, checked by the tool before it sends anything
-- else (fail-safely) or, for a read sent in one flight with this message,
-- before it looks at any answer after this one (README, "Performance");
-- and the defaults and counters the write path and doctor judge.
SELECT name, setting, source
FROM pg_catalog.pg_settings
WHERE name IN ('search_path', 'jit', 'session_replication_role',
               'transaction_isolation', 'transaction_read_only',
               'statement_timeout', 'lock_timeout',
               'idle_in_transaction_session_timeout',
               'client_connection_check_interval',
               'default_transaction_isolation', 'default_transaction_read_only',
               'track_counts', 'server_version_num', 'port',
               'standard_conforming_strings')
UNION ALL
SELECT 'in_recovery', pg_catalog.pg_is_in_recovery()::text, 'server'
UNION ALL
SELECT 'backend_pid', pg_catalog.pg_backend_pid()::text, 'server'
