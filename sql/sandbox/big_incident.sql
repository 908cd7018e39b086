-- `sandbox --big-incident`: edge-07 died 3 hours ago (scenarios.sql) and
-- stranded 40 more deployments of org c0000009: each deploying, its one
-- instance active on edge-07, its last event (deploy_started) 2h30m ago.
-- Loaded after scenarios.sql; ids e0000001-… to e0000028-….
INSERT INTO deployments (id, org_id, status, created_at, updated_at)
SELECT ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
       'c0000009-0000-4000-8000-000000000009', 'deploying',
       now() - interval '3 hours' - g * interval '1 second',
       now() - interval '2 hours 30 minutes'
FROM generate_series(1, 40) g;

DO $$
DECLARE
    dep uuid;
BEGIN
    FOR dep IN SELECT id FROM deployments WHERE id::text LIKE 'e%' ORDER BY id LOOP
        CALL sandbox.add_events(dep,
            ARRAY['deployment_created', 'queued', 'build_succeeded', 'deploy_started'],
            now() - interval '3 hours', interval '10 minutes');
    END LOOP;
END;
$$;

INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt, max_attempts,
                  available_at, created_at, updated_at)
SELECT ('b' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-0000000000e0')::uuid,
       ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
       'deploy', 'succeeded', 'a0000012-0000-4000-8000-000000000012', 1, 3,
       now() - interval '2 hours 40 minutes', now() - interval '2 hours 40 minutes',
       now() - interval '2 hours 30 minutes'
FROM generate_series(1, 40) g;

INSERT INTO application_instances (id, deployment_id, role_name, status, active_node_id, generation)
SELECT ('f' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
       ('e' || lpad(to_hex(g), 7, '0') || '-0000-4000-8000-000000000000')::uuid,
       'web', 'starting', 'a0000012-0000-4000-8000-000000000012', 1
FROM generate_series(1, 40) g;

INSERT INTO sandbox.scenarios VALUES
    ('e0000001-0000-4000-8000-000000000000', 'big-incident',
     'edge-07 died: 40 more deployments stranded on it (e0000001..e0000028)',
     'pushleft-controller stuck --group-by node', 100);
