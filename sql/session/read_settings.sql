-- What every one-statement read returns first (a statement names it with
-- the psql variable read_settings at the head of its select list; the
-- registry renders it, and so does psql after `\set read_settings …`): the
-- settings the statement ran with (pinned and checked by the transaction's
-- first message already, sql/session/begin.sql; shown in the reports), and
-- the server row every report shows (db::snapshot::read_info): the read's instant, whether a standby answered and how far
-- behind its replay is; and the tables (and their partitions and children)
-- where row-level security applies to the role, so rows may be hidden
-- from the read: their names, and for each its owner, whether the policy
-- binds the owner too (FORCE ROW LEVEL SECURITY) and the names of the
-- policies (`decide::blind` refuses to vouch for a verdict read through
-- them); and the role that read. A fragment of a select list: never run
-- alone.
pg_catalog.current_setting('search_path') AS search_path,
pg_catalog.current_setting('jit') AS jit,
pg_catalog.current_setting('session_replication_role') AS session_replication_role,
now() AS at,
pg_is_in_recovery() AS in_recovery,
CASE WHEN pg_is_in_recovery()
     THEN extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
END AS replay_lag_seconds,
current_setting('server_version') AS server_version,
current_setting('transaction_isolation') AS isolation,
current_setting('transaction_read_only') = 'on' AS read_only,
(WITH RECURSIVE tree AS (
     SELECT c.oid AS relid
     FROM pg_catalog.pg_class c
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = :'schema'
       AND c.relname IN ('deployments', 'deployment_events', 'jobs', 'agent_job_results',
                         'source_snapshots', 'release_artifacts', 'application_instances',
                         'fleet_allocations', 'ingress_analytics_routes', 'fleet_nodes',
                         'network_attachments')
     UNION ALL
     SELECT i.inhrelid FROM pg_catalog.pg_inherits i JOIN tree ON i.inhparent = tree.relid
 )
 SELECT pg_catalog.json_agg(pg_catalog.json_build_object(
            'table', c.relname::text,
            'owner', pg_catalog.pg_get_userbyid(c.relowner)::text,
            'forced', c.relforcerowsecurity,
            'policies', (SELECT coalesce(pg_catalog.array_agg(p.polname::text ORDER BY p.polname),
                                         '{}'::text[])
                         FROM pg_catalog.pg_policy p WHERE p.polrelid = c.oid))
        ORDER BY c.relname)
 FROM tree JOIN pg_catalog.pg_class c ON c.oid = tree.relid
 WHERE c.relrowsecurity
   AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                   WHERE r.rolname = current_user AND (r.rolsuper OR r.rolbypassrls))
   AND (c.relforcerowsecurity
        OR NOT pg_catalog.pg_has_role(current_user, c.relowner, 'USAGE'))
) AS row_security_detail,
current_user::text AS reading_role
