//! The alert rules the README and the stuck man page give (README,
//! "Monitoring") are one text, pass `promtool check rules`, and fire as
//! they say: the stuck alert keeps firing while the scan fails (the file
//! keeps the last good scan's series), and a scan that stopped or failed
//! pages on its own.

use std::path::PathBuf;
use std::process::Command;

use pushleft_controller::docs::manpages::ALERT_RULES;

/// promtool (Debian's `prometheus` package; .ci/run unpacks it), or
/// `None` with SKIPPED said.
fn promtool() -> Option<PathBuf> {
    let named = std::env::var_os("PUSHLEFT_PROMTOOL").map(PathBuf::from);
    let candidates = named.into_iter().chain([
        PathBuf::from("promtool"),
        PathBuf::from("/opt/pushleft-promtool/usr/bin/promtool"),
    ]);
    for candidate in candidates {
        if Command::new(&candidate)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(candidate);
        }
    }
    eprintln!("SKIPPED: promtool is missing (Debian's prometheus package; .ci/run unpacks it)");
    None
}

#[test]
fn the_man_page_gives_the_rules_and_the_readme_points_there() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("reading the README");
    assert!(readme.contains("`man pushleft-controller-stuck`, MONITORING and\nALERTING"));
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/man/pushleft-controller-stuck.1"
    ))
    .expect("the stuck man page");
    assert!(page.contains(".SH ALERTING"), "run `cargo run -- generate`");
    for line in ALERT_RULES.lines().filter(|l| l.contains("alert: ")) {
        assert!(page.contains(line.trim()), "{line} on the page");
    }
}

/// Two hours of series, one sample a minute: 2 deployments stuck all
/// along; the scan succeeds for 20 minutes, then fails (the file keeps the
/// last good scan's series and the last success stops moving).
const FAILING_SCAN: &str = r#"
rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'pushleft_deployments_stuck{status="queued",path="operator_failed"}'
        values: '2x120'
      - series: 'pushleft_leases_orphaned{kind="build"}'
        values: '0x120'
      - series: 'pushleft_scan_success'
        values: '1x20 0x100'
      - series: 'pushleft_last_success_timestamp_seconds'
        values: '0+60x20 1200x100'
    alert_rule_test:
      - eval_time: 10m
        alertname: PushleftScanFailing
        exp_alerts: []
      - eval_time: 60m
        alertname: DeploymentStuck
        exp_alerts:
          - exp_labels: {severity: page}
            exp_annotations:
              summary: "2 deployments stuck: run `pushleft-controller stuck`, then diagnose each"
      - eval_time: 60m
        alertname: PushleftScanFailing
        exp_alerts:
          - exp_labels: {severity: page}
            exp_annotations:
              summary: "the stuck scan cannot read the control plane's database (the counts above are the last good scan's): run `pushleft-controller doctor`"
      - eval_time: 60m
        alertname: PushleftScanStale
        exp_alerts:
          - exp_labels: {severity: page}
            exp_annotations:
              summary: "no successful stuck scan for 15 minutes: the cron job, the file or the database is down"
      - eval_time: 60m
        alertname: JobLeaseOrphaned
        exp_alerts: []
"#;

#[test]
fn the_rules_pass_promtool_and_page_while_the_scan_fails() {
    let Some(promtool) = promtool() else { return };
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("rules.yml"), ALERT_RULES).expect("writing the rules");
    std::fs::write(dir.path().join("test.yml"), FAILING_SCAN).expect("writing the test");
    let check = Command::new(&promtool)
        .args(["check", "rules", "rules.yml"])
        .current_dir(dir.path())
        .output()
        .expect("running promtool");
    assert!(
        check.status.success(),
        "promtool check rules: {}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let test = Command::new(&promtool)
        .args(["test", "rules", "test.yml"])
        .current_dir(dir.path())
        .output()
        .expect("running promtool");
    assert!(
        test.status.success(),
        "promtool test rules: {}{}",
        String::from_utf8_lossy(&test.stdout),
        String::from_utf8_lossy(&test.stderr)
    );
}
