-- Incident scenarios for `pushleft-controller sandbox` (and the tests).
--
-- Loaded after schema.sql into a throwaway database. Every timestamp is
-- relative to now(), so the scenarios are "live" whenever they are loaded.
-- Deployment ids are fixed and documented in README.md: d0000001 ... d0000009.
-- Node ids are fixed too: a00000NN-...

BEGIN;

-- What the sandbox prints on start. Lives in its own schema so that the
-- reference schema stays exactly the production shape.
CREATE SCHEMA sandbox;
CREATE TABLE sandbox.scenarios (
    deployment_id uuid PRIMARY KEY,
    name          text NOT NULL,
    problem       text NOT NULL,
    try_command   text NOT NULL,
    position      int NOT NULL
);

-- The fleet: a dozen nodes across two pools.
INSERT INTO fleet_nodes (id, name, pool, status, schedulable, slots, last_seen_at) VALUES
    ('a0000001-0000-4000-8000-000000000001', 'build-01', 'build', 'online',   true,  8, now() - interval '4 seconds'),
    ('a0000002-0000-4000-8000-000000000002', 'build-02', 'build', 'online',   true,  8, now() - interval '11 seconds'),
    ('a0000003-0000-4000-8000-000000000003', 'build-03', 'build', 'online',   true,  8, now() - interval '52 minutes'),
    ('a0000004-0000-4000-8000-000000000004', 'build-04', 'build', 'draining', false, 8, now() - interval '7 seconds'),
    ('a0000005-0000-4000-8000-000000000005', 'build-05', 'build', 'offline',  false, 8, now() - interval '2 days'),
    ('a0000006-0000-4000-8000-000000000006', 'edge-01',  'edge',  'online',   true,  4, now() - interval '3 seconds'),
    ('a0000007-0000-4000-8000-000000000007', 'edge-02',  'edge',  'online',   true,  4, now() - interval '9 seconds'),
    ('a0000008-0000-4000-8000-000000000008', 'edge-03',  'edge',  'online',   false, 4, now() - interval '5 seconds'),
    ('a0000009-0000-4000-8000-000000000009', 'edge-04',  'edge',  'draining', false, 4, now() - interval '14 seconds'),
    ('a0000010-0000-4000-8000-000000000010', 'edge-05',  'edge',  'online',   true,  4, now() - interval '6 minutes'),
    ('a0000011-0000-4000-8000-000000000011', 'edge-06',  'edge',  'online',   true,  4, now() - interval '2 seconds'),
    ('a0000012-0000-4000-8000-000000000012', 'edge-07',  'edge',  'offline',  true,  4, now() - interval '3 hours 12 minutes');

-- Helper for event trails: one row per event, sequence 1..n.
CREATE PROCEDURE sandbox.add_events(dep uuid, kinds text[], first_at timestamptz, step interval)
LANGUAGE sql AS $$
    INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
    SELECT k.n, gen_random_uuid(), d.org_id, d.id, k.kind, jsonb_build_object('by', 'control-plane'),
           first_at + step * (k.n - 1)
    FROM unnest(kinds) WITH ORDINALITY AS k(kind, n), deployments d
    WHERE d.id = dep;
$$;

-- 1. Stuck queued 45 minutes, nothing ever dispatched -> operator_failed.
INSERT INTO deployments VALUES
    ('d0000001-0000-4000-8000-000000000001', 'c0000001-0000-4000-8000-000000000001', 'queued',
     now() - interval '47 minutes', now() - interval '45 minutes');
CALL sandbox.add_events('d0000001-0000-4000-8000-000000000001',
    ARRAY['deployment_created', 'source_verified', 'queued'], now() - interval '47 minutes', interval '1 minute');
INSERT INTO source_snapshots VALUES
    ('e0000001-0000-4000-8000-000000000001', 'd0000001-0000-4000-8000-000000000001', now() - interval '46 minutes');
