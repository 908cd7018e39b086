//! The guarded transition of `fail-safely` (README, "fail-safely, step by
//! step"). The files are numbered in the order the transaction runs them;
//! each constant names the step that runs it. Step 4 and step 11 are one
//! simple-query message each (several statements, no parameters).

use super::*;

/// Step 4, first, and again in step 11: the guard's tuple counters.
pub const GUARD_COUNTERS: Statement = file!(Query "fail_safely/01_guard_counters.sql" []);
/// Step 4. Rendered with the tool's class and the key's hash (whole
/// numbers), for the simple-query message.
pub const LOCK_KEY: Statement = file!(Script "fail_safely/02_lock_key.sql" []);
/// Step 4.
pub const LOCK_TABLES: Statement = file!(Script "fail_safely/03_lock_tables.sql" []);
/// Step 4: who writes (for the event of step 10).
pub const WHO: Statement = file!(Query "fail_safely/04_who.sql" []);
/// Step 4, after the schema check: the relations the transaction may write.
pub const WRITE_SET: Statement = file!(Query "fail_safely/05_write_set.sql" []);
/// Step 6: the deployment ($1), its jobs and its instances locked, and the
/// event an earlier run wrote with the idempotency key ($2).
pub const LOCK: Statement = file!(Query "fail_safely/06_lock.sql" [Uuid, Text]);
/// Step 7, again, only when the read found a job or an instance step 6
/// did not lock: the deployment, then its jobs, then its instances.
pub const LOCK_DEPLOYMENT: Statement = file!(Query "fail_safely/07_lock_deployment.sql" [Uuid]);
pub const LOCK_JOBS: Statement = file!(Query "fail_safely/08_lock_jobs.sql" [Uuid]);
pub const LOCK_INSTANCES: Statement = file!(Query "fail_safely/09_lock_instances.sql" [Uuid]);
/// Step 10: one of the two writes (the UPDATE, then the event). $1
/// deployment id, $2 the event's kind, $3 its payload.
pub const MARK_FAILED: Statement = file!(Query "fail_safely/10_mark_failed.sql" [Uuid, Text, Json]);
pub const REQUEST_TEARDOWN: Statement =
    file!(Query "fail_safely/11_request_teardown.sql" [Uuid, Text, Json]);
/// Step 11: the guard, in one message.
pub const FIRE_DEFERRED: Statement = file!(Script "fail_safely/12_fire_deferred.sql" []);
pub const GUARD_LOCKS: Statement = file!(Query "fail_safely/13_guard_locks.sql" []);
/// Step 11's message, last (step 12's read-back): the ids come from the
/// write's setting.
pub const REREAD: Statement = file!(Query "fail_safely/14_reread.sql" []);
/// Last, and only after a lock timeout, in a read-only transaction of its
/// own: the sessions holding row locks on the tables fail-safely locks.
pub const LOCK_HOLDERS: Statement = file!(Query "fail_safely/15_lock_holders.sql" [Text]);
