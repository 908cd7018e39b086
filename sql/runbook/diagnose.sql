-- The runbook's Diagnosis queries, verbatim, as an operator runs them:
--   psql -X -v D=<deployment id> -f sql/runbook/diagnose.sql
-- The benchmark times this against `pushleft-controller diagnose`.

-- 1. State and the event trail (what was the last thing that happened?)
SELECT status, created_at, updated_at FROM deployments WHERE id = :'D';
SELECT sequence, kind, occurred_at, payload - 'log' AS payload FROM deployment_events WHERE deployment_id = :'D' ORDER BY sequence;

-- 2. Every job, where it is targeted, its lease, and its last error.
SELECT id, kind, status, target_node_id, attempt, max_attempts, available_at, lease_expires_at, payload->>'last_error' AS last_error
FROM jobs WHERE deployment_id = :'D' ORDER BY created_at;

-- 3. Results the agents reported (append-only).
SELECT r.reported_at, j.kind, r.node_id, r.attempt, r.outcome, r.output - 'log' AS output
FROM agent_job_results r JOIN jobs j ON j.id = r.job_id WHERE j.deployment_id = :'D' ORDER BY r.reported_at;

-- 4. Source, artifact, instances, reservations, routes.
SELECT id, verified_at FROM source_snapshots WHERE deployment_id = :'D';
SELECT id, image FROM release_artifacts WHERE deployment_id = :'D';
SELECT id, role_name, status, active_node_id, generation FROM application_instances WHERE deployment_id = :'D';
SELECT a.node_id, a.resource_kind, a.status FROM fleet_allocations a JOIN application_instances i ON i.id = a.resource_id WHERE i.deployment_id = :'D';
SELECT hostname, route_generation, status FROM ingress_analytics_routes WHERE deployment_id = :'D';

-- 5. The nodes involved.
SELECT id, name, pool, status, schedulable, now() - last_seen_at AS heartbeat_age FROM fleet_nodes
WHERE id IN (SELECT target_node_id FROM jobs WHERE deployment_id = :'D');
