//! Hostile reasons (quotes, SQL, escapes) are bound parameters, stored
//! verbatim and never executed.

use super::*;

/// Quotes, semicolons and SQL are just text: stored exactly, never run.
#[test]
fn hostile_reasons_are_stored_verbatim() {
    let db = TestDb::scenarios();
    let reasons = [
        (1, "INC-1 '; DROP TABLE deployments; --"),
        // Tries to close the JSON string and override `operator`.
        (2, "INC-2 \"}, \"operator\": false, \"reason\": {\""),
        (
            3,
            "INC-3 $$ LANGUAGE sql; SELECT pg_sleep(10); $$ \\' \\\\ %s %n {} \\u0000",
        ),
        (
            4,
            // (A newline is the one control character a reason may hold.)
            "INC-4 Robert'); DELETE FROM jobs WHERE ('1'='1 — ünïcode 🚨\nsecond line",
        ),
    ];
    let jobs_before: i64 = db
        .client()
        .query_one("SELECT count(*) FROM jobs", &[])
        .unwrap()
        .get(0);
    for (n, reason) in reasons {
        let run = db.run(&[
            "fail-safely",
            &scenario(n),
            "--reason",
            reason,
            "--yes",
            "-o",
            "json",
        ]);
        run.assert_code(0);
        assert_eq!(run.json()["event"]["payload"]["reason"], reason);
        let row = db
            .client()
            .query_one(
                "SELECT payload FROM deployment_events WHERE deployment_id = $1::text::uuid
                 ORDER BY sequence DESC LIMIT 1",
                &[&scenario(n)],
            )
            .unwrap();
        let payload: serde_json::Value = row.get(0);
        assert_eq!(payload["reason"], reason, "stored verbatim");
        if n == 2 {
            assert_eq!(payload["operator"], true, "the reason cannot forge keys");
        }
    }
    let mut client = db.client();
    let jobs_after: i64 = client
        .query_one("SELECT count(*) FROM jobs", &[])
        .unwrap()
        .get(0);
    assert_eq!(jobs_after, jobs_before);
    let deployments: i64 = client
        .query_one("SELECT count(*) FROM deployments", &[])
        .unwrap()
        .get(0);
    assert_eq!(deployments, 9);
}

/// `--idempotency-key` by the reason's character rules: a raw escape, a
/// newline, a C1 control or an invisible character is exit 2, named, not
/// echoed, and nothing is written.
#[test]
fn an_idempotency_key_with_control_or_invisible_characters_is_refused() {
    let db = TestDb::scenarios();
    let before = db.dump();
    for (key, says) in [
        ("INC-1\u{1b}[2J", "U+001B"),
        ("INC-1\nforged", "U+000A"),
        ("INC-1\u{9b}31m", "U+009B"),
        ("INC-1\u{2060}", "U+2060"),
        ("INC-1\u{202e}", "U+202E"),
    ] {
        let run = db.run(&[
            "fail-safely",
            &scenario(1),
            "--reason",
            "INC-1 a plain reason",
            "--idempotency-key",
            key,
            "--yes",
        ]);
        run.assert_code(2);
        assert!(
            run.stderr.contains("--idempotency-key contains"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(says), "{says}: {}", run.stderr);
        assert!(!run.stderr.contains(key), "echoed raw: {}", run.stderr);
    }
    assert_eq!(db.dump(), before, "nothing was written");
}
