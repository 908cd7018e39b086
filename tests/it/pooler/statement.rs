//! Statement pooling hands every statement to whichever server connection
//! is free and forbids transactions of more than one statement: nothing the
//! tool reads is one snapshot and no guarded transaction is possible. Every
//! command refuses (exit 4) and says "statement pooling", on stderr and in
//! the JSON error document; nothing is written.

use pushleft_controller::testing::pgbouncer::PoolMode;

use super::{REASON, pinned_dump, pooler, run_via};
use crate::support::TestDb;

const COMMANDS: [&[&str]; 9] = [
    &["doctor"],
    &["diagnose", "d0000003"],
    &["stuck"],
    &["fleet", "list"],
    &["history"],
    &["wait", "d0000006", "--timeout", "5s"],
    &["fail-safely", "d0000003", "--reason", REASON, "--dry-run"],
    &["fail-safely", "d0000003", "--reason", REASON, "--yes"],
    &["fail-safely", "d0000001", "--reason", REASON, "--yes"],
];

#[test]
fn every_command_refuses_statement_pooling_and_writes_nothing() {
    let db = TestDb::scenarios();
    let Some(pooler) = pooler(PoolMode::Statement, &[], &[]) else {
        return;
    };
    let before = pinned_dump(&db);
    for args in COMMANDS {
        let run = run_via(&pooler, &db, "postgres", &[], args);
        run.assert_code(4);
        // doctor reports its checks on stdout, the others on stderr.
        let said = if args[0] == "doctor" {
            format!("{}{}", run.stdout, run.stderr)
        } else {
            run.stderr.clone()
        };
        assert!(
            said.contains("statement pooling"),
            "{args:?}: the message names statement pooling:\n{said}"
        );
        let mut json_args = args.to_vec();
        json_args.extend(["-o", "json"]);
        let run = run_via(&pooler, &db, "postgres", &[], &json_args);
        run.assert_code(4);
        assert_json_names_statement_pooling(args, &run.json());
        assert_eq!(
            pinned_dump(&db),
            before,
            "{args:?} wrote through statement pooling"
        );
    }
}

/// The error document; for doctor, its own document with a failed check
/// is as good, when that check names statement pooling.
fn assert_json_names_statement_pooling(args: &[&str], json: &serde_json::Value) {
    if let Some(checks) = json["checks"].as_array() {
        assert!(
            checks.iter().any(|c| c["status"] == "fail"
                && c["detail"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("statement pooling")),
            "{args:?}: a failed check names statement pooling: {json:#}"
        );
        return;
    }
    assert_eq!(json["error"]["kind"], "refused", "{args:?}: {json:#}");
    assert_eq!(json["error"]["exit_code"], 4, "{args:?}: {json:#}");
    let message = json["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("statement pooling"),
        "{args:?}: the JSON error names statement pooling: {json:#}"
    );
}
