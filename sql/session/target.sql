-- Where this session writes (README, "Two-person break-glass"), read once
-- per session: the cluster's system identifier (the same whatever address
-- reaches it, and another for every other cluster), this database's name
-- and OID (another database of the same cluster, a copy restored under
-- another name, has another OID), who the server says the session is,
-- whether it is a standby, and the server's now() in milliseconds since
-- the epoch (a plan's created_at, and the clock its expiry is judged by).
-- Whether this database records plans (`approvals install`: the schema
-- pushleft_approvals with its three tables). Catalogs only; no password,
-- no URL. Sent in the transaction's first
-- message (one round trip), so every column is text.
SELECT s.system_identifier::text AS system_identifier,
       d.oid::int8 AS database_oid,
       current_database()::text AS database,
       session_user::text AS session_user,
       pg_is_in_recovery() AS in_recovery,
       (EXTRACT(EPOCH FROM now()) * 1000)::int8::text AS at_ms,
       (to_regclass('pushleft_approvals.policy') IS NOT NULL
        AND to_regclass('pushleft_approvals.plans') IS NOT NULL
        AND to_regclass('pushleft_approvals.applications') IS NOT NULL) AS approvals_installed
FROM pg_control_system() s
CROSS JOIN pg_catalog.pg_database d
WHERE d.datname = current_database()
