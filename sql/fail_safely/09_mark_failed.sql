-- Step 10, path operator_failed: the runbook's UPDATE, with the runbook's
-- condition. It must touch exactly one row, or the transaction rolls back;
-- RETURNING shows what the database really holds after it (a BEFORE trigger
-- may have changed it).
UPDATE :"schema".deployments
SET status = 'failed', updated_at = now()
WHERE id = $1 AND status IN ('queued', 'building', 'deploying')
RETURNING id, status
