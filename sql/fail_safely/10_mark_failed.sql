-- Path operator_failed: the runbook's UPDATE, with the runbook's condition.
-- It must touch exactly one row, or the transaction rolls back.
UPDATE deployments
SET status = 'failed', updated_at = now()
WHERE id = $1 AND status IN ('queued', 'building', 'deploying')
