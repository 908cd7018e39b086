//! The guarded transition of `fail-safely` (README, "fail-safely, step by
//! step"). The files are numbered in the order the transaction runs them;
//! each constant names the step that runs it.

use super::*;

/// Step 3, and again in step 11: the guard's tuple counters.
pub const GUARD_COUNTERS: Statement = file!(Query "fail_safely/01_guard_counters.sql" []);
/// Step 7: the deployment, then its jobs, then its instances.
pub const LOCK_DEPLOYMENT: Statement = file!(Query "fail_safely/05_lock_deployment.sql" [Uuid]);
pub const LOCK_JOBS: Statement = file!(Query "fail_safely/06_lock_jobs.sql" [Uuid]);
pub const LOCK_INSTANCES: Statement = file!(Query "fail_safely/07_lock_instances.sql" [Uuid]);
/// Step 8.
pub const FIND_IDEMPOTENCY_KEY: Statement =
    file!(Query "fail_safely/08_find_idempotency_key.sql" [Text]);
/// Step 5. $1 the tool's lock class, $2 the key's hash.
pub const LOCK_KEY: Statement = file!(Query "fail_safely/02_lock_key.sql" [Int4, Int4]);
/// Step 6.
pub const LOCK_TABLES: Statement = file!(Script "fail_safely/03_lock_tables.sql" []);
/// Step 6. $1 the oid of deployments, $2 of deployment_events.
pub const WRITE_SET: Statement = file!(Query "fail_safely/04_write_set.sql" [Int8, Int8]);
/// Step 10: one of the two UPDATEs, then who writes, then the event.
pub const MARK_FAILED: Statement = file!(Query "fail_safely/09_mark_failed.sql" [Uuid]);
pub const REQUEST_TEARDOWN: Statement = file!(Query "fail_safely/10_request_teardown.sql" [Uuid]);
pub const WHO: Statement = file!(Query "fail_safely/11_who.sql" []);
/// $1 deployment id, $2 kind, $3 payload.
pub const APPEND_EVENT: Statement =
    file!(Query "fail_safely/12_append_event.sql" [Uuid, Text, Json]);
/// Step 11: the guard.
pub const FIRE_DEFERRED: Statement = file!(Script "fail_safely/13_fire_deferred.sql" []);
pub const GUARD_LOCKS: Statement = file!(Query "fail_safely/14_guard_locks.sql" []);
/// Step 12. $1 deployment id, $2 event id.
pub const REREAD: Statement = file!(Query "fail_safely/15_reread.sql" [Uuid, Uuid]);
/// Last, and only after a lock timeout, in a read-only transaction of its
/// own: the sessions holding row locks on the tables fail-safely locks.
pub const LOCK_HOLDERS: Statement = file!(Query "fail_safely/16_lock_holders.sql" [Text]);
