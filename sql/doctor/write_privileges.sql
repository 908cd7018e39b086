-- Whether a role ($1) may make fail-safely's two writes in the schema ($2).
SELECT coalesce((SELECT has_table_privilege($1::text::name, c.oid, 'UPDATE')
                 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = $2::text AND c.relname = 'deployments'
                   AND c.relkind IN ('r', 'p')), false) AS may_update,
       coalesce((SELECT has_table_privilege($1::text::name, c.oid, 'INSERT')
                 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = $2::text AND c.relname = 'deployment_events'
                   AND c.relkind IN ('r', 'p')), false) AS may_insert
