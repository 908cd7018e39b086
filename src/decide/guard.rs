//! The guard's rule (SPEC step 5), pure: given the per-table tuple counters
//! read at the start and just before COMMIT, did the transaction change
//! exactly one `deployments` row and insert exactly one event, and nothing
//! else anywhere?

use std::collections::BTreeMap;

/// The tables the guard allows to change, and by how much.
pub const DEPLOYMENTS: &str = "public.deployments";
pub const EVENTS: &str = "public.deployment_events";

/// Per table (`schema.name`): rows inserted, updated, deleted.
pub type Counters = BTreeMap<String, [i64; 3]>;

/// `Ok` when the delta is exactly the runbook's change, else every table
/// that changed otherwise, in words.
pub fn check_guard(before: &Counters, after: &Counters) -> Result<(), String> {
    let mut violations = Vec::new();
    for (table, now) in after {
        let was = before.get(table).copied().unwrap_or([0, 0, 0]);
        let delta = [now[0] - was[0], now[1] - was[1], now[2] - was[2]];
        let allowed = match table.as_str() {
            DEPLOYMENTS => [0, 1, 0],
            EVENTS => [1, 0, 0],
            _ => [0, 0, 0],
        };
        if delta != allowed {
            violations.push(format!(
                "{table} ({} inserted, {} updated, {} deleted; allowed {} / {} / {})",
                delta[0], delta[1], delta[2], allowed[0], allowed[1], allowed[2]
            ));
        }
    }
    for (table, allowed) in [(DEPLOYMENTS, "1 updated"), (EVENTS, "1 inserted")] {
        if !after.contains_key(table) {
            violations.push(format!("{table} (no change recorded; expected {allowed})"));
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_allows_exactly_one_update_and_one_insert() {
        let before: Counters = [
            (DEPLOYMENTS.to_string(), [0, 5, 0]),
            ("public.jobs".to_string(), [1, 1, 0]),
        ]
        .into();
        let mut after = before.clone();
        after.insert(DEPLOYMENTS.to_string(), [0, 6, 0]);
        after.insert(EVENTS.to_string(), [1, 0, 0]);
        assert!(check_guard(&before, &after).is_ok());

        let mut jobs_touched = after.clone();
        jobs_touched.insert("public.jobs".to_string(), [1, 2, 0]);
        let err = check_guard(&before, &jobs_touched).unwrap_err();
        assert!(err.contains("public.jobs"), "{err}");

        let mut two_events = after.clone();
        two_events.insert(EVENTS.to_string(), [2, 0, 0]);
        assert!(check_guard(&before, &two_events).is_err());

        let mut no_update = after;
        no_update.insert(DEPLOYMENTS.to_string(), [0, 5, 0]);
        assert!(check_guard(&before, &no_update).is_err());
    }
}
