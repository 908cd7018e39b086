-- target_session_attrs: whether a new session is read-only (default or in
-- recovery) and whether the server is a standby, as libpq judges them.
SELECT current_setting('transaction_read_only') = 'on' AS read_only,
       pg_catalog.pg_is_in_recovery() AS standby
