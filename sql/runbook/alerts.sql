-- The two alerts, written the obvious way an operator types them into psql
-- (the runbook gives their definitions, not their SQL):
--   psql -X -q -f sql/runbook/alerts.sql
-- The benchmark times this against `pushleft-controller stuck`, which uses
-- the same thresholds by default (--for 30m, --grace 1m).

-- deployment_stuck: queued, building or deploying, and no deployment_events
-- for 30 minutes (or none at all, and created 30 minutes ago).
SELECT d.id, d.org_id, d.status, d.created_at, max(e.occurred_at) AS last_event_at
FROM deployments d
LEFT JOIN deployment_events e ON e.deployment_id = d.id
WHERE d.status IN ('queued', 'building', 'deploying')
GROUP BY d.id, d.org_id, d.status, d.created_at
HAVING coalesce(max(e.occurred_at), d.created_at) < now() - interval '30 minutes'
ORDER BY coalesce(max(e.occurred_at), d.created_at);

-- job_lease_orphaned: still leased, and the lease expired over a minute ago
-- (nobody reclaimed it).
SELECT j.id, j.deployment_id, j.kind, j.attempt, j.max_attempts, j.target_node_id, j.lease_expires_at
FROM jobs j
WHERE j.status = 'leased' AND j.lease_expires_at < now() - interval '1 minute'
ORDER BY j.lease_expires_at;
