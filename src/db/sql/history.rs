//! `history`: the operators' actions.

use super::*;

/// $1/$2 since (at / ms ago), $3/$4 until (at / ms ago), $5 operator,
/// $6 reason contains, $7 deployment, $8 limit, $9 self-approved.
pub const OPERATOR_ACTIONS: Statement = file!(Query "history/operator_actions.sql"
    [OptTimestamptz, OptInt8, OptTimestamptz, OptInt8, OptText, OptText, OptUuid, Int8, OptBool]);
