-- Step 7, again (see 07_lock_deployment.sql): then its jobs, in a fixed
-- order. No dispatch (target, lease) can commit on them, and no agent
-- result can be inserted for them (its foreign key needs a KEY SHARE lock
-- on the job row). Only the ids come back: the read that follows
-- (sql/diagnose/snapshot.sql) is what is decided from, and a job's
-- payload can hold megabytes of last_error (pushleft-controller-diagnose(1), HUGE TEXT).
SELECT id
FROM :"schema".jobs
WHERE deployment_id = $1
ORDER BY created_at, id
FOR UPDATE
