-- Step 10, path teardown_requested: the runbook's UPDATE (the same state
-- change the API's teardown makes), with the runbook's condition. It must
-- touch exactly one row, or the transaction rolls back; RETURNING shows
-- what the database really holds after it.
UPDATE :"schema".deployments
SET status = 'teardown_queued', updated_at = now()
WHERE id = $1 AND status NOT IN ('teardown_queued', 'destroyed')
RETURNING id, status
