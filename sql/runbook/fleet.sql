-- Capacity per node, written the obvious way an operator types it into
-- psql (the runbook's Verification step: "capacity on the node drops"):
--   psql -X -q -f sql/runbook/fleet.sql
-- The benchmark times this against `pushleft-controller fleet list`, which
-- shows the same columns. Two one-to-many joins multiply each other's rows,
-- hence count(DISTINCT …), as one would write it.
SELECT n.pool, n.name, n.status, n.schedulable, now() - n.last_seen_at AS heartbeat_age,
       count(DISTINCT a.id) AS slots_used, n.slots, count(DISTINCT i.id) AS instances
FROM fleet_nodes n
LEFT JOIN fleet_allocations a ON a.node_id = n.id AND a.status IN ('reserved', 'active')
LEFT JOIN application_instances i ON i.active_node_id = n.id AND i.status <> 'removed'
GROUP BY n.id
ORDER BY n.pool, n.name;
