-- Step 12: just before COMMIT, what the database holds for the deployment
-- ($1) and for the event written ($2): status, kind and payload must be
-- what was written, whatever fired since.
SELECT d.status,
       e.id IS NOT NULL AS event_found,
       e.deployment_id,
       e.sequence,
       e.kind,
       e.payload,
       e.occurred_at
FROM :"schema".deployments d
LEFT JOIN :"schema".deployment_events e ON e.id = $2
WHERE d.id = $1
