//! Session-level reads and `SET LOCAL`s, with values as bound parameters.

use super::*;

/// The settings and server columns every one-statement read starts
/// with (`:read_settings`).
pub const READ_SETTINGS: Statement = file!(Fragment "session/read_settings.sql" []);
/// The first message of every transaction: its terms and every
/// setting pinned, then what is in force (see the file; rendered by
/// `db::session`).
pub const BEGIN: Statement = file!(Script "session/begin.sql" []);
/// The second message of a read's flight: the same backend, still in the
/// transaction (rendered by nothing; sent as it is).
pub const PROOF: Statement = file!(Script "session/proof.sql" []);
pub const NOW: Statement = file!(Query "session/now.sql" []);
pub const IN_RECOVERY: Statement = file!(Query "session/in_recovery.sql" []);
pub const PRIMARY_CONNINFO: Statement = file!(Query "session/primary_conninfo.sql" []);
pub const SET_LOCAL_ROLE: Statement = file!(Query "session/set_local_role.sql" [Text]);
/// Where a write lands: the cluster, the database, the session's user
/// (`db::target`).
pub const TARGET: Statement = file!(Query "session/target.sql" []);
