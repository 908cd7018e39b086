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

/// [`approval`] for a narrow table, the approver first so that a cut
/// keeps them: `bob (ops) approved, asked by alice (ops) (plan-…)`;
/// `SELF-APPROVED …` as there.
pub fn approver_first(a: &OperatorAction) -> String {
    match &a.audit.approval {
        Some(x) if !x.self_approved => format!(
            "{} ({}) approved, asked by {} ({}) ({})",
            visible(x.approver.os_user.as_deref().unwrap_or("?")),
            visible(x.approver.session_user.as_deref().unwrap_or("?")),
            visible(x.requester.os_user.as_deref().unwrap_or("?")),
            visible(x.requester.session_user.as_deref().unwrap_or("?")),
            visible(x.plan_id.as_deref().unwrap_or("no plan"))
        ),
        _ => approval(a),
    }
}
