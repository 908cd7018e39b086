-- Production-size data for the benchmarks and the EXPLAIN check.
--
-- Loaded after schema.sql; then `SELECT * FROM bench.generate(scale)` fills
-- the reference schema and returns the row count of each table. It runs no
-- VACUUM (it cannot, inside a function, and must not: the benchmark
-- measures a freshly loaded database first, then a vacuumed one); follow
-- it with ANALYZE at least.
--
-- scale = 1.0 is the benchmark's data set (README, "Performance"): 100,000 deployments (most
-- running, destroyed or failed; 300 in flight, most of those stuck), ~2.1M
-- events (five in-flight deployments with 12,000 each, 195 with 1,000, the
-- rest 11 to 29, skewed towards the low end), 200,000 jobs (a build and a
-- deploy per deployment), ~150,000 instances and as many allocations,
-- 5,000 nodes in four pools, routes and network attachments. The five long
-- trails stay 12,000 events long down to scale 0.25 (so `diagnose` of the
-- same deployment compares across sizes) and shrink below that, so the
-- tests' scale 0.01 stays small. `nodes` overrides the node count (the
-- benchmark's 50,000-node fleet). Skewed, deterministic (a hash of the row
-- number decides), ids sequential per table so the load is fast.

CREATE SCHEMA IF NOT EXISTS bench;