INSERT INTO jobs (id, deployment_id, kind, status, attempt, max_attempts, available_at, created_at, updated_at) VALUES
    ('b0000001-0000-4000-8000-000000000001', 'd0000001-0000-4000-8000-000000000001', 'build', 'queued', 0, 3,
     now() - interval '45 minutes', now() - interval '45 minutes', now() - interval '45 minutes');

-- 2. Stuck building; the build job is targeted at build-03, whose lease
--    expired 38 minutes ago and nobody reclaimed it -> teardown_requested.
INSERT INTO deployments VALUES
    ('d0000002-0000-4000-8000-000000000002', 'c0000001-0000-4000-8000-000000000001', 'building',
     now() - interval '55 minutes', now() - interval '41 minutes');
CALL sandbox.add_events('d0000002-0000-4000-8000-000000000002',
    ARRAY['deployment_created', 'source_verified', 'queued', 'build_started'], now() - interval '55 minutes', interval '4 minutes 40 seconds');
INSERT INTO source_snapshots VALUES
    ('e0000002-0000-4000-8000-000000000002', 'd0000002-0000-4000-8000-000000000002', now() - interval '54 minutes');
INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts, available_at,
                  lease_token, lease_expires_at, payload, created_at, updated_at) VALUES
    ('b0000002-0000-4000-8000-000000000002', 'd0000002-0000-4000-8000-000000000002', 'build', 'leased',
     'a0000003-0000-4000-8000-000000000003', 1, 3, now() - interval '44 minutes',
     'f0000002-0000-4000-8000-000000000002', now() - interval '38 minutes', '{}',
     now() - interval '44 minutes', now() - interval '41 minutes');

-- 3. Stuck deploying; its instance is active on edge-07, dead for 3 hours.
--    -> teardown_requested, and the teardown will wait for edge-07.
INSERT INTO deployments VALUES
    ('d0000003-0000-4000-8000-000000000003', 'c0000002-0000-4000-8000-000000000002', 'deploying',
     now() - interval '4 hours', now() - interval '3 hours 15 minutes');
CALL sandbox.add_events('d0000003-0000-4000-8000-000000000003',
    ARRAY['deployment_created', 'source_verified', 'queued', 'build_started', 'build_succeeded', 'deploy_started'],
    now() - interval '4 hours', interval '9 minutes');
INSERT INTO source_snapshots VALUES
    ('e0000003-0000-4000-8000-000000000003', 'd0000003-0000-4000-8000-000000000003', now() - interval '3 hours 58 minutes');
INSERT INTO release_artifacts VALUES
    ('e1000003-0000-4000-8000-000000000003', 'd0000003-0000-4000-8000-000000000003', 'registry.internal/shop/web@sha256:3f1c9a');
INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts, available_at,
                  lease_token, lease_expires_at, payload, created_at, updated_at) VALUES
    ('b0000031-0000-4000-8000-000000000031', 'd0000003-0000-4000-8000-000000000003', 'build', 'succeeded',
     'a0000001-0000-4000-8000-000000000001', 1, 3, now() - interval '3 hours 55 minutes',
     NULL, NULL, '{}', now() - interval '3 hours 55 minutes', now() - interval '3 hours 40 minutes'),
    ('b0000032-0000-4000-8000-000000000032', 'd0000003-0000-4000-8000-000000000003', 'deploy', 'failed',
     'a0000012-0000-4000-8000-000000000012', 3, 3, now() - interval '3 hours 20 minutes',
     NULL, NULL, '{"last_error": "agent on edge-07 stopped answering"}',
     now() - interval '3 hours 35 minutes', now() - interval '3 hours 15 minutes');
INSERT INTO agent_job_results VALUES
    ('b1000031-0000-4000-8000-000000000031', 'b0000031-0000-4000-8000-000000000031', 'a0000001-0000-4000-8000-000000000001',
     1, 'f0000031-0000-4000-8000-000000000031', 'succeeded', '{"image": "registry.internal/shop/web@sha256:3f1c9a"}',
     now() - interval '3 hours 40 minutes');
