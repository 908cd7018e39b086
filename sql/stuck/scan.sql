-- stuck: both alerts, fleet-wide, in ONE statement: one round trip, one
-- snapshot (a statement never sees a change that commits while it runs).
-- Always one row: the settings it ran with (the caller refuses a read made
-- without its pinned search path, with JIT on, with triggers silenced, or
-- outside a read-only transaction), the server, and each alert's rows as
-- a JSON array (NULL when there are none).
--
-- $1 stuck after (milliseconds, bigint): deployment_stuck, in flight
-- (queued, building, deploying) with no event for that long, or, without
-- any event, created that long ago.
-- $2 grace (milliseconds, bigint): job_lease_orphaned, a job still `leased`
-- whose lease expired more than that long ago. Reclaiming a lease moves the
-- job out of `leased` (or renews lease_expires_at), so such a job was not
-- reclaimed.
-- $3 the schema's name (to find its indexes in the catalog).
-- $4 clock skew tolerance (milliseconds, bigint): `clock_skew_rows` lists
-- the in-flight deployments whose last event (or creation, without one)
-- and the nodes whose heartbeat is further ahead of now() than that: a
-- deployment whose last event is ahead is never stuck by deployment_stuck
-- until the server's clock passes it, a node never stale.
--
-- This statement probes an index per deployment. On a schema without
-- those indexes (the control plane's schema is not ours to index) every
-- probe would be a sequential scan, so it first looks them up: when one is
-- missing, it reads nothing (the one-time filters below are false) and says
-- `indexed = false`, and the caller runs sql/stuck/scan_without_indexes.sql,
-- which reads each table once.
--
-- Why two files and not one statement for both schemas: a plan is made
-- before the statement runs, so one statement would carry both plans, the
-- probe per deployment and the pass over every table, whichever of them
-- runs. The EXPLAIN check (src/testing/plans.rs, tests/it/explain.rs and
-- the benchmark) could then no longer hold this one to "no sequential scan
-- of a big table, no JIT-sized plan": the pass's scans would be in its
-- plan, and at production size their cost alone is over jit_above_cost.
-- So this statement runs first, alone in its flight (one round trip), and
-- the pass only where it says `indexed = false`. Both return the same
-- rows, columns and parameters, and tests/it/without_indexes.rs holds the
-- two to the same answer, with the indexes and without, so they cannot
-- drift apart.
--
-- The in-flight deployments come from the partial index
-- deployments_in_flight (a small fraction of the table); the last event of
-- each is one probe of deployment_events_deployment_sequence, backwards.
-- Leased jobs by expiry come from the partial index jobs_leased_expiry.
-- `dispatched` is the README's definition ("The break-glass decision"),
-- exactly; the path is decided from it in Rust by verdict::decide_path,
-- nowhere else. `nodes` names where a deployment waits: the targets of its
-- unfinished jobs and the nodes of its instances (`waits_on`: each node's
-- id, name and pool, made into `nodes` and `pools` by the caller, which
-- reports a NULL name or pool instead of failing on it). `jobs_seen` and
-- `instances_seen` carry the kind and status of each job and instance of a
-- stuck deployment, so the caller can tell a value the model does not know
-- (it then decides no path for the row). A deployment whose last activity
-- is unknown (its last event's occurred_at, or its created_at without
-- events, is NULL) is listed too: whether it is stuck cannot be told, so it
-- is shown, not dropped.
WITH indexed AS MATERIALIZED (
    -- An index (valid, not partial) that leads with each probed column.
    SELECT count(DISTINCT t.relname) = 4 AS present
    FROM pg_catalog.pg_index x
    JOIN pg_catalog.pg_class t ON t.oid = x.indrelid
    JOIN pg_catalog.pg_namespace s ON s.oid = t.relnamespace
    JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
    WHERE s.nspname = $3 AND x.indisvalid AND x.indpred IS NULL
      AND (t.relname, a.attname) IN (('deployment_events', 'deployment_id'),
                                     ('jobs', 'deployment_id'),
                                     ('application_instances', 'deployment_id'),
                                     ('agent_job_results', 'job_id'))
), in_flight AS MATERIALIZED (
    -- Every in-flight deployment with its last event: one probe each.
    -- The stuck rows and the clock skew rows both come from here.
    SELECT d.id,
           d.org_id,
           d.status,
           d.created_at,
           last.id AS last_event_id,
           last.sequence AS last_sequence,
           last.occurred_at AS last_event_at,
           last.kind AS last_event_kind,
           CASE WHEN last.id IS NULL THEN d.created_at ELSE last.occurred_at END AS activity
    FROM :"schema".deployments d
    LEFT JOIN LATERAL (
        SELECT e.id, e.sequence, e.occurred_at, e.kind
        FROM :"schema".deployment_events e
        WHERE e.deployment_id = d.id
        ORDER BY e.sequence DESC
        LIMIT 1
    ) last ON true
    WHERE d.status IN ('queued', 'building', 'deploying')
      AND (SELECT present FROM indexed)
), quiet AS MATERIALIZED (
    SELECT *
    FROM in_flight f
    WHERE f.activity IS NULL
       OR f.activity <= now() - $1::bigint * interval '1 millisecond'
), their_jobs AS MATERIALIZED (
    -- The jobs of the quiet deployments, each read once (a probe of
    -- jobs_deployment per deployment), and whether each was touched:
    -- targeted, leased or reported on (agent_job_results_job).
    SELECT j.id, j.deployment_id, j.kind, j.status, j.target_node_id,
           j.target_node_id IS NOT NULL
               OR j.lease_token IS NOT NULL
               OR j.lease_expires_at IS NOT NULL
               OR EXISTS (SELECT 1 FROM :"schema".agent_job_results r WHERE r.job_id = j.id)
               AS touched
    FROM quiet q
    JOIN :"schema".jobs j ON j.deployment_id = q.id
), their_instances AS MATERIALIZED (
    SELECT i.id, i.deployment_id, i.status, i.active_node_id
    FROM quiet q
    JOIN :"schema".application_instances i ON i.deployment_id = q.id
), jobs_of AS (
    SELECT deployment_id,
           bool_or(touched) AS touched,
           json_agg(json_build_object('id', id, 'kind', kind, 'status', status) ORDER BY id)
               AS jobs_seen
    FROM their_jobs
    GROUP BY deployment_id
), instances_of AS (
    SELECT deployment_id,
           bool_or(active_node_id IS NOT NULL) AS placed,
           json_agg(json_build_object('id', id, 'status', status) ORDER BY id) AS instances_seen
    FROM their_instances
    GROUP BY deployment_id
), waits AS (
    -- Where it waits: the nodes its unfinished jobs target and its
    -- instances are active on (fleet_nodes by its primary key).
    SELECT w.deployment_id,
           json_agg(json_build_object('id', n.id, 'name', n.name, 'pool', n.pool)
                    ORDER BY n.name, n.id) AS waits_on
    FROM (SELECT deployment_id, target_node_id AS node_id FROM their_jobs
          WHERE target_node_id IS NOT NULL AND status IN ('queued', 'leased')
          UNION
          SELECT deployment_id, active_node_id FROM their_instances
          WHERE status <> 'removed' AND active_node_id IS NOT NULL) w
    JOIN :"schema".fleet_nodes n ON n.id = w.node_id
    GROUP BY w.deployment_id
), stuck AS (
    SELECT q.id,
           q.org_id,
           q.status,
           q.created_at,
           q.last_event_id,
           q.last_event_at,
           q.last_event_kind,
           floor(extract(epoch FROM now() - q.activity))::bigint AS stuck_for_seconds,
           coalesce(jo.touched, false) OR coalesce(io.placed, false) AS dispatched,
           coalesce(w.waits_on, '[]'::json) AS waits_on,
           jo.jobs_seen,
           io.instances_seen
    FROM quiet q
    LEFT JOIN jobs_of jo ON jo.deployment_id = q.id
    LEFT JOIN instances_of io ON io.deployment_id = q.id
    LEFT JOIN waits w ON w.deployment_id = q.id
), orphaned AS (
    SELECT j.id AS job_id,
           j.deployment_id,
           d.org_id,
           d.status AS deployment_status,
           j.kind,
           j.attempt,
           j.max_attempts,
           j.target_node_id AS node_id,
           n.name AS node_name,
           n.status AS node_status,
           n.pool AS node_pool,
           floor(extract(epoch FROM now() - n.last_seen_at))::bigint AS node_heartbeat_age_seconds,
           j.lease_expires_at,
           floor(extract(epoch FROM now() - j.lease_expires_at))::bigint AS expired_for_seconds,
           -- `dispatched` (README, "The break-glass decision") holds: this
           -- job of the deployment has a lease (lease_expires_at is set,
           -- see WHERE).
           true AS dispatched
    FROM :"schema".jobs j
    JOIN :"schema".deployments d ON d.id = j.deployment_id
    LEFT JOIN :"schema".fleet_nodes n ON n.id = j.target_node_id
    WHERE j.status = 'leased'
      AND j.lease_expires_at < now() - $2::bigint * interval '1 millisecond'
      AND (SELECT present FROM indexed)
)
SELECT :read_settings,
       (SELECT present FROM indexed) AS indexed,
       (SELECT json_agg(s ORDER BY coalesce(s.last_event_at, s.created_at), s.id)
        FROM stuck s) AS stuck_rows,
       (SELECT json_agg(o ORDER BY o.lease_expires_at, o.job_id)
        FROM orphaned o) AS orphaned_rows,
       (SELECT json_agg(k ORDER BY k.ahead_seconds DESC, k.deployment_id, k.node)
        FROM (SELECT CASE WHEN f.last_event_at IS NULL THEN 'created' ELSE 'event' END AS of,
                     f.id AS deployment_id, f.last_sequence AS sequence, NULL::text AS node,
                     coalesce(f.last_event_at, f.created_at) AS at,
                     floor(extract(epoch FROM coalesce(f.last_event_at, f.created_at) - now()))::bigint
                         AS ahead_seconds
              FROM in_flight f
              WHERE coalesce(f.last_event_at, f.created_at) > now() + $4::bigint * interval '1 millisecond'
              UNION ALL
              SELECT 'heartbeat', NULL, NULL, n.name, n.last_seen_at,
                     floor(extract(epoch FROM n.last_seen_at - now()))::bigint
              FROM :"schema".fleet_nodes n
              WHERE n.last_seen_at > now() + $4::bigint * interval '1 millisecond'
                AND (SELECT present FROM indexed)) k) AS clock_skew_rows
