//! What a failed transition tells the operator: the request, as the one
//! explainer (`db::errors`) hears what fail-safely was doing, and which
//! conflicts the whole transaction is retried on.

use super::{MAX_ATTEMPTS, Request};
use crate::db::errors::{self, Doing};
pub use crate::db::errors::{CommitFailed, retryable};

/// The sentence for a failed transition of `request`: a lost session
/// (and whether the change can have been committed), a lock another
/// transaction held, conflicts on every attempt, a refusal of the
/// database's; any other error unchanged.
pub fn explain(err: anyhow::Error, request: &Request) -> anyhow::Error {
    errors::explain(
        err,
        &Doing::Writing {
            deployment: &request.deployment,
            role: request.role.as_deref(),
            lock_timeout: request.lock_timeout,
            attempts: MAX_ATTEMPTS,
        },
    )
}
