-- The one instant every age is computed from, whether this server is a
-- standby (then: how far behind the primary its replay is), and the
-- transaction's own settings (shown in the snapshot: proof that it was one
-- read-only REPEATABLE READ snapshot).
SELECT now() AS at,
       pg_is_in_recovery() AS in_recovery,
       CASE WHEN pg_is_in_recovery()
            THEN extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
       END AS replay_lag_seconds,
       current_setting('server_version') AS server_version,
       current_setting('transaction_isolation') AS isolation,
       current_setting('transaction_read_only') = 'on' AS read_only
