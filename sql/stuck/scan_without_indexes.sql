-- stuck, on a schema without the indexes sql/stuck/scan.sql probes (it says
-- so with `indexed = false` and reads nothing; the caller then runs this).
-- The same rows, columns and parameters as scan.sql, in ONE statement: one
-- snapshot. $3 the schema's name (to find the trail's index), $4 the
-- clock skew tolerance (milliseconds).
--
-- Why this is a file of its own and not a branch of scan.sql: a plan is
-- made before the statement runs, so one statement would carry this plan
-- (sequential scans of the big tables, by design) inside scan.sql's, which
-- the EXPLAIN check holds to no sequential scan and no JIT-sized cost;
-- this one is exempt (testing::plans::READS_WHOLE_TABLES). It runs in a
-- flight of its own after scan.sql said `indexed = false` (a second round
-- trip, on such a schema only). tests/it/without_indexes.rs holds the two
-- to the same answer, with the indexes and without.
--
-- Without an index per deployment, a probe per deployment is a sequential
-- scan per deployment. Here every table is read at most once, as psql's
-- alert queries do: the in-flight deployments, each one's last event (a
-- probe of the trail's unique key, or one pass over the events without
-- it), and joins (hashed, when nothing better exists) for their jobs,
-- results and instances. With the indexes this
-- would read whole trails where scan.sql reads one event each: it only
-- runs without them.
WITH trail_index AS MATERIALIZED (
    -- The trail's own unique key (deployment_id, sequence) is an index
    -- that leads with deployment_id: fail-safely requires it, so it is
    -- almost always there, and then a probe per deployment is the cheap way.
    SELECT EXISTS (
        SELECT 1
        FROM pg_catalog.pg_index x
        JOIN pg_catalog.pg_class t ON t.oid = x.indrelid
        JOIN pg_catalog.pg_namespace s ON s.oid = t.relnamespace
        JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
        WHERE s.nspname = $3 AND t.relname = 'deployment_events' AND a.attname = 'deployment_id'
          AND x.indisvalid AND x.indpred IS NULL
    ) AS present
), in_flight AS MATERIALIZED (
    SELECT d.id, d.org_id, d.status, d.created_at
    FROM :"schema".deployments d
    WHERE d.status IN ('queued', 'building', 'deploying')
), last_event AS MATERIALIZED (
    SELECT d.id, l.event_id, l.sequence, l.occurred_at, l.kind
    FROM in_flight d
    CROSS JOIN LATERAL (
        SELECT e.id AS event_id, e.sequence, e.occurred_at, e.kind
        FROM :"schema".deployment_events e
        WHERE e.deployment_id = d.id
        ORDER BY e.sequence DESC
        LIMIT 1
    ) l
    WHERE (SELECT present FROM trail_index)
    UNION ALL
    -- Without it, one pass over the events. (One-time filters: only one
    -- of the two branches ever runs.)
    SELECT scanned.id, scanned.event_id, scanned.sequence, scanned.occurred_at, scanned.kind
    FROM (
        SELECT DISTINCT ON (e.deployment_id) e.deployment_id AS id, e.id AS event_id,
               e.sequence, e.occurred_at, e.kind
        FROM :"schema".deployment_events e
        JOIN in_flight d ON d.id = e.deployment_id
        WHERE NOT (SELECT present FROM trail_index)
        ORDER BY e.deployment_id, e.sequence DESC
    ) scanned
), quiet AS MATERIALIZED (
    SELECT d.id, d.org_id, d.status, d.created_at,
           l.event_id AS last_event_id,
           l.occurred_at AS last_event_at, l.kind AS last_event_kind,
           CASE WHEN l.event_id IS NULL THEN d.created_at ELSE l.occurred_at END AS activity
    FROM in_flight d
    LEFT JOIN last_event l ON l.id = d.id
    -- A last activity that is NULL cannot be told from a stuck one: shown.
    WHERE CASE WHEN l.event_id IS NULL THEN d.created_at ELSE l.occurred_at END IS NULL
       OR CASE WHEN l.event_id IS NULL THEN d.created_at ELSE l.occurred_at END
          <= now() - $1::bigint * interval '1 millisecond'
), jobs_read AS MATERIALIZED (
    -- One pass over jobs for both alerts: the jobs of the quiet
    -- deployments, and the leases nobody reclaimed. (IN, not a join: the
    -- planner hashes the few quiet ids and streams the table past them.)
    SELECT j.id, j.deployment_id, j.kind, j.status, j.target_node_id, j.attempt,
           j.max_attempts, j.lease_expires_at,
           j.target_node_id IS NOT NULL OR j.lease_token IS NOT NULL
               OR j.lease_expires_at IS NOT NULL AS touched,
           j.deployment_id IN (SELECT id FROM quiet) AS of_quiet,
           j.status = 'leased'
               AND j.lease_expires_at < now() - $2::bigint * interval '1 millisecond' AS orphaned
    FROM :"schema".jobs j
    WHERE j.deployment_id IN (SELECT id FROM quiet)
       OR (j.status = 'leased'
           AND j.lease_expires_at < now() - $2::bigint * interval '1 millisecond')
), their_jobs AS (
    SELECT id, deployment_id, kind, status, target_node_id, touched FROM jobs_read WHERE of_quiet
), their_instances AS MATERIALIZED (
    SELECT i.id, i.deployment_id, i.status, i.active_node_id
    FROM :"schema".application_instances i
    WHERE i.deployment_id IN (SELECT id FROM quiet)
), dispatched AS (
    -- The README's definition ("The break-glass decision"), exactly: a job
    -- of it was targeted, leased or reported on, or an instance of it was
    -- placed.
    SELECT deployment_id FROM their_jobs WHERE touched
    UNION
    SELECT j.deployment_id FROM their_jobs j
    WHERE j.id IN (SELECT r.job_id FROM :"schema".agent_job_results r
                   WHERE r.job_id IN (SELECT id FROM their_jobs))
    UNION
    SELECT deployment_id FROM their_instances WHERE active_node_id IS NOT NULL
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
), jobs_of AS (
    -- Each deployment's jobs and instances as JSON, grouped once (not a
    -- scan of the CTE per deployment).
    SELECT deployment_id,
           json_agg(json_build_object('id', id, 'kind', kind, 'status', status) ORDER BY id)
               AS jobs_seen
    FROM their_jobs
    GROUP BY deployment_id
), instances_of AS (
    SELECT deployment_id,
           json_agg(json_build_object('id', id, 'status', status) ORDER BY id) AS instances_seen
    FROM their_instances
    GROUP BY deployment_id
), stuck AS (
    SELECT q.id,
           q.org_id,
           q.status,
           q.created_at,
           q.last_event_id,
           q.last_event_at,
           q.last_event_kind,
           floor(extract(epoch FROM now() - q.activity))::bigint AS stuck_for_seconds,
           q.id IN (SELECT deployment_id FROM dispatched) AS dispatched,
           coalesce(w.waits_on, '[]'::json) AS waits_on,
           jo.jobs_seen,
           io.instances_seen
    FROM quiet q
    LEFT JOIN waits w ON w.deployment_id = q.id
    LEFT JOIN jobs_of jo ON jo.deployment_id = q.id
    LEFT JOIN instances_of io ON io.deployment_id = q.id
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
           -- job of the deployment has a lease (lease_expires_at is set).
           true AS dispatched
    FROM jobs_read j
    -- By primary key, per orphaned lease (a few): not a hash of every
    -- deployment, which the planner would pick on its guess of jobs_read.
    -- (OFFSET 0 keeps each subquery a probe: pulled up into the join, it
    -- became that hash.)
    CROSS JOIN LATERAL (SELECT d.org_id, d.status FROM :"schema".deployments d
                        WHERE d.id = j.deployment_id OFFSET 0) d
    LEFT JOIN LATERAL (SELECT n.name, n.status, n.pool, n.last_seen_at
                       FROM :"schema".fleet_nodes n
                       WHERE n.id = j.target_node_id OFFSET 0) n ON true
    WHERE j.orphaned
)
SELECT :read_settings,
       false AS indexed,
       (SELECT json_agg(s ORDER BY coalesce(s.last_event_at, s.created_at), s.id)
        FROM stuck s) AS stuck_rows,
       (SELECT json_agg(o ORDER BY o.lease_expires_at, o.job_id)
        FROM orphaned o) AS orphaned_rows,
       (SELECT json_agg(k ORDER BY k.ahead_seconds DESC, k.deployment_id, k.node)
        FROM (SELECT CASE WHEN l.occurred_at IS NULL THEN 'created' ELSE 'event' END AS of,
                     d.id AS deployment_id, l.sequence, NULL::text AS node,
                     coalesce(l.occurred_at, d.created_at) AS at,
                     floor(extract(epoch FROM coalesce(l.occurred_at, d.created_at) - now()))::bigint
                         AS ahead_seconds
              FROM in_flight d
              LEFT JOIN last_event l ON l.id = d.id
              WHERE coalesce(l.occurred_at, d.created_at) > now() + $4::bigint * interval '1 millisecond'
              UNION ALL
              SELECT 'heartbeat', NULL, NULL, n.name, n.last_seen_at,
                     floor(extract(epoch FROM n.last_seen_at - now()))::bigint
              FROM :"schema".fleet_nodes n
              WHERE n.last_seen_at > now() + $4::bigint * interval '1 millisecond') k) AS clock_skew_rows
