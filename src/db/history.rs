//! `history`'s read: the operators' actions, newest first, in one
//! read-only snapshot.

use std::time::Duration;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use postgres::Row;
use uuid::Uuid;

use super::session::{Session, with_snapshot};
use super::sql::{self, Schema};
use crate::duration::millis;
use crate::model::BreakGlassPath;
use crate::model::history::{ActionAudit, History, HistoryReadInfo, OperatorAction};

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

fn action_from(row: &Row) -> OperatorAction {
    let kind: String = row.get("kind");
    OperatorAction {
        region: None,
        occurred_at: row.get("occurred_at"),
        deployment_id: row.get("deployment_id"),
        org_id: row.get("org_id"),
        sequence: row.get("sequence"),
        event_id: row.get("event_id"),
        path: BreakGlassPath::of_event_kind(&kind),
        reason: row.get("reason"),
        idempotency_key: row.get("idempotency_key"),
        audit: ActionAudit {
            os_user: row.get("os_user"),
            session_user: row.get("session_user"),
            current_user: row.get("current_user"),
            host: row.get("host"),
            tool: row.get("tool"),
            previous_status: row.get("previous_status"),
        },
        status_now: row.get("status_now"),
    }
}

/// The newest `limit` actions that pass `filter`.
pub fn list(
    session: &mut Session,
    schema: &Schema,
    filter: &HistoryFilter,
    limit: usize,
) -> Result<History> {
    with_snapshot(session, |tx, now| {
        // One row more than asked: whether the list was cut.
        let fetch = i64::try_from(limit).unwrap_or(i64::MAX).saturating_add(1);
        let rows = sql::history::OPERATOR_ACTIONS
            .query(
                tx,
                schema,
                &[
                    &at(filter.since),
                    &ago_ms(filter.since),
                    &at(filter.until),
                    &ago_ms(filter.until),
                    &filter.operator,
                    &filter.reason_contains,
                    &filter.deployment,
                    &fetch,
                ],
            )
            .context("listing the operators' actions (sql/history/operator_actions.sql)")?;
        let mut actions: Vec<OperatorAction> = rows.iter().map(action_from).collect();
        let truncated = actions.len() > limit;
        actions.truncate(limit);
        Ok(History {
            regions: None,
            actions,
            snapshot: HistoryReadInfo {
                at: now,
                limit,
                truncated,
            },
        })
    })
}
