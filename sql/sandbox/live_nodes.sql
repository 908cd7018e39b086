-- The nodes whose agents are alive when the simulation starts: not offline,
-- heartbeat within the control plane's freshness window (2 minutes).
SELECT id, name
FROM :"schema".fleet_nodes
WHERE status <> 'offline' AND last_seen_at >= now() - control_plane.fresh_after()
ORDER BY pool, name