INSERT INTO application_instances VALUES
    ('c1000031-0000-4000-8000-000000000031', 'd0000003-0000-4000-8000-000000000003', 'web', 'starting',
     'a0000012-0000-4000-8000-000000000012', 1);
INSERT INTO fleet_allocations VALUES
    ('c2000031-0000-4000-8000-000000000031', 'a0000012-0000-4000-8000-000000000012', 'application_instance',
     'c1000031-0000-4000-8000-000000000031', 'active', now() - interval '3 hours 30 minutes', NULL);
INSERT INTO ingress_analytics_routes VALUES
    ('shop-web.apps.example.net', 'd0000003-0000-4000-8000-000000000003', 1, 'active');

-- 4. Stuck queued, nothing dispatched, but a reservation exists and a network
--    attachment in its segment keeps the reaper from releasing it.
INSERT INTO deployments VALUES
    ('d0000004-0000-4000-8000-000000000004', 'c0000003-0000-4000-8000-000000000003', 'queued',
     now() - interval '1 hour 20 minutes', now() - interval '1 hour 10 minutes');
CALL sandbox.add_events('d0000004-0000-4000-8000-000000000004',
    ARRAY['deployment_created', 'source_verified', 'queued', 'capacity_reserved'],
    now() - interval '1 hour 20 minutes', interval '3 minutes');
INSERT INTO source_snapshots VALUES
    ('e0000004-0000-4000-8000-000000000004', 'd0000004-0000-4000-8000-000000000004', now() - interval '1 hour 18 minutes');
INSERT INTO release_artifacts VALUES
    ('e1000004-0000-4000-8000-000000000004', 'd0000004-0000-4000-8000-000000000004', 'registry.internal/crm/api@sha256:77ab02');
INSERT INTO jobs (id, deployment_id, kind, status, attempt, max_attempts, available_at, created_at, updated_at) VALUES
    ('b0000004-0000-4000-8000-000000000004', 'd0000004-0000-4000-8000-000000000004', 'deploy', 'queued', 0, 3,
     now() + interval '20 minutes', now() - interval '1 hour 12 minutes', now() - interval '1 hour 10 minutes');
INSERT INTO application_instances VALUES
    ('c1000041-0000-4000-8000-000000000041', 'd0000004-0000-4000-8000-000000000004', 'api', 'pending', NULL, 1),
    ('c1000042-0000-4000-8000-000000000042', 'd0000004-0000-4000-8000-000000000004', 'worker', 'pending', NULL, 1);
INSERT INTO fleet_allocations VALUES
    ('c2000041-0000-4000-8000-000000000041', 'a0000006-0000-4000-8000-000000000006', 'application_instance',
     'c1000041-0000-4000-8000-000000000041', 'reserved', now() - interval '1 hour 11 minutes', NULL),
    ('c2000042-0000-4000-8000-000000000042', 'a0000007-0000-4000-8000-000000000007', 'application_instance',
     'c1000042-0000-4000-8000-000000000042', 'reserved', now() - interval '1 hour 11 minutes', NULL);
INSERT INTO network_attachments VALUES
    ('c3000004-0000-4000-8000-000000000004', 'd0000004-0000-4000-8000-000000000004', 'seg-crm-7',
     'a0000006-0000-4000-8000-000000000006', now() - interval '1 hour 9 minutes');

-- 5. A healthy running deployment.
INSERT INTO deployments VALUES
    ('d0000005-0000-4000-8000-000000000005', 'c0000001-0000-4000-8000-000000000001', 'running',
     now() - interval '2 days', now() - interval '2 days' + interval '6 minutes');
CALL sandbox.add_events('d0000005-0000-4000-8000-000000000005',
    ARRAY['deployment_created', 'source_verified', 'queued', 'build_started', 'build_succeeded', 'deploy_started', 'running'],
    now() - interval '2 days', interval '1 minute');
INSERT INTO source_snapshots VALUES
    ('e0000005-0000-4000-8000-000000000005', 'd0000005-0000-4000-8000-000000000005', now() - interval '2 days');
