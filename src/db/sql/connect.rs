//! Connecting: `target_session_attrs`.

use super::*;

/// In a transaction of its own (see the file; rendered by
/// `db::session::session_attrs`).
pub const SESSION_ATTRS: Statement = file!(Script "connect/session_attrs.sql" []);
