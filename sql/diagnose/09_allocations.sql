-- 4. Reservations (fleet allocations of the deployment's instances).
SELECT a.id, a.node_id, a.resource_kind, a.resource_id, a.status, a.created_at, a.released_at
FROM :"schema".fleet_allocations a
JOIN :"schema".application_instances i ON i.id = a.resource_id
WHERE i.deployment_id = $1 AND a.resource_kind = 'application_instance'
ORDER BY a.created_at, a.id
