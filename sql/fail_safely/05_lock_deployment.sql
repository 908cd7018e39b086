-- Step 7: lock the deployment row first. From here until COMMIT no other
-- transaction can insert a job, an instance or an event for it (their
-- foreign keys need a KEY SHARE lock on this row) or change its status.
SELECT id, org_id, status, created_at, updated_at
FROM :"schema".deployments
WHERE id = $1
FOR UPDATE
