-- 1. State (runbook: SELECT status, created_at, updated_at FROM deployments WHERE id = '$D').
SELECT id, org_id, status, created_at, updated_at
FROM :"schema".deployments
WHERE id = $1
