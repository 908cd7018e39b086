-- Whether a role ($1) may make fail-safely's two writes.
SELECT has_table_privilege($1, 'deployments', 'UPDATE') AS may_update,
       has_table_privilege($1, 'deployment_events', 'INSERT') AS may_insert