INSERT INTO release_artifacts VALUES
    ('e1000005-0000-4000-8000-000000000005', 'd0000005-0000-4000-8000-000000000005', 'registry.internal/blog/web@sha256:0c4e11');
INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts, available_at, created_at, updated_at) VALUES
    ('b0000051-0000-4000-8000-000000000051', 'd0000005-0000-4000-8000-000000000005', 'build', 'succeeded',
     'a0000002-0000-4000-8000-000000000002', 1, 3, now() - interval '2 days', now() - interval '2 days', now() - interval '2 days'),
    ('b0000052-0000-4000-8000-000000000052', 'd0000005-0000-4000-8000-000000000005', 'deploy', 'succeeded',
     'a0000006-0000-4000-8000-000000000006', 1, 3, now() - interval '2 days', now() - interval '2 days', now() - interval '2 days');
INSERT INTO agent_job_results VALUES
    ('b1000051-0000-4000-8000-000000000051', 'b0000051-0000-4000-8000-000000000051', 'a0000002-0000-4000-8000-000000000002',
     1, 'f0000051-0000-4000-8000-000000000051', 'succeeded', '{}', now() - interval '2 days' + interval '3 minutes'),
    ('b1000052-0000-4000-8000-000000000052', 'b0000052-0000-4000-8000-000000000052', 'a0000006-0000-4000-8000-000000000006',
     1, 'f0000052-0000-4000-8000-000000000052', 'succeeded', '{}', now() - interval '2 days' + interval '5 minutes');
INSERT INTO application_instances VALUES
    ('c1000051-0000-4000-8000-000000000051', 'd0000005-0000-4000-8000-000000000005', 'web', 'running',
     'a0000006-0000-4000-8000-000000000006', 1),
    ('c1000052-0000-4000-8000-000000000052', 'd0000005-0000-4000-8000-000000000005', 'web', 'running',
     'a0000011-0000-4000-8000-000000000011', 1);
INSERT INTO fleet_allocations VALUES
    ('c2000051-0000-4000-8000-000000000051', 'a0000006-0000-4000-8000-000000000006', 'application_instance',
     'c1000051-0000-4000-8000-000000000051', 'active', now() - interval '2 days', NULL),
    ('c2000052-0000-4000-8000-000000000052', 'a0000011-0000-4000-8000-000000000011', 'application_instance',
     'c1000052-0000-4000-8000-000000000052', 'active', now() - interval '2 days', NULL);
INSERT INTO ingress_analytics_routes VALUES
    ('blog.apps.example.net', 'd0000005-0000-4000-8000-000000000005', 1, 'active');

-- 6. Already failed (by an operator yesterday): nothing to do.
INSERT INTO deployments VALUES
    ('d0000006-0000-4000-8000-000000000006', 'c0000002-0000-4000-8000-000000000002', 'failed',
     now() - interval '1 day 2 hours', now() - interval '1 day');
CALL sandbox.add_events('d0000006-0000-4000-8000-000000000006',
    ARRAY['deployment_created', 'queued', 'operator_failed'], now() - interval '1 day 2 hours', interval '1 hour');
INSERT INTO jobs (id, deployment_id, kind, status, attempt, max_attempts, available_at, created_at, updated_at) VALUES
    ('b0000006-0000-4000-8000-000000000006', 'd0000006-0000-4000-8000-000000000006', 'build', 'cancelled', 0, 3,
     now() - interval '1 day 2 hours', now() - interval '1 day 2 hours', now() - interval '1 day');

-- 7. Teardown already queued; one instance still stopping on edge-02.
INSERT INTO deployments VALUES
    ('d0000007-0000-4000-8000-000000000007', 'c0000003-0000-4000-8000-000000000003', 'teardown_queued',
     now() - interval '6 hours', now() - interval '12 minutes');
CALL sandbox.add_events('d0000007-0000-4000-8000-000000000007',
    ARRAY['deployment_created', 'queued', 'build_succeeded', 'running', 'teardown_requested'],
    now() - interval '6 hours', interval '1 hour 27 minutes');
INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts, available_at,
                  lease_token, lease_expires_at, created_at, updated_at) VALUES
    ('b0000071-0000-4000-8000-000000000071', 'd0000007-0000-4000-8000-000000000007', 'deploy', 'succeeded',
     'a0000007-0000-4000-8000-000000000007', 1, 3, now() - interval '5 hours', NULL, NULL,
     now() - interval '5 hours', now() - interval '5 hours'),
    ('b0000072-0000-4000-8000-000000000072', 'd0000007-0000-4000-8000-000000000007', 'teardown', 'leased',
     'a0000007-0000-4000-8000-000000000007', 1, 5, now() - interval '11 minutes',
     'f0000072-0000-4000-8000-000000000072', now() + interval '4 minutes',
     now() - interval '11 minutes', now() - interval '1 minute');
INSERT INTO application_instances VALUES
    ('c1000071-0000-4000-8000-000000000071', 'd0000007-0000-4000-8000-000000000007', 'web', 'stopping',
     'a0000007-0000-4000-8000-000000000007', 1);
INSERT INTO fleet_allocations VALUES
    ('c2000071-0000-4000-8000-000000000071', 'a0000007-0000-4000-8000-000000000007', 'application_instance',
     'c1000071-0000-4000-8000-000000000071', 'active', now() - interval '5 hours', NULL);
INSERT INTO ingress_analytics_routes VALUES
    ('old-landing.apps.example.net', 'd0000007-0000-4000-8000-000000000007', 1, 'removed');

-- 8. Stuck deploying with a long, noisy event trail. Event payloads, job
--    payloads and result outputs carry `log` keys with fake secrets: no
--    command may ever print them.
INSERT INTO deployments VALUES
    ('d0000008-0000-4000-8000-000000000008', 'c0000004-0000-4000-8000-000000000004', 'deploying',
     now() - interval '2 hours', now() - interval '36 minutes');
INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload, occurred_at)
SELECT n, gen_random_uuid(), 'c0000004-0000-4000-8000-000000000004', 'd0000008-0000-4000-8000-000000000008',
       CASE WHEN n = 1 THEN 'deployment_created' WHEN n % 10 = 0 THEN 'deploy_retry' ELSE 'build_progress' END,
       jsonb_build_object('step', n, 'log', 'FAKE-SECRET-LOG-' || n || ' AWS_SECRET_ACCESS_KEY=sandbox-not-a-real-key'),
       now() - interval '2 hours' + interval '1 minute' * (n * 84 / 60.0)
FROM generate_series(1, 60) AS n;
INSERT INTO source_snapshots VALUES
    ('e0000008-0000-4000-8000-000000000008', 'd0000008-0000-4000-8000-000000000008', NULL);
INSERT INTO release_artifacts VALUES
    ('e1000008-0000-4000-8000-000000000008', 'd0000008-0000-4000-8000-000000000008', 'registry.internal/pay/api@sha256:91d0aa');
INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts, available_at,
                  lease_token, lease_expires_at, payload, created_at, updated_at) VALUES
    ('b0000081-0000-4000-8000-000000000081', 'd0000008-0000-4000-8000-000000000008', 'build', 'succeeded',
     'a0000002-0000-4000-8000-000000000002', 1, 3, now() - interval '1 hour 55 minutes', NULL, NULL,
     '{"log": "FAKE-SECRET-LOG-JOB npm token=sandbox-not-a-real-token"}',
     now() - interval '1 hour 55 minutes', now() - interval '1 hour 40 minutes'),
    ('b0000082-0000-4000-8000-000000000082', 'd0000008-0000-4000-8000-000000000008', 'deploy', 'queued',
     'a0000010-0000-4000-8000-000000000010', 2, 3, now() - interval '36 minutes', NULL, NULL,
     '{"last_error": "health check timed out after 300s", "log": "FAKE-SECRET-LOG-JOB2 DATABASE_PASSWORD=sandbox-not-a-real-password"}',
     now() - interval '1 hour 30 minutes', now() - interval '36 minutes');
