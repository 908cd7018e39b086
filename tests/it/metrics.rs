//! `stuck -o openmetrics` and `stuck --write FILE`: parsed by a real
//! OpenMetrics parser (the Prometheus project's Python client, which CI
//! installs), written atomically, and still written when the scan fails.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use crate::support::{TestDb, bin};

/// Parses with prometheus_client's strict OpenMetrics parser; returns
/// `name{labels} -> value`, or None when python3 or the parser is missing.
fn parse(text: &str) -> Option<BTreeMap<String, f64>> {
    const PARSER: &str = "
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
out = {}
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        labels = ','.join(f'{k}={v}' for k, v in sorted(s.labels.items()))
        out[f'{s.name}{{{labels}}}'] = s.value
print(json.dumps(out))
";
    let probe = Command::new("python3")
        .args(["-c", "import prometheus_client"])
        .output()
        .ok()?;
    if !probe.status.success() {
        eprintln!(
            "SKIPPED: the OpenMetrics parser is missing (pip install prometheus-client; .ci/run does)"
        );
        return None;
    }
    let mut child = Command::new("python3")
        .args(["-c", PARSER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("writing to the parser");
    let out = child.wait_with_output().expect("the parser");
    assert!(
        out.status.success(),
        "not valid OpenMetrics: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("the parser's JSON"))
}

#[test]
fn stuck_metrics_parse_and_count_the_scenarios() {
    let db = TestDb::scenarios();
    let run = db.run(&["stuck", "--output", "openmetrics"]);
    run.assert_code(0);
    assert!(run.stdout.ends_with("# EOF\n"), "{}", run.stdout);
    let Some(metrics) = parse(&run.stdout) else {
        return;
    };
    let get = |key: &str| {
        *metrics
            .get(key)
            .unwrap_or_else(|| panic!("{key} in {metrics:#?}"))
    };
    assert_eq!(
        get("pushleft_deployments_stuck{path=operator_failed,status=queued}"),
        2.0
    );
    assert_eq!(
        get("pushleft_deployments_stuck{path=teardown_requested,status=deploying}"),
        2.0
    );
    assert_eq!(
        get("pushleft_deployments_stuck{path=teardown_requested,status=building}"),
        1.0
    );
    // Always present, zero included: an absent series cannot fire.
    assert_eq!(
        get("pushleft_deployments_stuck{path=operator_failed,status=deploying}"),
        0.0
    );
    assert_eq!(get("pushleft_leases_orphaned{kind=build}"), 1.0);
    assert_eq!(get("pushleft_leases_orphaned{kind=teardown}"), 0.0);
    assert_eq!(get("pushleft_nodes{stale=true,status=offline}"), 2.0);
    assert_eq!(get("pushleft_scan_success{}"), 1.0);
    assert!(get("pushleft_oldest_stuck_seconds{}") >= 11_700.0);
    assert!(get("pushleft_last_success_timestamp_seconds{}") > 1.7e9);
}

#[test]
fn write_replaces_the_file_atomically_under_a_reader() {
    let db = TestDb::scenarios();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pushleft.prom");
    db.run(&["stuck", "--write", path.to_str().unwrap()])
        .assert_code(0);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (path, stop) = (path.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut reads = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let text = std::fs::read_to_string(&path).expect("the file is always there");
                assert!(
                    text.starts_with("# TYPE") && text.ends_with("# EOF\n"),
                    "a half-written file: {text:?}"
                );
                reads += 1;
            }
            reads
        })
    };
    for _ in 0..100 {
        db.run(&["stuck", "--write", path.to_str().unwrap()])
            .assert_code(0);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let reads = reader.join().expect("the reader saw only whole files");
    assert!(reads > 100, "the reader ran alongside: {reads} reads");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left: {leftovers:?}");
}

#[test]
fn a_failed_scan_still_writes_metrics_that_say_so() {
    let db = TestDb::scenarios();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pushleft.prom");
    let file = path.to_str().unwrap();
    db.run(&["stuck", "--write", file]).assert_code(0);
    let good = std::fs::read_to_string(&path).unwrap();
    let last_success = good
        .lines()
        .find(|l| l.starts_with("pushleft_last_success_timestamp_seconds "))
        .expect("a last success")
        .to_string();
    // Nothing listens there: the scan fails.
    let run = bin()
        .env(
            "DATABASE_URL",
            "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2",
        )
        .args(["stuck", "--write", file])
        .output()
        .unwrap();
    assert_ne!(run.status.code(), Some(0));
    let failed = std::fs::read_to_string(&path).unwrap();
    assert!(failed.contains("pushleft_scan_success 0\n"), "{failed}");
    assert!(
        failed.contains(&last_success),
        "keeps the last success: {failed}"
    );
    // An alert on the stuck series cannot go quiet because the database
    // cannot be read: the last good scan's series stay, line for line.
    let series = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.contains("pushleft_scan_") && !l.contains("pushleft_last_success"))
            .filter(|l| *l != "# EOF")
            .map(str::to_string)
            .collect()
    };
    assert!(good.contains("pushleft_deployments_stuck{"), "{good}");
    assert_eq!(series(&failed), series(&good));
    if let (Some(before), Some(metrics)) = (parse(&good), parse(&failed)) {
        assert_eq!(metrics["pushleft_scan_success{}"], 0.0);
        for (name, value) in &before {
            if name.starts_with("pushleft_deployments_stuck") || name.starts_with("pushleft_leases")
            {
                assert_eq!(metrics.get(name), Some(value), "{name}");
            }
        }
    }
}

#[test]
fn openmetrics_is_only_for_stuck() {
    let db = TestDb::scenarios();
    let run = db.run(&["fleet", "list", "--output", "openmetrics"]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("openmetrics is for `stuck`"),
        "{}",
        run.stderr
    );
}
