//! The tool's own schema, `pushleft_approvals` (README, "Two-person
//! break-glass"): whether a database has it and its policy, `approvals
//! install`, a plan recorded by the server (`--plan-out`), the server's
//! copy read back (`--apply`), and a write's application in its
//! transaction (`db::transition`). The rules themselves are the schema's
//! triggers (`sql/approvals/install.sql`) and `decide::approval`.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::session::{Pinned, Session, Terms};
use super::sql::{self, Schema};
use crate::model::approvals::{Approvals, InstallReport, PlanRecord, Policy, StoredPlan};

/// The schema's name (fixed: the triggers name it).
pub const SCHEMA: &str = "pushleft_approvals";

/// Whether this database records plans, and its policy: one read-only
/// transaction (the policy is read only where the schema is installed).
pub fn state(session: &mut Session, schema: &Schema) -> Result<Approvals> {
    session
        .read(|tx| state_in(tx, schema))
        .context("reading whether this database records plans (sql/approvals/state.sql)")
}

/// [`state`] inside a transaction already open.
pub fn state_in(tx: &mut Pinned<'_>, schema: &Schema) -> Result<Approvals> {
    let row = sql::approvals::STATE.query_catalog_one(tx, &[&schema.name()])?;
    let installed: bool = row.try_get("installed")?;
    let policy = if installed { policy_in(tx)? } else { None };
    Ok(Approvals {
        installed,
        enforcing: row.try_get("enforcing")?,
        owner: row.try_get("owner")?,
        policy,
    })
}

/// The policy row of a database where the schema is installed (None:
/// the row is missing).
pub fn policy_in(tx: &mut Pinned<'_>) -> Result<Option<Policy>> {
    sql::approvals::POLICY
        .query_catalog(tx, &[])?
        .first()
        .map(|row| -> Result<Policy> {
            Ok(Policy {
                require_approval: row.try_get("require_approval")?,
                break_glass_alone_allowed: row.try_get("break_glass_alone_allowed")?,
                enforce: row.try_get("enforce")?,
            })
        })
        .transpose()
}

/// `approvals install`: the schema, its tables and triggers, the policy
/// and the enforcing trigger as asked, in one transaction; what was there
/// before and what is there now.
pub fn install(session: &mut Session, schema: &Schema, asked: Policy) -> Result<InstallReport> {
    let mut tx = session.begin(Terms::LockAndWrite)?;
    let before = state_in(&mut tx, schema)?;
    tx.batch_execute(sql::approvals::INSTALL.text)
        .context("creating the schema pushleft_approvals (sql/approvals/install.sql)")?;
    sql::approvals::SET_POLICY
        .query_catalog(
            &mut tx,
            &[
                &asked.require_approval,
                &asked.break_glass_alone_allowed,
                &asked.enforce,
            ],
        )
        .context("setting the policy (sql/approvals/set_policy.sql)")?;
    let trigger = if asked.enforce {
        &sql::approvals::ENFORCE
    } else {
        &sql::approvals::UNENFORCE
    };
    tx.batch_execute(&trigger.sql(schema))
        .with_context(|| format!("setting the enforcing trigger (sql/{})", trigger.path))?;
    let after = state_in(&mut tx, schema)?;
    tx.commit().context("committing the installation")?;
    Ok(InstallReport {
        schema: SCHEMA.to_string(),
        owner: after.owner.unwrap_or_default(),
        created: !before.installed,
        policy_before: before.policy,
        policy: after.policy.unwrap_or(asked),
        enforcing_before: before.enforcing,
        enforcing: after.enforcing,
        events_table: format!("{}.deployment_events", schema.name()),
    })
}

/// What the server stamped on a plan it recorded.
pub struct Stamped {
    pub plan_id: String,
    pub record: PlanRecord,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// `--plan-out`: records `content` (the plan without what the server
/// stamps), committed before the file is written.
pub fn record(
    session: &mut Session,
    content: &Value,
    os_user: &str,
    ttl_seconds: i64,
) -> Result<Stamped> {
    let mut tx = session.begin(Terms::LockAndWrite)?;
    let row = sql::approvals::RECORD_PLAN
        .query_catalog_one(&mut tx, &[content, &os_user, &ttl_seconds])
        .context("recording the plan in pushleft_approvals.plans")?;
    let stamped = Stamped {
        plan_id: row.try_get("plan_id")?,
        record: record_of(&row)?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
    };
    tx.commit().context("committing the plan's record")?;
    Ok(stamped)
}

fn record_of(row: &postgres::Row) -> Result<PlanRecord> {
    let oid: i64 = row.try_get("database_oid")?;
    Ok(PlanRecord {
        schema: SCHEMA.to_string(),
        content_sha256: row.try_get("content_sha256")?,
        requested_by: row.try_get("requested_by")?,
        requested_from: row.try_get("requested_from")?,
        database: row.try_get("database_name")?,
        database_oid: u32::try_from(oid).context("a database OID out of range")?,
        system_identifier: row.try_get("system_identifier")?,
    })
}

/// `--apply`: the server's copy of `plan_id`, if this database has it.
pub fn read_plan(session: &mut Session, plan_id: &str) -> Result<Option<StoredPlan>> {
    session
        .read(|tx| {
            let rows = sql::approvals::READ_PLAN.query_catalog(tx, &[&plan_id])?;
            rows.first()
                .map(|row| -> Result<StoredPlan> {
                    Ok(StoredPlan {
                        plan_id: row.try_get("plan_id")?,
                        content: row.try_get("content")?,
                        record: record_of(row)?,
                        created_at: row.try_get("created_at")?,
                        expires_at: row.try_get("expires_at")?,
                        applied: row.try_get("applied")?,
                        now: row.try_get("now")?,
                    })
                })
                .transpose()
        })
        .with_context(|| format!("reading plan {plan_id} (sql/approvals/read_plan.sql)"))
}

/// A write's application (`Request::application`), recorded in the
/// write's own transaction before its event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Application {
    /// None: a write without a plan (the policy decides whether alone is
    /// allowed).
    pub plan_id: Option<String>,
    pub approver_os_user: String,
    pub break_glass_alone: bool,
}

/// Records `application` for the event about to be written; the trigger
/// refuses what the policy or the plan does not allow (SQLSTATE PXA01,
/// PXA02). Returns whether the server judged it self-approved.
pub fn apply_in(
    tx: &mut Pinned<'_>,
    application: &Application,
    deployment: Uuid,
    event_kind: &str,
    reason: &str,
) -> Result<bool> {
    let row = sql::approvals::APPLY
        .query_catalog_one(
            tx,
            &[
                &application.plan_id,
                &deployment,
                &event_kind,
                &reason,
                &application.approver_os_user,
                &application.break_glass_alone,
            ],
        )
        .with_context(|| {
            format!("recording the application of deployment {deployment} in pushleft_approvals")
        })?;
    Ok(row.try_get("self_approved")?)
}

/// Before a dry run's writes where the enforcing trigger is in place and
/// no application is recorded: it fires only at COMMIT, never reached.
pub fn defer_enforcing(tx: &mut Pinned<'_>, schema: &Schema) -> Result<()> {
    tx.batch_execute(&sql::approvals::DEFER_ENFORCE.sql(schema))
        .context(
            "deferring the enforcing trigger for the dry run (sql/approvals/defer_enforce.sql)",
        )?;
    Ok(())
}
