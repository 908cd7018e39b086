//! The commands measured, each with what an operator would type into psql
//! for it today (none for fail-safely and doctor).

use crate::measure::{Case, Group};
use crate::server::Examples;

const RUNBOOK_DIAGNOSE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/runbook/diagnose.sql");
const RUNBOOK_ALERTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/runbook/alerts.sql");
const RUNBOOK_FLEET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/runbook/fleet.sql");
const RUNBOOK_CAPACITY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/runbook/capacity.sql");

/// The commands, each with the psql an operator would type for it.
/// `counted`: the labels say how long the trails are (not in the scaling
/// table, whose sizes table says it per size).
pub fn groups(examples: &Examples, counted: bool) -> Vec<Group> {
    let (typical, typical_events) = examples.typical;
    let (long, long_events) = examples.long_trail;
    let typical = typical.to_string();
    let long = long.to_string();
    let count = |events: i64| {
        if counted {
            format!(" ({events} ev)")
        } else {
            String::new()
        }
    };
    let typical_events = count(typical_events);
    let long_events = count(long_events);
    vec![
        Group {
            baseline: Some(runbook("typical", &typical, &typical_events)),
            members: vec![
                Case::ours(
                    format!("diagnose typical{typical_events} -o json"),
                    &["diagnose", &typical, "-o", "json"],
                ),
                Case::ours(
                    format!("diagnose typical{typical_events} -o table"),
                    &["diagnose", &typical, "-o", "table"],
                ),
            ],
        },
        Group {
            baseline: Some(runbook("long trail", &long, &long_events)),
            members: vec![
                Case::ours(
                    format!("diagnose long trail{long_events} -o json"),
                    &["diagnose", &long, "-o", "json"],
                ),
                Case::ours(
                    format!("diagnose long trail{long_events} -o table"),
                    &["diagnose", &long, "-o", "table"],
                ),
            ],
        },
        Group {
            baseline: Some(Case::psql("alerts.sql", &["-f", RUNBOOK_ALERTS])),
            members: vec![Case::ours("stuck -o json", &["stuck", "-o", "json"])],
        },
        fleet_group(),
        capacity_group(),
        Group {
            baseline: None,
            members: vec![
                Case::ours(
                    "fail-safely typical --dry-run -o json",
                    &[
                        "fail-safely",
                        &typical,
                        "--reason",
                        "BENCH-1 dry run",
                        "--dry-run",
                        "-o",
                        "json",
                    ],
                ),
                Case::ours("doctor", &["doctor"]),
            ],
        },
    ]
}

/// psql running the runbook's Diagnosis on `id`.
pub fn runbook(example: &str, id: &str, events: &str) -> Case {
    Case::psql(
        format!("diagnose.sql {example}{events}"),
        &["-v", &format!("D={id}"), "-f", RUNBOOK_DIAGNOSE],
    )
}

pub fn fleet_group() -> Group {
    Group {
        baseline: Some(Case::psql("fleet.sql", &["-f", RUNBOOK_FLEET])),
        members: vec![
            Case::ours("fleet list -o json", &["fleet", "list", "-o", "json"]),
            Case::ours("fleet list -o table", &["fleet", "list", "-o", "table"]),
        ],
    }
}

/// `fleet list` against the simpler baseline: slots in use per node, one
/// join, no instance count.
pub fn capacity_group() -> Group {
    Group {
        baseline: Some(Case::psql("capacity.sql", &["-f", RUNBOOK_CAPACITY])),
        members: vec![
            Case::ours(
                "fleet list -o json, vs capacity.sql",
                &["fleet", "list", "-o", "json"],
            ),
            Case::ours(
                "fleet list -o table, vs capacity.sql",
                &["fleet", "list", "-o", "table"],
            ),
        ],
    }
}
