-- Network attachments of the deployment: while one exists in its segment,
-- the reaper (reap_unstarted_application) will not release its reservations.
SELECT id, segment, node_id, created_at
FROM :"schema".network_attachments
WHERE deployment_id = $1
ORDER BY created_at, id
