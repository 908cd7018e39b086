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
