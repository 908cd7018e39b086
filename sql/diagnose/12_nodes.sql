-- 5. The nodes involved. The runbook asks for the jobs' target nodes; the
--    verdict also needs the nodes of instances, reservations and results
--    (where a teardown will go, where capacity is held).
SELECT id, name, pool, status, schedulable, slots, last_seen_at,
       floor(extract(epoch FROM now() - last_seen_at))::bigint AS heartbeat_age_seconds
FROM :"schema".fleet_nodes
WHERE id IN (SELECT target_node_id FROM :"schema".jobs WHERE deployment_id = $1
             UNION SELECT active_node_id FROM :"schema".application_instances WHERE deployment_id = $1
             UNION SELECT a.node_id FROM :"schema".fleet_allocations a
                   JOIN :"schema".application_instances i ON i.id = a.resource_id
                   WHERE i.deployment_id = $1
             UNION SELECT r.node_id FROM :"schema".agent_job_results r
                   JOIN :"schema".jobs j ON j.id = r.job_id
                   WHERE j.deployment_id = $1)
ORDER BY pool, name
