-- stuck: deployment_stuck, fleet-wide.
--
-- $1 stuck after (milliseconds, bigint): in flight (queued, building,
-- deploying) with no event for that long, or, without any event, created
-- that long ago.
--
-- The in-flight deployments come from the partial index
-- deployments_in_flight (a small fraction of the table); the last event of
-- each is one probe of deployment_events_deployment_sequence, backwards.
-- `dispatched` is SPEC's definition, exactly; the path is decided from it
-- in Rust by verdict::decide_path, nowhere else. `nodes` names where it
-- waits: the targets of its unfinished jobs and the nodes of its instances;
-- `pools` their pools.
SELECT d.id,
       d.org_id,
       d.status,
       d.created_at,
       last.occurred_at AS last_event_at,
       last.kind AS last_event_kind,
       floor(extract(epoch FROM now() - coalesce(last.occurred_at, d.created_at)))::bigint AS stuck_for_seconds,
       (EXISTS (SELECT 1 FROM :"schema".jobs j
                WHERE j.deployment_id = d.id
                  AND (j.target_node_id IS NOT NULL
                       OR j.lease_token IS NOT NULL
                       OR j.lease_expires_at IS NOT NULL
                       OR EXISTS (SELECT 1 FROM :"schema".agent_job_results r WHERE r.job_id = j.id)))
        OR EXISTS (SELECT 1 FROM :"schema".application_instances i
                   WHERE i.deployment_id = d.id AND i.active_node_id IS NOT NULL)) AS dispatched,
       waits.nodes,
       waits.pools
FROM :"schema".deployments d
LEFT JOIN LATERAL (
    SELECT e.occurred_at, e.kind
    FROM :"schema".deployment_events e
    WHERE e.deployment_id = d.id
    ORDER BY e.sequence DESC
    LIMIT 1
) last ON true
-- Where it waits, read once for both lists: the nodes its unfinished jobs
-- target and its instances are active on.
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(DISTINCT n.name ORDER BY n.name), '{}') AS nodes,
           coalesce(array_agg(DISTINCT n.pool ORDER BY n.pool), '{}') AS pools
    FROM :"schema".fleet_nodes n
    WHERE n.id IN (SELECT j.target_node_id FROM :"schema".jobs j
                   WHERE j.deployment_id = d.id AND j.target_node_id IS NOT NULL
                     AND j.status IN ('queued', 'leased')
                   UNION
                   SELECT i.active_node_id FROM :"schema".application_instances i
                   WHERE i.deployment_id = d.id AND i.status <> 'removed'
                     AND i.active_node_id IS NOT NULL)
) waits
WHERE d.status IN ('queued', 'building', 'deploying')
  AND coalesce(last.occurred_at, d.created_at) <= now() - $1::bigint * interval '1 millisecond'
ORDER BY coalesce(last.occurred_at, d.created_at), d.id
