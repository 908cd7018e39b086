//! The guarded transition of `fail-safely` (SPEC steps 1-6).

use super::*;

pub const GUARD_COUNTERS: Statement = file!(Query "fail_safely/00_guard_counters.sql" []);
pub const LOCK_DEPLOYMENT: Statement = file!(Query "fail_safely/01_lock_deployment.sql" [Uuid]);
pub const LOCK_JOBS: Statement = file!(Query "fail_safely/02_lock_jobs.sql" [Uuid]);
pub const LOCK_INSTANCES: Statement = file!(Query "fail_safely/03_lock_instances.sql" [Uuid]);
pub const FIND_IDEMPOTENCY_KEY: Statement =
    file!(Query "fail_safely/04_find_idempotency_key.sql" [Text]);
/// $1 the tool's lock class, $2 the key's hash.
pub const LOCK_KEY: Statement = file!(Query "fail_safely/05_lock_key.sql" [Int4, Int4]);
pub const LOCK_TABLES: Statement = file!(Script "fail_safely/06_lock_tables.sql" []);
/// $1 the oid of deployments, $2 of deployment_events.
pub const WRITE_SET: Statement = file!(Query "fail_safely/07_write_set.sql" [Int8, Int8]);
pub const MARK_FAILED: Statement = file!(Query "fail_safely/10_mark_failed.sql" [Uuid]);
pub const REQUEST_TEARDOWN: Statement = file!(Query "fail_safely/11_request_teardown.sql" [Uuid]);
pub const WHO: Statement = file!(Query "fail_safely/19_who.sql" []);
/// $1 deployment id, $2 kind, $3 payload.
pub const APPEND_EVENT: Statement =
    file!(Query "fail_safely/20_append_event.sql" [Uuid, Text, Json]);
pub const FIRE_DEFERRED: Statement = file!(Script "fail_safely/30_fire_deferred.sql" []);
pub const GUARD_LOCKS: Statement = file!(Query "fail_safely/31_guard_locks.sql" []);
/// $1 deployment id, $2 event id.
pub const REREAD: Statement = file!(Query "fail_safely/32_reread.sql" [Uuid, Uuid]);
/// After a lock timeout: the sessions holding row locks on the tables
/// fail-safely locks.
pub const LOCK_HOLDERS: Statement = file!(Query "fail_safely/30_lock_holders.sql" [Text]);
