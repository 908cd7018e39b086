//! The table of bad input, run over every command: the documented exit
//! code, a message that says what to do, and nothing written; and a NUL
//! byte in a reason, which argv cannot carry.

use super::*;

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();

    // Ids: malformed, too short, ambiguous, unknown, hostile.
    for (text, code, says) in [
        (
            "xyz1234",
            2,
            &["is not a deployment id", "at least 4 hex digits"][..],
        ),
        ("abc", 2, &["too short", "at least 4 hex digits"]),
        ("", 2, &["is not a deployment id"]),
        (
            "d000",
            2,
            &[
                "ambiguous",
                "d0000001-0000-4000-8000-000000000001",
                "give more digits",
            ],
        ),
        (
            "ffff",
            3,
            &["no deployment id starts with `ffff`", "check the id"],
        ),
        (
            "0123456789abcdef0123456789abcdef0",
            2,
            &["is not a deployment id"],
        ),
        (
            "ffffffff-0000-4000-8000-000000000001",
            3,
            &["does not exist", "check the id"],
        ),
        (
            "d0000001'; DROP TABLE jobs; --",
            2,
            &["is not a deployment id"],
        ),
    ] {
        for (command, args) in with_id(text) {
            cases.push(case(
                format!("{command} with id {text:?}"),
                &args.iter().map(String::as_str).collect::<Vec<_>>(),
                code,
                says,
            ));
        }
    }

    // Reasons (a NUL byte cannot travel through argv; see
    // `a_reason_with_a_nul_byte_is_refused`).
    let long = "x".repeat(MAX_REASON + 1);
    let huge = "INC-9 ".repeat(20_000);
    for (label, reason, says) in [
        (
            "empty reason",
            "",
            &["--reason is empty", "give the ticket and the reason"][..],
        ),
        ("whitespace reason", " \t\n  ", &["--reason is empty"]),
        (
            "reason of 2001 characters",
            long.as_str(),
            &["2001 characters", "at most 2000"],
        ),
        (
            "reason of 120000 bytes",
            huge.as_str(),
            &["at most 2000", "link the details"],
        ),
    ] {
        cases.push(case(
            label,
            &["fail-safely", "d0000001", "--reason", reason, "--yes"],
            2,
            says,
        ));
    }
    cases.push(case(
        "fail-safely without --reason",
        &["fail-safely", "d0000001", "--yes"],
        2,
        &["--reason <TEXT>", "Usage"],
    ));
    cases.push(case(
        "empty idempotency key",
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-8",
            "--yes",
            "--idempotency-key",
            " ",
        ],
        2,
        &["--idempotency-key must be 1 to 200 characters"],
    ));
    cases.push(case(
        "unknown --expect-path",
        &[
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-8",
            "--yes",
            "--expect-path",
            "delete",
        ],
        2,
        &["possible values", "operator_failed"],
    ));

    // --output and durations, for every command.
    for (command, args) in every_command() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let with = |extra: &[&'static str]| -> Vec<&str> { [&args[..], extra].concat() };
        cases.push(case(
            format!("{command} --output yaml"),
            &with(&["--output", "yaml"]),
            2,
            &["invalid value 'yaml'", "possible values: table, wide, json"],
        ));
        for (value, says) in [
            ("0s", "must be greater than zero"),
            ("-5s", "cannot be negative"),
            ("5parsecs", "unknown unit `parsecs`"),
            ("1.5h", "no fractions; write e.g. 90m"),
            ("30", "has no unit"),
        ] {
            cases.push(case(
                format!("{command} --statement-timeout {value}"),
                &with(&["--statement-timeout", value]),
                2,
                &[says],
            ));
        }
    }
    for (label, args, says) in [
        (
            "wait --timeout 0s",
            &["wait", "d0000007", "--timeout", "0s"][..],
            "must be greater than zero",
        ),
        (
            "wait --timeout -5s",
            &["wait", "d0000007", "--timeout", "-5s"],
            "cannot be negative; write a positive one such as 5s",
        ),
        (
            "wait --timeout=-1m",
            &["wait", "d0000007", "--timeout=-1m"],
            "cannot be negative",
        ),
        (
            "wait --interval 0ms",
            &["wait", "d0000007", "--interval", "0ms"],
            "must be greater than zero",
        ),
        (
            "wait --timeout 99999999999999999999d",
            &["wait", "d0000007", "--timeout", "99999999999999999999d"],
            "is not a duration",
        ),
        (
            "fail-safely --lock-timeout 0s",
            &[
                "fail-safely",
                "d0000001",
                "--reason",
                "INC-8",
                "--yes",
                "--lock-timeout",
                "0s",
            ],
            "must be greater than zero",
        ),
        (
            "fail-safely --lock-timeout -1s",
            &[
                "fail-safely",
                "d0000001",
                "--reason",
                "INC-8",
                "--yes",
                "--lock-timeout",
                "-1s",
            ],
            "cannot be negative",
        ),
        (
            "stuck --for 0m",
            &["stuck", "--for", "0m"],
            "must be greater than zero",
        ),
        (
            "stuck --grace -1m",
            &["stuck", "--grace", "-1m"],
            "cannot be negative",
        ),
        (
            "diagnose --stale-after 2 minutes",
            &["diagnose", "d0000001", "--stale-after", "2minutes"],
            "unknown unit",
        ),
        (
            "fleet list --stale-after=-2m",
            &["fleet", "list", "--stale-after=-2m"],
            "cannot be negative",
        ),
        (
            "diagnose --connect-timeout 0s",
            &["diagnose", "d0000001", "--connect-timeout", "0s"],
            "must be greater than zero",
        ),
        (
            "PUSHLEFT_LOCK_TIMEOUT=-3s",
            &["fail-safely", "d0000001", "--reason", "INC-8", "--yes"],
            "cannot be negative",
        ),
    ] {
        let mut c = case(label, args, 2, &[says]);
        if label.starts_with("PUSHLEFT_LOCK_TIMEOUT") {
            c.env.push(("PUSHLEFT_LOCK_TIMEOUT", "-3s".to_string()));
        }
        cases.push(c);
    }

    // Connection settings, for every command. doctor reports a connection
    // it cannot make as a failed check: its documented exit 4.
    let urls: [(&str, String, i32, &[&'static str]); 6] = [
        (
            "malformed URL",
            format!("postgres://ops:{SECRET}@db1:notaport/control"),
            2,
            &["malformed", "the text is not shown"],
        ),
        (
            "malformed key=value",
            format!("host=db1 password={SECRET} dbname"),
            2,
            &["malformed", "key=value pairs"],
        ),
        (
            "unknown URL parameter",
            format!("postgresql://ops:{SECRET}@db1/control?sslmod=require"),
            2,
            &["does not know", "supported are"],
        ),
        (
            "unknown sslmode",
            format!("postgresql://ops:{SECRET}@db1/control?sslmode=bogus"),
            2,
            &["sslmode \"bogus\" is not one of", "verify-full"],
        ),
        (
            "unreachable host (refused)",
            format!("postgresql://ops:{SECRET}@127.0.0.1:1/control?connect_timeout=2"),
            1,
            &[
                "could not connect to 127.0.0.1:1/control as ops",
                "connection refused",
                "Next step",
            ],
        ),
        (
            "unresolvable host",
            format!("postgresql://ops:{SECRET}@no-such-host.invalid/control?connect_timeout=2"),
            1,
            &["could not connect to no-such-host.invalid", "Next step"],
        ),
    ];
    for (label, url, code, says) in urls {
        for (command, args) in every_command() {
            let mut c = case(
                format!("{command} with {label}"),
                &args.iter().map(String::as_str).collect::<Vec<_>>(),
                if command == "doctor" && code == 1 {
                    4
                } else {
                    code
                },
                if command == "doctor" && code == 1 {
                    &["could not connect"]
                } else {
                    says
                },
            );
            c.env.push(("DATABASE_URL", url.clone()));
            cases.push(c);
        }
    }
    let mut pgsslmode = case(
        "PGSSLMODE=bogus",
        &["diagnose", "d0000001"],
        2,
        &["sslmode \"bogus\" is not one of", "PGSSLMODE"],
    );
    pgsslmode.env = vec![
        (
            "DATABASE_URL",
            format!("postgresql://ops:{SECRET}@db1/control"),
        ),
        ("PGSSLMODE", "bogus".to_string()),
    ];
    cases.push(pgsslmode);
    cases
}

fn run_case(db: &TestDb, c: &Case) -> Run {
    let mut cmd = db.cmd();
    cmd.args(&c.args).env("RUST_BACKTRACE", "1");
    for (key, value) in &c.env {
        cmd.env(key, value);
    }
    Run::from(cmd.output().expect("running pushleft-controller"))
}

#[test]
fn every_command_refuses_bad_input_clearly_and_writes_nothing() {
    let db = TestDb::scenarios();
    let before = db.dump();
    let cases = cases();
    let mut failures = Vec::new();
    for c in &cases {
        let run = run_case(&db, c);
        assert_clean(&c.label, &run, &[SECRET]);
        if run.code != c.code {
            failures.push(format!(
                "{}: exit {} instead of {}\n{}",
                c.label, run.code, c.code, run.stderr
            ));
            continue;
        }
        // doctor reports its checks (the connection one too) on stdout.
        let text = if c.label.starts_with("doctor") {
            format!("{}{}", run.stdout, run.stderr)
        } else {
            run.stderr.clone()
        };
        for says in &c.says {
            if !text.contains(says) {
                failures.push(format!(
                    "{}: stderr lacks `{says}`:\n{}",
                    c.label, run.stderr
                ));
            }
        }
        // Off a terminal the output is JSON: a failure prints the error
        // document, whose exit_code is the status (doctor prints its report).
        if c.code != 4 && !run.stdout.trim().is_empty() {
            let document: serde_json::Value = serde_json::from_str(&run.stdout).unwrap_or_default();
            if document["error"]["exit_code"] != c.code {
                failures.push(format!(
                    "{}: printed something else than the error document:\n{}",
                    c.label, run.stdout
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
    assert_eq!(db.dump(), before, "a refused command wrote something");
    eprintln!("{} bad-input cases checked", cases.len());
}

/// A NUL byte cannot be passed in argv (the OS ends the string there), so
/// this case goes through the library function the binary uses.
#[test]
fn a_reason_with_a_nul_byte_is_refused() {
    for reason in ["INC-1\0", "\0", "INC-1 stuck\0; DROP TABLE jobs"] {
        let err = validate_reason(reason, None).unwrap_err();
        assert_eq!(exit::code_for(&err), ExitCode::Usage, "{reason:?}");
        assert!(err.to_string().contains("NUL byte"), "{err}");
        assert!(err.to_string().contains("remove it"), "{err}");
    }
}
