//! `doctor`'s checks (catalogs and settings only).

use super::*;

/// Everything but the schema check, in one statement: $1 schema, $2 the
/// tables, $3 the role of `--role` (or NULL), $4 the indexes, $5 the
/// settings.
pub const FACTS: Statement =
    file!(Query "doctor/facts.sql" [Text, TextArray, OptText, TextArray, TextArray]);
