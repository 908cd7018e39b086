-- Shell completion (pushleft-controller(1), SHELL COMPLETION): what a
-- command line can name, in one quick read, in the order it is offered.
--   deployment: in flight (stuck ones first: no event for $1 ms), then
--     those an operator failed or tore down in the last day (what `wait`
--     follows); the status (and "stuck") as the description
--   node: every node, its pool and status as the description
--   pool: every pool, its number of nodes
-- Reads the partial indexes deployments_in_flight and
-- deployment_events_operator_actions, and each deployment's last event
-- through deployment_events_deployment_sequence; at most 200 of each.
WITH in_flight AS (
    SELECT d.id, d.status,
           COALESCE((SELECT e.occurred_at
                     FROM :"schema".deployment_events e
                     WHERE e.deployment_id = d.id
                     ORDER BY e.sequence DESC
                     LIMIT 1), d.created_at) AS quiet_since
    FROM :"schema".deployments d
    WHERE d.status IN ('queued', 'building', 'deploying')
    ORDER BY d.created_at
    LIMIT 200
), acted_on AS (
    SELECT e.deployment_id AS id, max(e.occurred_at) AS at
    FROM :"schema".deployment_events e
    WHERE e.kind IN ('operator_failed', 'teardown_requested')
      AND e.occurred_at >= now() - interval '1 day'
    GROUP BY e.deployment_id
    ORDER BY max(e.occurred_at) DESC
    LIMIT 200
)
SELECT kind, value, help
FROM (
    SELECT 'deployment' AS kind, f.id::text AS value,
           f.status || CASE WHEN stuck THEN ', stuck' ELSE '' END AS help,
           CASE WHEN stuck THEN 0 ELSE 1 END AS rank,
           extract(epoch FROM f.quiet_since) AS sort
    FROM in_flight f,
         LATERAL (SELECT f.quiet_since < now() - $1::bigint * interval '1 millisecond' AS stuck) s
    UNION ALL
    SELECT 'deployment', a.id::text, d.status || ', acted on ' || to_char(a.at, 'HH24:MI'),
           2, -extract(epoch FROM a.at)
    FROM acted_on a
    JOIN :"schema".deployments d ON d.id = a.id
    WHERE d.status NOT IN ('queued', 'building', 'deploying')
    UNION ALL
    SELECT 'node', n.name, n.pool || ', ' || n.status, 0, 0
    FROM :"schema".fleet_nodes n
    UNION ALL
    SELECT 'pool', n.pool, count(*) || ' nodes', 0, 0
    FROM :"schema".fleet_nodes n
    GROUP BY n.pool
) candidates
ORDER BY kind, rank, sort, value