INSERT INTO agent_job_results VALUES
    ('b1000081-0000-4000-8000-000000000081', 'b0000081-0000-4000-8000-000000000081', 'a0000002-0000-4000-8000-000000000002',
     1, 'f0000081-0000-4000-8000-000000000081', 'succeeded',
     '{"image": "registry.internal/pay/api@sha256:91d0aa", "log": "FAKE-SECRET-LOG-RESULT1 GITHUB_TOKEN=sandbox-not-a-real-token"}',
     now() - interval '1 hour 40 minutes'),
    ('b1000082-0000-4000-8000-000000000082', 'b0000082-0000-4000-8000-000000000082', 'a0000010-0000-4000-8000-000000000010',
     1, 'f0000082-0000-4000-8000-000000000082', 'failed',
     '{"error": "health check timed out after 300s", "log": "FAKE-SECRET-LOG-RESULT2 STRIPE_KEY=sandbox-not-a-real-key"}',
     now() - interval '40 minutes');
INSERT INTO application_instances VALUES
    ('c1000081-0000-4000-8000-000000000081', 'd0000008-0000-4000-8000-000000000008', 'api', 'starting',
     'a0000010-0000-4000-8000-000000000010', 2);
INSERT INTO fleet_allocations VALUES
    ('c2000081-0000-4000-8000-000000000081', 'a0000010-0000-4000-8000-000000000010', 'application_instance',
     'c1000081-0000-4000-8000-000000000081', 'active', now() - interval '1 hour 30 minutes', NULL);

-- 9. Destroyed long ago: nothing to do.
INSERT INTO deployments VALUES
    ('d0000009-0000-4000-8000-000000000009', 'c0000001-0000-4000-8000-000000000001', 'destroyed',
     now() - interval '30 days', now() - interval '29 days');
CALL sandbox.add_events('d0000009-0000-4000-8000-000000000009',
    ARRAY['deployment_created', 'running', 'teardown_requested', 'destroyed'],
    now() - interval '30 days', interval '8 hours');

INSERT INTO sandbox.scenarios VALUES
    ('d0000001-0000-4000-8000-000000000001', 'queued-never-dispatched',
     'queued for 45m, nothing was ever dispatched', 'pushleft-controller diagnose d0000001', 1),
    ('d0000002-0000-4000-8000-000000000002', 'building-orphaned-lease',
     'building; the lease on build-03 expired 38m ago, nobody reclaimed it', 'pushleft-controller diagnose d0000002', 2),
    ('d0000003-0000-4000-8000-000000000003', 'deploying-dead-node',
     'deploying; its instance is active on edge-07, dead for 3h', 'pushleft-controller diagnose d0000003', 3),
    ('d0000004-0000-4000-8000-000000000004', 'queued-reservation-blocked',
     'queued, never dispatched; a network attachment keeps the reaper off its reservations', 'pushleft-controller diagnose d0000004', 4),
    ('d0000005-0000-4000-8000-000000000005', 'running-healthy',
     'nothing: a healthy running deployment', 'pushleft-controller diagnose d0000005', 5),
    ('d0000006-0000-4000-8000-000000000006', 'already-failed',
     'nothing: already failed by an operator', 'pushleft-controller fail-safely d0000006 --reason "INC-1 test" --dry-run', 6),
    ('d0000007-0000-4000-8000-000000000007', 'teardown-queued',
     'teardown already queued, one instance still stopping', 'pushleft-controller wait d0000007 --timeout 10s', 7),
    ('d0000008-0000-4000-8000-000000000008', 'noisy-secrets',
     'deploying for 36m without progress; 60 events whose logs hold fake secrets', 'pushleft-controller diagnose d0000008', 8),
    ('d0000009-0000-4000-8000-000000000009', 'destroyed',
     'nothing: destroyed a month ago', 'pushleft-controller diagnose d0000009', 9);

COMMIT;
