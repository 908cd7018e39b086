-- What a benchmark data set holds, for the labels of the scaling table:
-- what `fleet list` walks, what `stuck` finds (the alerts' definitions,
-- with the tool's default thresholds) and how long the trail of the long
-- example is.
SELECT (SELECT count(*) FROM fleet_nodes) AS nodes,
       (SELECT count(*) FROM deployments) AS deployments,
       (SELECT count(*) FROM deployment_events) AS events,
       (SELECT count(*) FROM fleet_allocations WHERE status IN ('reserved', 'active')) AS allocations_in_use,
       (SELECT count(*) FROM deployments d
        WHERE d.status IN ('queued', 'building', 'deploying')
          AND coalesce((SELECT max(e.occurred_at) FROM deployment_events e WHERE e.deployment_id = d.id),
                       d.created_at) < now() - interval '30 minutes') AS stuck,
       (SELECT count(*) FROM jobs
        WHERE status = 'leased' AND lease_expires_at < now() - interval '1 minute') AS orphaned_leases,
       (SELECT count(*) FROM deployment_events e
        WHERE e.deployment_id = (SELECT x.deployment_id FROM bench.examples() x
                                 WHERE x.example = 'long_trail')) AS long_trail_events;
