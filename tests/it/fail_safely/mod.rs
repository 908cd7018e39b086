//! `fail-safely`: the two guarded transitions, race-proof and idempotent.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use pushleft_controller::db::schema_check::AllowedTriggers;
use pushleft_controller::db::session::Session;
use pushleft_controller::db::sql::Schema;
use pushleft_controller::db::transition::{self as fail_safely, Audit, Request};
use pushleft_controller::decide::Policy;
use pushleft_controller::model::BreakGlassPath as Path;
use serde_json::Value;
use uuid::Uuid;

use crate::support::{TestDb, scenario};

mod guard;
mod prompt;
mod races;
mod refusals;
mod replay;
mod writes;

/// Every table but the two the transitions may touch, as JSON text.
fn untouched_tables(db: &TestDb) -> String {
    db.dump()
        .lines()
        .filter(|l| !l.starts_with("deployments:") && !l.starts_with("deployment_events:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A request as the binary would build it for `deployment` and `reason`
/// (the guard's property test starts from it too).
pub fn request(deployment: &str, reason: &str) -> Request {
    Request {
        deployment: deployment.to_string(),
        reason: reason.to_string(),
        idempotency_key: None,
        dry_run: false,
        expect_path: None,
        expect_fingerprint: None,
        role: None,
        lock_timeout: Duration::from_secs(5),
        policy: Policy::default(),
        audit: Audit {
            os_user: "tester".into(),
            host: "test-host".into(),
            tool: "pushleft-controller/test".into(),
            region: None,
            approval: None,
            application: None,
        },
        schema: Schema::public(),
        even_if_not_stuck: false,
        allowed_triggers: AllowedTriggers::default(),
    }
}

fn status_of(db: &TestDb, id: &str) -> String {
    db.client()
        .query_one(
            "SELECT status FROM deployments WHERE id = $1::text::uuid",
            &[&id],
        )
        .unwrap()
        .get(0)
}

fn events_of(db: &TestDb, id: &str) -> Vec<(i64, String, Value)> {
    db.client()
        .query(
            "SELECT sequence, kind, payload FROM deployment_events
             WHERE deployment_id = $1::text::uuid ORDER BY sequence",
            &[&id],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}
