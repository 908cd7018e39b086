-- Session hygiene (SPEC step 9), the first statement of every transaction
-- the tool opens, for that transaction only (`is_local`): a connection
-- pooler may have dropped the startup options, or handed us a server
-- session someone else configured. Nothing a database user created may
-- shadow a function or an operator we call (pg_catalog first, pg_temp last,
-- no user schema at all: every statement names its tables with their
-- schema), and short statements never pay for JIT. session_replication_role
-- is only read: `replica` would silence every trigger, including the ones
-- that protect the audit trail, and only a superuser can change it, so the
-- tool refuses to work in such a session rather than change it.
-- The functions are schema-qualified: until this statement has run, the
-- search path is whatever the connection brought.
SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true) AS search_path,
       pg_catalog.set_config('jit', 'off', true) AS jit,
       pg_catalog.current_setting('session_replication_role') AS session_replication_role
