-- Slots in use per node, the simplest way an operator types it into psql
-- (the runbook's Verification step: "capacity on the node drops"):
--   psql -X -q -f sql/runbook/capacity.sql
-- The benchmark times this against `pushleft-controller fleet list`, as
-- the second, cheaper baseline beside sql/runbook/fleet.sql: one join, no
-- instance count, no heartbeat age, no order.
SELECT n.id, n.name, n.pool, n.status, n.slots,
       count(a.id) FILTER (WHERE a.status IN ('reserved', 'active')) AS slots_used
FROM fleet_nodes n
LEFT JOIN fleet_allocations a ON a.node_id = n.id
GROUP BY n.id;
