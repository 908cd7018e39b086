//! Step 8 (pushleft-controller-fail-safely(1), STEP BY STEP): an event with this
//! idempotency key exists, found by step 6. Read here, column by column;
//! whether it is a replay of this run and what the earlier run did is
//! `decide::transition::replay`'s to say.

use anyhow::Result;
use uuid::Uuid;

use super::{Outcome, Request};
use crate::decide::transition::replay::{self, Recorded};

/// A column of the event the earlier run wrote: `None` when it is NULL
/// (a live schema may allow it) or of another type.
fn column<T: for<'a> postgres::types::FromSql<'a>>(row: &postgres::Row, name: &str) -> Option<T> {
    row.try_get::<_, Option<T>>(name).ok().flatten()
}

/// The earlier run's event, from step 6's row.
fn recorded(row: &postgres::Row) -> Recorded {
    Recorded {
        deployment_id: column(row, "deployment_id"),
        payload: column(row, "payload"),
        kind: column(row, "kind"),
        id: column(row, "id"),
        sequence: column(row, "sequence"),
        occurred_at: column(row, "occurred_at"),
    }
}

/// The earlier run's outcome (nothing is written). `now`: the
/// fingerprint of the state now, read under the locks (only when the
/// request is held to a fingerprint).
pub fn replay(
    request: &Request,
    id: Uuid,
    key: &str,
    row: &postgres::Row,
    now: Option<&str>,
) -> Result<Outcome> {
    replay::replay(&request.asked(), id, key, recorded(row), now)
}
