-- target_session_attrs: whether a new transaction here is read-only (by
-- default or in recovery) and whether the server is a standby, as libpq
-- judges them. In a transaction of its own that states no access mode
-- (the default is what is asked about), pinned like every other
-- (db::session::begin) and rolled back. One message, one round trip.
START TRANSACTION ISOLATION LEVEL READ COMMITTED;
SET LOCAL search_path = pg_catalog, pg_temp;
SET LOCAL statement_timeout = :statement_timeout_ms;
SELECT pg_catalog.current_setting('transaction_read_only') AS read_only,
       pg_catalog.pg_is_in_recovery()::text AS standby;
ROLLBACK
