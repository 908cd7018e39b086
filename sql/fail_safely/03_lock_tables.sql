-- Step 4: the lock the UPDATE and the INSERT take anyway, taken before the
-- triggers and rules of the two tables (and of all their partitions) are
-- checked in the same message (sql/schema_check/check.sql): ROW EXCLUSIVE
-- conflicts with CREATE TRIGGER, CREATE RULE, ENABLE/DISABLE TRIGGER and
-- ALTER TABLE, so what was vouched for is what fires, up to COMMIT. It
-- does not conflict with the control plane's reads and writes.
LOCK TABLE :"schema".deployments, :"schema".deployment_events IN ROW EXCLUSIVE MODE
