//! `history`'s read: the operators' actions, newest first, in one
//! read-only snapshot.

use std::time::Duration;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::Row;
use uuid::Uuid;

use super::columns::{Columns, RowReader};
use super::deployment_id;
use super::session::{Arg, Session, Step};
use super::sql::{self, Schema};
use crate::db_failure::DbError;
use crate::duration::millis;
use crate::model::history::{
    ActionApproval, ActionAudit, ActionPerson, History, HistoryReadInfo, OperatorAction,
};
use crate::model::{BreakGlassPath, DeploymentStatus, Warning};

/// A bound of the time window: a moment, or how long ago (by the server's
/// clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    At(DateTime<Utc>),
    Ago(Duration),
}

/// Which actions to list. `None` is no filter.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    /// At or after.
    pub since: Option<When>,
    /// Before.
    pub until: Option<When>,
    /// The OS user, session_user or current_user of the audit.
    pub operator: Option<String>,
    /// Case-insensitive.
    pub reason_contains: Option<String>,
    pub deployment: Option<Uuid>,
    /// `Some(true)`: only self-approved actions.
    pub self_approved: Option<bool>,
}

fn at(when: Option<When>) -> Option<DateTime<Utc>> {
    match when {
        Some(When::At(at)) => Some(at),
        _ => None,
    }
}

fn ago_ms(when: Option<When>) -> Option<i64> {
    match when {
        Some(When::Ago(ago)) => Some(millis(ago)),
        _ => None,
    }
}

fn action_from(row: &Row, w: &mut Vec<Warning>) -> Result<OperatorAction> {
    let mut r = RowReader::new(row, "deployment_events", "event_id", w)?;
    let kind: String = r.required("kind")?;
    let deployment_id: Uuid = r.required("deployment_id")?;
    let occurred_at = r.or_unknown("occurred_at")?;
    let org_id = r.or_unknown("org_id")?;
    let sequence = r.required("sequence")?;
    let event_id = r.col("event_id")?;
    let previous_status: Option<DeploymentStatus> = r.col("previous_status")?;
    let mut d = RowReader::new(row, "deployments", "deployment_id", w)?;
    let status_now: DeploymentStatus = d.required_as("status_now", "status")?;
    if !status_now.is_null() {
        w.extend(Warning::of_status(
            "deployments",
            "status",
            &deployment_id.to_string(),
            &status_now,
        ));
    }
    Ok(OperatorAction {
        region: None,
        occurred_at,
        deployment_id,
        org_id,
        sequence,
        event_id,
        path: BreakGlassPath::of_event_kind(&kind),
        reason: row.col("reason")?,
        reason_length: row.col("reason_length")?,
        reason_cut: row.col::<Option<bool>>("reason_cut")?.unwrap_or(false),
        idempotency_key: row.col("idempotency_key")?,
        audit: ActionAudit {
            os_user: row.col("os_user")?,
            session_user: row.col("session_user")?,
            current_user: row.col("current_user")?,
            host: row.col("host")?,
            tool: row.col("tool")?,
            previous_status,
            approval: approval_from(row)?,
        },
        status_now,
    })
}

/// The approval the audit records, if any.
fn approval_from(row: &Row) -> Result<Option<ActionApproval>> {
    let Some(self_approved) = row.col::<Option<bool>>("self_approved")? else {
        return Ok(None);
    };
    Ok(Some(ActionApproval {
        plan_id: row.col("plan_id")?,
        requester: ActionPerson {
            os_user: row.col("requester_os_user")?,
            session_user: row.col("requester_session_user")?,
        },
        approver: ActionPerson {
            os_user: row.col("approver_os_user")?,
            session_user: row.col("approver_session_user")?,
        },
        self_approved,
        break_glass_alone: row
            .col::<Option<bool>>("break_glass_alone")?
            .unwrap_or(false),
    }))
}

/// The newest `limit` actions that pass `filter`, in one flight with the
/// snapshot's instant and, when `must_exist`, the look-up of
/// `filter.deployment` (unknown is exit 3): one round trip.
pub fn list(
    session: &mut Session,
    schema: &Schema,
    filter: &HistoryFilter,
    limit: usize,
    must_exist: bool,
) -> Result<History> {
    // One row more than asked: whether the list was cut.
    let fetch = i64::try_from(limit).unwrap_or(i64::MAX).saturating_add(1);
    let values: Vec<Arg> = vec![
        Box::new(at(filter.since)),
        Box::new(ago_ms(filter.since)),
        Box::new(at(filter.until)),
        Box::new(ago_ms(filter.until)),
        Box::new(filter.operator.clone()),
        Box::new(filter.reason_contains.clone()),
        Box::new(filter.deployment),
        Box::new(fetch),
        Box::new(filter.self_approved),
    ];
    let mut steps = vec![Step::catalog(&sql::session::NOW, Vec::new())];
    let look_up = filter.deployment.filter(|_| must_exist);
    if let Some(id) = look_up {
        let range: Vec<Arg> = vec![Box::new(id), Box::new(id)];
        steps.push(Step::of(&sql::RESOLVE_DEPLOYMENT, schema, range));
    }
    steps.push(Step::of(&sql::history::OPERATOR_ACTIONS, schema, values));
    let mut answers = session
        .read_in_flight(steps)
        .context("listing the operators' actions (sql/history/operator_actions.sql)")
        .map_err(|err| match err.downcast::<DbError>() {
            Ok(pg) => deployment_id::missing_table(pg, schema),
            Err(other) => other,
        })?
        .into_iter();
    let now: DateTime<Utc> = answers
        .next()
        .and_then(|rows| rows.into_iter().next())
        .context("sql/session/now.sql returned no row")?
        .try_get("at")
        .context("reading the snapshot's time")?;
    if let Some(id) = look_up {
        let found: Vec<Uuid> = answers
            .next()
            .unwrap_or_default()
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()
            .context("looking up the deployment id")?;
        deployment_id::choose(&found, id, None)?;
    }
    let rows = answers.next().unwrap_or_default();
    // The warnings are those of the rows shown.
    let mut warnings = Vec::new();
    let truncated = rows.len() > limit;
    let actions: Vec<OperatorAction> = rows
        .iter()
        .take(limit)
        .map(|row| action_from(row, &mut warnings))
        .collect::<Result<_>>()?;
    Ok(History {
        regions: None,
        actions,
        snapshot: HistoryReadInfo {
            at: now,
            limit,
            truncated,
        },
        warnings,
    })
}
