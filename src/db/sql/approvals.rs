//! The tool's own schema, `pushleft_approvals` (README, "Two-person
//! break-glass"): plans recorded by the server and the policy. Its
//! queries read and write only that schema's small tables by primary key
//! (or, for `STATE`, the catalogs), and a database without it never runs
//! them: they are not held to the EXPLAIN check of the control plane's
//! tables.

use super::*;

/// Creates (or completes) the schema, its tables and triggers.
pub const INSTALL: Statement = file!(Script "approvals/install.sql" []);
/// The policy as asked: $1 require approval, $2 break-glass alone
/// allowed, $3 enforce.
pub const SET_POLICY: Statement = file!(Approvals "approvals/set_policy.sql" [Bool, Bool, Bool]);
/// The trigger on the control plane's events table (`--enforce`).
pub const ENFORCE: Statement = file!(Script "approvals/enforce.sql" []);
pub const UNENFORCE: Statement = file!(Script "approvals/unenforce.sql" []);
/// Whether the schema is installed and the trigger in place ($1 the
/// control plane's schema): catalogs only.
pub const STATE: Statement = file!(Query "approvals/state.sql" [Text]);
pub const POLICY: Statement = file!(Approvals "approvals/policy.sql" []);
/// `--plan-out`: $1 content, $2 the OS user, $3 the lifetime in seconds.
pub const RECORD_PLAN: Statement = file!(Approvals "approvals/record_plan.sql" [Json, Text, Int8]);
/// `--apply`: the server's copy of plan $1.
pub const READ_PLAN: Statement = file!(Approvals "approvals/read_plan.sql" [Text]);
/// A write's application, before its event.
pub const APPLY: Statement =
    file!(Approvals "approvals/apply.sql" [OptText, Uuid, Text, Text, Text, Bool]);
/// A dry run without an application where the enforcing trigger is in
/// place: it fires only at COMMIT.
pub const DEFER_ENFORCE: Statement = file!(Script "approvals/defer_enforce.sql" []);

/// The enforcing trigger's function body exactly as `enforce.sql` creates
/// it (`pg_proc.prosrc`): fail-safely vouches for the trigger on the table
/// it writes only while the database holds this text.
pub fn enforce_body() -> &'static str {
    let text = ENFORCE.text;
    let marker = "$body$";
    text.find(marker)
        .and_then(|start| {
            let body = &text[start + marker.len()..];
            body.find(marker).map(|end| &body[..end])
        })
        .unwrap_or("")
}
