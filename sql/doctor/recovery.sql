-- Primary or standby, and a standby's replay lag in seconds.
SELECT pg_is_in_recovery() AS standby,
       extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS lag
