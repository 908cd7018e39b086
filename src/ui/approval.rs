//! Who asked and who approved a break-glass write (README, "Two-person
//! break-glass"), in words: `history`'s table and its markdown share it.

use super::sanitize::visible;
use crate::model::history::{ActionPerson, OperatorAction};

/// Who asked and who approved: `SELF-APPROVED …` when nobody else
/// looked, `asked by alice (ops)` when someone else applied the plan, `—`
/// for a write without a plan.
pub fn approval(a: &OperatorAction) -> String {
    let Some(approval) = &a.audit.approval else {
        return "—".to_string();
    };
    let person = |p: &ActionPerson| {
        format!(
            "{} ({})",
            visible(p.os_user.as_deref().unwrap_or("?")),
            visible(p.session_user.as_deref().unwrap_or("?"))
        )
    };
    let plan = visible(approval.plan_id.as_deref().unwrap_or("no plan"));
    if approval.self_approved {
        let alone = if approval.break_glass_alone {
            ", --break-glass-alone"
        } else {
            ""
        };
        format!(
            "SELF-APPROVED by {}{alone} ({plan})",
            person(&approval.requester)
        )
    } else {
        format!(
            "asked by {}, approved by {} ({plan})",
            person(&approval.requester),
            person(&approval.approver)
        )
    }
}
