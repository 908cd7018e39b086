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
-- A standby's lag from WAL positions (README, "Connecting"): 0 when replay
-- has caught up with what was received; while received WAL waits (replay
-- paused, or busy), the age of the last replayed transaction, which is how
-- long the primary may have moved on since; NULL when nothing says (no WAL
-- receiver, nothing replayed). Never the age alone: an idle primary is not
-- lag.
CASE WHEN pg_is_in_recovery() THEN
     CASE WHEN pg_catalog.pg_last_wal_receive_lsn() IS NULL THEN NULL
          WHEN pg_catalog.pg_last_wal_replay_lsn() >= pg_catalog.pg_last_wal_receive_lsn() THEN 0::float8
          ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
     END
END AS replay_lag_seconds,
CASE WHEN pg_is_in_recovery() THEN pg_catalog.pg_is_wal_replay_paused() ELSE false END AS replay_paused,
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
