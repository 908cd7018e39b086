//! A table of bad input over every command: each gets its documented exit
//! code, a message that says what to do, no panic or backtrace, no password
//! in the output, and nothing written.

use pushleft_controller::db::sql;
use pushleft_controller::decide::input::{MAX_REASON, validate_reason};
use pushleft_controller::exit::{self, ExitCode};
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use super::assert_clean;
use crate::support::{Run, TestDb, bin, scenario};

mod commands;
mod passwords;
mod reasons;

/// A password that must never be printed.
const SECRET: &str = "Hunter2-s3cr3t-PW";

struct Case {
    label: String,
    args: Vec<String>,
    /// DATABASE_URL instead of the test database's, and other variables.
    env: Vec<(&'static str, String)>,
    code: i32,
    /// Every one of these is in stderr (what failed, and what to do).
    says: Vec<&'static str>,
}

fn case(label: impl Into<String>, args: &[&str], code: i32, says: &[&'static str]) -> Case {
    Case {
        label: label.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        env: Vec::new(),
        code,
        says: says.to_vec(),
    }
}

/// The commands that take a deployment id, with what else they need.
fn with_id(id: &str) -> Vec<(&'static str, Vec<String>)> {
    let own = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    vec![
        ("diagnose", own(&["diagnose", id])),
        (
            "fail-safely",
            own(&["fail-safely", id, "--reason", "INC-8 faults", "--yes"]),
        ),
        ("wait", own(&["wait", id, "--timeout", "2s"])),
    ]
}

/// Every command, runnable as is against the scenarios.
fn every_command() -> Vec<(&'static str, Vec<String>)> {
    let mut all = with_id("d0000001");
    all[2].1[1] = "d0000007".to_string();
    for (name, args) in [
        ("fleet list", vec!["fleet", "list"]),
        ("stuck", vec!["stuck"]),
        ("doctor", vec!["doctor"]),
    ] {
        all.push((name, args.iter().map(|a| a.to_string()).collect()));
    }
    all
}
