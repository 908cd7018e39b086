//! `fleet list`.

use super::*;

/// $1 pool, $2 status (NULL: all), $3 only stale, $4 stale after (ms), $5 schema.
pub const LIST: Statement = file!(Query "fleet/list.sql" [OptText, OptText, Bool, Int8, Text]);
pub const ODD_ALLOCATIONS: Statement = file!(Query "fleet/odd_allocations.sql" []);