-- A deterministic id: the table's kind in the first group, n in the last.
CREATE FUNCTION bench.uid(kind int, n bigint) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
    SELECT (lpad(to_hex(kind), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid
$$;

-- A deterministic "random" number in [0, 1000) for row n and a salt.
CREATE FUNCTION bench.h(n bigint, salt int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
    SELECT (((n * 2654435761 + salt * 40503) % 1000003) % 1000)::int
$$;

-- The status of deployment n: the first in_flight are queued/building/deploying.
CREATE FUNCTION bench.deployment_status(n bigint, in_flight bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN n <= in_flight THEN (ARRAY['queued', 'building', 'deploying'])[1 + n % 3]
        WHEN bench.h(n, 1) < 350 THEN 'running'
        WHEN bench.h(n, 1) < 750 THEN 'destroyed'
        WHEN bench.h(n, 1) < 990 THEN 'failed'
        ELSE 'teardown_queued'
    END
$$;

-- How many events deployment n has. The five long trails hold 12,000 from
-- scale 0.25 up (the same deployment compares across sizes) and the 195
-- medium ones 1,000; below that both shrink, so the tests' set stays small.
-- The rest hold 11 to 29, more of them near 11 (k * (k + 18) / 36 over
-- k = 0..18 averages about 7.6): ~2.1M events in all at scale 1.
CREATE FUNCTION bench.event_count(n bigint, scale float8) RETURNS int
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN n <= 5 THEN greatest(100, least(12000, (48000 * scale)::int))
                WHEN n <= 200 THEN greatest(20, least(1000, (4000 * scale)::int))
                ELSE 11 + ((n % 19) * (n % 19 + 18) / 36)::int END
$$;

-- The deployments the benchmark diagnoses, the same ones at every scale
-- (both in flight and stuck at every scale, the long one with an expired
-- lease nobody reclaimed): a typical trail (17 events) and a 12,000-event
-- one (fewer below scale 0.25).
CREATE FUNCTION bench.examples() RETURNS TABLE (example text, deployment_id uuid)
LANGUAGE sql IMMUTABLE AS $$
    VALUES ('typical', bench.uid(2, 218)), ('long_trail', bench.uid(2, 1))
$$;

-- `nodes`: the number of nodes (NULL: 5,000 at scale 1, in proportion).
-- `in_flight_at_least`: the fewest deployments in flight. The default, 220,
-- keeps bench.examples() in flight at every scale the benchmark may run
-- (its quick check included); the EXPLAIN test asks for 20, so that on its
-- small set every statement's cost scales with the data (its JIT threshold
-- is scaled to the data).
CREATE FUNCTION bench.generate(scale float8, nodes int DEFAULT NULL,
                               in_flight_at_least int DEFAULT 220)
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql AS $$
DECLARE
    n_nodes       bigint := coalesce(nodes, greatest(40, (5000 * scale)::bigint));
    n_deployments bigint := greatest(1000, (100000 * scale)::bigint);
    n_in_flight   bigint := greatest(in_flight_at_least, (300 * scale)::bigint);
BEGIN
    -- Nodes: edge 60%, build 25%, gpu 10%, batch 5%; mostly online.
    INSERT INTO fleet_nodes (id, name, pool, status, schedulable, slots, last_seen_at)
    SELECT bench.uid(1, n),
           format('node-%s', lpad(n::text, 5, '0')),
           CASE WHEN bench.h(n, 2) < 600 THEN 'edge' WHEN bench.h(n, 2) < 850 THEN 'build'
                WHEN bench.h(n, 2) < 950 THEN 'gpu' ELSE 'batch' END,
           CASE WHEN bench.h(n, 3) < 930 THEN 'online' WHEN bench.h(n, 3) < 970 THEN 'draining'
                ELSE 'offline' END,
           bench.h(n, 4) < 950,
           4 + (n % 8) * 4,
           CASE WHEN bench.h(n, 3) >= 970 THEN now() - interval '1 day' * (1 + n % 20)
                WHEN bench.h(n, 5) < 10 THEN now() - interval '1 minute' * (10 + n % 180)
                ELSE now() - interval '1 second' * (n % 20) END
    FROM generate_series(1, n_nodes) AS n;

    INSERT INTO deployments (id, org_id, status, created_at, updated_at)
    SELECT bench.uid(2, n), bench.uid(3, 1 + n % 3000), bench.deployment_status(n, n_in_flight),
           now() - interval '1 hour' * (1 + bench.h(n, 6) * 26),
           CASE WHEN n <= n_in_flight THEN now() - interval '1 minute' * (20 + (n * 37) % 300)
                ELSE now() - interval '1 hour' * (bench.h(n, 6) * 26) END
    FROM generate_series(1, n_deployments) AS n;

    -- Events: the last one of an in-flight deployment is 20 minutes to 5
    -- hours old (spread by n * 37, so the first ones, the long trails, are
    -- too), so most of them are stuck (quiet for over 30 minutes).
    INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
    SELECT s, bench.uid(4, (n - 1) * 12000 + s), d.org_id, d.id,
           CASE WHEN s = 1 THEN 'deployment_created' WHEN s % 7 = 0 THEN 'build_progress'
                ELSE 'progress' END,
           CASE WHEN s % 10 = 0
                THEN jsonb_build_object('step', s, 'log', repeat('build output line ', 10))
                ELSE jsonb_build_object('step', s) END,
           d.updated_at - interval '1 second' * (bench.event_count(n, scale) - s)
    FROM generate_series(1, n_deployments) AS n
    JOIN deployments d ON d.id = bench.uid(2, n)
    CROSS JOIN LATERAL generate_series(1, bench.event_count(n, scale)) AS s;

    -- Jobs: two per deployment (build, deploy). In flight: a third never
    -- dispatched (queued, no target), a third whose build holds an expired
    -- lease nobody reclaimed, a third targeted and queued.
    INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts,
                      available_at, lease_token, lease_expires_at, payload, created_at, updated_at)
    SELECT bench.uid(5, (n - 1) * 2 + k), d.id,
           (ARRAY['build', 'deploy'])[k],
           CASE WHEN d.status IN ('queued', 'building', 'deploying') THEN
                     CASE WHEN n % 3 = 1 AND k = 1 THEN 'leased' ELSE 'queued' END
                WHEN d.status = 'failed' THEN 'failed'
                ELSE 'succeeded' END,
           CASE WHEN d.status IN ('queued', 'building', 'deploying') AND n % 3 = 0 THEN NULL
                ELSE bench.uid(1, 1 + (n * 7 + k) % n_nodes) END,
           CASE WHEN d.status = 'failed' THEN 3 ELSE 1 END, 3,
           d.created_at,
           CASE WHEN d.status IN ('queued', 'building', 'deploying') AND n % 3 = 1 AND k = 1
                THEN bench.uid(6, (n - 1) * 2 + k) END,
           CASE WHEN d.status IN ('queued', 'building', 'deploying') AND n % 3 = 1 AND k = 1
                THEN now() - interval '1 minute' * (5 + n % 90) END,
           CASE WHEN d.status = 'failed'
                THEN jsonb_build_object('last_error', 'exit status 1', 'log', repeat('x', 200))
                ELSE '{}'::jsonb END,
           d.created_at, d.updated_at
    FROM generate_series(1, n_deployments) AS n
    JOIN deployments d ON d.id = bench.uid(2, n)
    CROSS JOIN generate_series(1, 2) AS k;

    -- Results: for the build and deploy jobs that finished.
    INSERT INTO agent_job_results (id, job_id, node_id, attempt, lease_token, outcome, output, reported_at)
    SELECT bench.uid(7, j.n), j.id, j.target_node_id, j.attempt, bench.uid(8, j.n),
           CASE WHEN j.status = 'failed' THEN 'failed' ELSE 'succeeded' END,
           jsonb_build_object('log', repeat('y', 100)), j.updated_at
    FROM (SELECT row_number() OVER () AS n, * FROM jobs
          WHERE status IN ('succeeded', 'failed') AND kind IN ('build', 'deploy')
            AND target_node_id IS NOT NULL AND id <> bench.uid(5, 0)) j
    WHERE j.n % 5 <> 0;

    -- Instances and their allocations: two per running deployment (active),
    -- two per destroyed one (removed, released), one per teardown_queued.
    INSERT INTO application_instances (id, deployment_id, role_name, status, active_node_id, generation)
    SELECT bench.uid(9, (n - 1) * 2 + r), d.id, (ARRAY['web', 'worker'])[r],
           CASE d.status WHEN 'running' THEN 'running' WHEN 'teardown_queued' THEN 'stopping'
                ELSE 'removed' END,
           CASE WHEN d.status IN ('running', 'teardown_queued')
                THEN bench.uid(1, 1 + (n * 13 + r) % n_nodes) END,
           1
    FROM generate_series(1, n_deployments) AS n
    JOIN deployments d ON d.id = bench.uid(2, n)
    CROSS JOIN generate_series(1, 2) AS r
    WHERE d.status IN ('running', 'destroyed') OR (d.status = 'teardown_queued' AND r = 1);

    INSERT INTO fleet_allocations (id, node_id, resource_kind, resource_id, status, created_at, released_at)
    SELECT bench.uid(10, row_number() OVER ()), coalesce(i.active_node_id, bench.uid(1, 1 + abs(hashtext(i.id::text)) % n_nodes)),
           'application_instance', i.id,
           CASE WHEN i.status = 'removed' THEN 'released' ELSE 'active' END,
           now() - interval '30 days', CASE WHEN i.status = 'removed' THEN now() - interval '1 day' END
    FROM application_instances i;

    INSERT INTO ingress_analytics_routes (hostname, deployment_id, route_generation, status)
    SELECT format('app-%s.apps.example.net', n), d.id, 1,
           CASE d.status WHEN 'running' THEN 'active' ELSE 'removed' END
    FROM generate_series(1, n_deployments) AS n
    JOIN deployments d ON d.id = bench.uid(2, n)
    WHERE d.status IN ('running', 'destroyed');

    INSERT INTO network_attachments (id, deployment_id, segment, node_id, created_at)
    SELECT bench.uid(11, n), bench.uid(2, n), format('seg-%s', n % 500), bench.uid(1, 1 + n % n_nodes),
           now() - interval '1 day'
    FROM generate_series(1, n_deployments) AS n
    WHERE bench.h(n, 9) < 100;

    -- No VACUUM here (it cannot run in a function): the caller ANALYZEs, and
    -- vacuums when it wants the vacuumed state (the visibility map that
    -- index-only scans rely on is only set by VACUUM).
    RETURN QUERY
    SELECT t, (xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I', t), false, true, '')))[1]::text::bigint
    FROM unnest(ARRAY['fleet_nodes', 'deployments', 'deployment_events', 'jobs', 'agent_job_results',
                      'application_instances', 'fleet_allocations', 'ingress_analytics_routes',
                      'network_attachments']) AS t;
END;
$$;
