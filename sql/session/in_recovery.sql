-- Whether the server is a standby (fail-safely refuses on one).
SELECT pg_is_in_recovery() AS in_recovery
