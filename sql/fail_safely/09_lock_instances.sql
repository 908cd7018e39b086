-- Step 7, again: then its instances: no active_node_id can be set on them.
SELECT id, role_name, status, active_node_id, generation
FROM :"schema".application_instances
WHERE deployment_id = $1
ORDER BY role_name, id
FOR UPDATE
