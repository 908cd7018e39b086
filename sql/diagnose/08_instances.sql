-- 4. Instances.
SELECT id, role_name, status, active_node_id, generation
FROM :"schema".application_instances
WHERE deployment_id = $1
ORDER BY role_name, id
