//! What a huge deployment looks like on the screen: sections and plans are
//! summarised past a limit, and one huge piece of database text is cut
//! with a note, while JSON carries everything whole.

use crate::support::{TestDb, scenario};

/// Deployment 1 (queued, stuck, never dispatched) with `n` jobs targeted
/// at build-01: dispatched, so the plan is a teardown with `n` items of
/// evidence.
fn many_targeted_jobs(db: &TestDb, n: u32) {
    db.client()
        .batch_execute(&format!(
            "INSERT INTO jobs (id, deployment_id, kind, status, target_node_id, attempt,
                               max_attempts, available_at, payload, created_at, updated_at)
             SELECT gen_random_uuid(), '{}', 'build', 'queued',
                    'a0000001-0000-4000-8000-000000000001', 0, 3, now(), '{{}}',
                    now() - interval '1 hour', now() - interval '1 hour'
             FROM generate_series(1, {n})",
            scenario(1)
        ))
        .unwrap();
}

#[test]
fn ten_thousand_jobs_fit_in_a_couple_of_screens() {
    let db = TestDb::scenarios();
    many_targeted_jobs(&db, 10_000);
    let plan = db.run(&[
        "fail-safely",
        &scenario(1),
        "--reason",
        "INC-22 ten thousand jobs",
        "--dry-run",
        "-o",
        "table",
    ]);
    plan.assert_code(0);
    let lines = plan.stdout.lines().count() + plan.stderr.lines().count();
    assert!(
        lines <= 200,
        "{lines} lines:\n{}{}",
        plan.stdout,
        plan.stderr
    );
    assert!(
        (plan.stdout.clone() + &plan.stderr).contains("more dispatched items"),
        "{}",
        plan.stdout
    );
    let diagnosis = db.run(&["diagnose", &scenario(1), "-o", "table"]);
    diagnosis.assert_code(0);
    let lines = diagnosis.stdout.lines().count();
    assert!(lines <= 200, "{lines} lines:\n{}", diagnosis.stdout);
    assert!(
        diagnosis
            .stdout
            .contains("more rows; --output json lists them all")
    );
    let json = db.run(&["diagnose", &scenario(1), "-o", "json"]).json();
    assert_eq!(json["jobs"].as_array().unwrap().len(), 10_001);
}

/// The value is read cut (pushleft-controller-diagnose(1), HUGE TEXT): the screen and JSON say
/// so with its whole length, and `--full-text` has it whole (once JSON
/// did, which took three times the value in memory).
#[test]
fn a_huge_last_error_is_cut_on_the_screen_and_in_json_and_whole_in_full_text() {
    let db = TestDb::scenarios();
    let size = 5_000_000;
    db.client()
        .batch_execute(&format!(
            "UPDATE jobs SET payload = jsonb_build_object('last_error', repeat('e', {size}))
             WHERE deployment_id = '{}'",
            scenario(1)
        ))
        .unwrap();
    let table = db.run(&["diagnose", &scenario(1), "-o", "wide"]);
    table.assert_code(0);
    assert!(table.stdout.len() < 100_000, "{} bytes", table.stdout.len());
    assert!(
        table
            .stdout
            .contains("cut: 5,000,000 bytes in all; diagnose --full-text shows it)"),
        "{}",
        table.stdout
    );
    let json = db.run(&["diagnose", &scenario(1), "-o", "json"]).json();
    let job = &json["jobs"][0];
    assert_eq!(job["last_error"].as_str().unwrap().len(), 4096);
    assert_eq!(job["last_error_length"], size);
    assert_eq!(job["last_error_cut"], true);
    let full = db.run(&["diagnose", &scenario(1), "--full-text"]);
    full.assert_code(0);
    let whole = full
        .stdout
        .lines()
        .skip_while(|l| !l.contains("last_error, 5,000,000 bytes"))
        .nth(1)
        .unwrap_or_default();
    assert_eq!(whole.trim_start().len(), size);
}
