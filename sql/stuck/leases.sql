-- stuck: job_lease_orphaned, fleet-wide.
--
-- $1 grace (milliseconds, bigint): a job still `leased` whose lease expired
-- more than that long ago. Reclaiming a lease moves the job out of `leased`
-- (or renews lease_expires_at), so such a job was not reclaimed.
--
-- Leased jobs by expiry come from the partial index jobs_leased_expiry.
-- `dispatched` (of the job's deployment) is SPEC's definition, exactly, as
-- in stuck_deployments.sql; the leased job itself already satisfies it.
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
       (EXISTS (SELECT 1 FROM :"schema".jobs o
                WHERE o.deployment_id = d.id
                  AND (o.target_node_id IS NOT NULL
                       OR o.lease_token IS NOT NULL
                       OR o.lease_expires_at IS NOT NULL
                       OR EXISTS (SELECT 1 FROM :"schema".agent_job_results r WHERE r.job_id = o.id)))
        OR EXISTS (SELECT 1 FROM :"schema".application_instances i
                   WHERE i.deployment_id = d.id AND i.active_node_id IS NOT NULL)) AS dispatched
FROM :"schema".jobs j
JOIN :"schema".deployments d ON d.id = j.deployment_id
LEFT JOIN :"schema".fleet_nodes n ON n.id = j.target_node_id
WHERE j.status = 'leased'
  AND j.lease_expires_at < now() - $1::bigint * interval '1 millisecond'
ORDER BY j.lease_expires_at, j.id
