//! `stuck`: the two alerts.

use super::*;

/// Both alerts in one statement: $1 no event for this long (ms), $2
/// lease expired longer ago than this (ms), $3 the schema's name. Reads
/// nothing (`indexed = false`) on a schema without the indexes it
/// probes.
pub const SCAN: Statement = file!(Query "stuck/scan.sql" [Int8, Int8, Text, Int8]);
/// [`SCAN`] for a schema without those indexes: every table read once.
pub const SCAN_WITHOUT_INDEXES: Statement =
    file!(Query "stuck/scan_without_indexes.sql" [Int8, Int8, Text, Int8]);
