//! `doctor`'s checks (catalogs and settings only).

use super::*;

pub const TLS: Statement = file!(Query "doctor/tls.sql" []);
pub const SERVER_VERSION: Statement = file!(Query "doctor/server_version.sql" []);
pub const RECOVERY: Statement = file!(Query "doctor/recovery.sql" []);
pub const IDENTITY: Statement = file!(Query "doctor/identity.sql" []);
pub const SAVEPOINT: Statement = file!(Script "doctor/savepoint.sql" []);
pub const RELEASE_ROLE: Statement = file!(Script "doctor/release_role.sql" []);
pub const ROLLBACK_ROLE: Statement = file!(Script "doctor/rollback_role.sql" []);
/// $1 schema, $2 table.
pub const TABLE_READABLE: Statement = file!(Query "doctor/table_readable.sql" [Text, Text]);
/// $1 role, $2 schema.
pub const WRITE_PRIVILEGES: Statement = file!(Query "doctor/write_privileges.sql" [Text, Text]);
pub const SETTING: Statement = file!(Query "doctor/setting.sql" [Text]);
/// $1 schema, $2 index.
pub const INDEX_PRESENT: Statement = file!(Query "doctor/index_present.sql" [Text, Text]);
