-- Step 7, again, only when the read found a job or an instance that the lock
-- of step 6 did not hold (it was inserted while that statement waited):
-- the deployment row first (already held: no wait). From here until COMMIT
-- no other transaction can insert a job, an instance or an event for it
-- (their foreign keys need a KEY SHARE lock on this row) or change its
-- status.
SELECT id, org_id, status, created_at, updated_at
FROM :"schema".deployments
WHERE id = $1
FOR UPDATE
