-- Everything doctor reads besides the schema check (README, "What each
-- command does"), in one statement, one round trip: one JSON document.
--   tls: TLS in force on this session, as the server sees it;
--   server: the server's version, as text and as a number to compare;
--   recovery: primary or standby, and a standby's replay lag in seconds;
--   identity: who this session is, and where;
--   readable: for each table ($2) whether it exists in the schema ($1) and
--     the current user may read it;
--   write: whether the current user, and the role of --role ($3, NULL
--     without; nothing for a role that does not exist), may make
--     fail-safely's two writes in the schema;
--   indexes: for each index ($4, the reference schema's names, which
--     doctor prints with their definition) whether it exists in the schema;
--   settings: for each setting ($5) the raw value in force and as SHOW
--     prints it.
WITH writes AS (
    SELECT (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1::text AND c.relname = 'deployments'
              AND c.relkind IN ('r', 'p')) AS deployments_oid,
           (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1::text AND c.relname = 'deployment_events'
              AND c.relkind IN ('r', 'p')) AS events_oid,
           EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = $3::text) AS role_exists
)
SELECT json_build_object(
    'tls', (SELECT json_build_object('ssl', coalesce(s.ssl, false),
                                     'version', coalesce(s.version, ''),
                                     'cipher', coalesce(s.cipher, ''))
            FROM (SELECT 1) one
            LEFT JOIN pg_stat_ssl s ON s.pid = pg_backend_pid()),
    'server', json_build_object('version', current_setting('server_version'),
                                'number', current_setting('server_version_num')::int),
    'recovery', json_build_object(
        'standby', pg_is_in_recovery(),
        -- The lag from WAL positions, as sql/session/read_settings.sql.
        'lag', CASE WHEN pg_is_in_recovery() THEN
                    CASE WHEN pg_catalog.pg_last_wal_receive_lsn() IS NULL THEN NULL
                         WHEN pg_catalog.pg_last_wal_replay_lsn() >= pg_catalog.pg_last_wal_receive_lsn() THEN 0::float8
                         ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
                    END
               END,
        'paused', CASE WHEN pg_is_in_recovery() THEN pg_catalog.pg_is_wal_replay_paused() ELSE false END),
    'identity', json_build_object('session_user', session_user::text,
                                  'current_user', current_user::text,
                                  'database', current_database()::text),
    'readable', (SELECT json_object_agg(t.name, json_build_object(
                     'present', EXISTS (SELECT 1 FROM pg_class c
                                        JOIN pg_namespace n ON n.oid = c.relnamespace
                                        WHERE n.nspname = $1::text AND c.relname = t.name
                                          AND c.relkind IN ('r', 'p')),
                     'readable', coalesce((SELECT bool_and(has_table_privilege(c.oid, 'SELECT'))
                                           FROM pg_class c
                                           JOIN pg_namespace n ON n.oid = c.relnamespace
                                           WHERE n.nspname = $1::text AND c.relname = t.name
                                             AND c.relkind IN ('r', 'p')), false)))
                 FROM unnest($2::text[]) AS t(name)),
    'write', (SELECT json_build_object(
                  'self', json_build_object(
                      'may_update', coalesce(has_table_privilege(w.deployments_oid, 'UPDATE'), false),
                      'may_insert', coalesce(has_table_privilege(w.events_oid, 'INSERT'), false)),
                  'role', CASE WHEN w.role_exists THEN json_build_object(
                      'may_update', coalesce(has_table_privilege($3::text::name, w.deployments_oid,
                                                                 'UPDATE'), false),
                      'may_insert', coalesce(has_table_privilege($3::text::name, w.events_oid,
                                                                 'INSERT'), false)) END)
              FROM writes w),
    'indexes', (SELECT json_object_agg(i.name, EXISTS (
                    SELECT 1 FROM pg_class c
                    JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = $1::text AND c.relname = i.name
                      AND c.relkind IN ('i', 'I')))
                FROM unnest($4::text[]) AS i(name)),
    -- Whether this database records plans (approvals install), and the
    -- enforcing trigger on the events table; the policy itself is read
    -- after, only where the schema is installed (sql/approvals/policy.sql).
    'approvals', json_build_object(
        'installed', to_regclass('pushleft_approvals.policy') IS NOT NULL
                     AND to_regclass('pushleft_approvals.plans') IS NOT NULL
                     AND to_regclass('pushleft_approvals.applications') IS NOT NULL,
        'enforcing', EXISTS (SELECT 1 FROM pg_trigger t
                             JOIN pg_class c ON c.oid = t.tgrelid
                             JOIN pg_namespace n ON n.oid = c.relnamespace
                             WHERE n.nspname = $1::text AND c.relname = 'deployment_events'
                               AND t.tgname = 'pushleft_approvals_enforce'
                               AND t.tgenabled <> 'D'),
        'owner', (SELECT pg_get_userbyid(nspowner)::text FROM pg_namespace
                  WHERE nspname = 'pushleft_approvals')),
    'settings', (SELECT json_object_agg(s.name, json_build_object(
                     'setting', s.setting, 'shown', current_setting(s.name)))
                 FROM pg_settings s
                 WHERE s.name = ANY ($5::text[]))
) AS facts
