//! `sandbox -- CMD` runs CMD against a fresh sandbox and passes its status
//! through, leaving nothing behind.

use crate::support::{bin, in_sandbox};

#[test]
fn sandbox_runs_the_command_against_the_scenarios_and_passes_its_status() {
    let run = bin()
        .args([
            "sandbox",
            "--",
            "sh",
            "-c",
            "echo \"$DATABASE_URL\" > \"$1\"; test -n \"$PGHOST\" && exit 3",
            "sh",
        ])
        .arg(std::env::temp_dir().join(format!("pushleft-sandbox-url-{}", std::process::id())))
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("queued-never-dispatched"),
        "the scenario table: {stderr}"
    );
    let url_file =
        std::env::temp_dir().join(format!("pushleft-sandbox-url-{}", std::process::id()));
    let url = std::fs::read_to_string(&url_file).unwrap();
    std::fs::remove_file(&url_file).unwrap();
    // The cluster directory named in the URL is gone once sandbox returns.
    let dir = url
        .split("host=")
        .nth(1)
        .and_then(|rest| rest.split('&').next())
        .unwrap()
        .to_string();
    assert!(dir.contains("pushleft-pg-"), "{url}");
    assert!(
        !std::path::Path::new(&dir).exists(),
        "{dir} was left behind"
    );
}

#[test]
fn sandbox_database_has_every_scenario() {
    let run = bin()
        .args([
            "sandbox",
            "--",
            "sh",
            "-c",
            "psql -X -At -c \"select status || '=' || count(*) from deployments group by status order by 1\"",
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    for expected in [
        "building=1",
        "deploying=2",
        "destroyed=1",
        "failed=1",
        "queued=2",
        "running=1",
        "teardown_queued=1",
    ] {
        assert!(stdout.contains(expected), "{expected} in {stdout}");
    }
}

#[test]
fn sandbox_reports_a_command_that_does_not_exist() {
    let run = bin()
        .args(["sandbox", "--", "/nonexistent/definitely-not-a-command"])
        .output()
        .unwrap();
    // As a shell: 127 for a command that does not exist.
    assert_eq!(run.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&run.stderr).contains("could not run"));
}

#[test]
fn sandbox_keep_leaves_it_running_and_says_how_to_stop_it() {
    let run = bin().args(["sandbox", "--keep"]).output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    let url = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("export DATABASE_URL='"))
        .and_then(|rest| rest.strip_suffix('\''))
        .unwrap_or_else(|| panic!("no DATABASE_URL line: {stderr}"))
        .to_string();
    let stop = stderr
        .lines()
        .skip_while(|l| !l.starts_with("Stop it"))
        .nth(1)
        .unwrap_or_else(|| panic!("no stop command: {stderr}"))
        .trim()
        .to_string();
    // Still running after sandbox returned: diagnose works against it.
    let diagnose = bin()
        .env("DATABASE_URL", &url)
        .args(["diagnose", "d0000001", "-o", "json"])
        .output()
        .unwrap();
    assert!(
        diagnose.status.success(),
        "{}",
        String::from_utf8_lossy(&diagnose.stderr)
    );
    // The printed command stops it and deletes its files.
    let dir = url
        .split("host=")
        .nth(1)
        .and_then(|rest| rest.split('&').next())
        .unwrap()
        .to_string();
    assert!(std::path::Path::new(&dir).exists());
    let stopped = std::process::Command::new("sh")
        .args(["-c", &stop])
        .output()
        .unwrap();
    assert!(
        stopped.status.success(),
        "{stop}: {}",
        String::from_utf8_lossy(&stopped.stderr)
    );
    assert!(!std::path::Path::new(&dir).exists(), "{dir} is gone");
}

/// Live nodes keep heartbeating in a plain sandbox, so the scenarios stay
/// as described however long a newcomer explores; dead ones stay dead.
/// (A 2-second staleness threshold after 3 seconds stands in for the
/// default 2 minutes after a coffee.)
#[test]
fn a_plain_sandbox_keeps_its_live_nodes_fresh() {
    let run = bin()
        .args([
            "sandbox",
            "--",
            "sh",
            "-c",
            "sleep 3; exec pushleft-controller fleet list --stale-after 2s --output json",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let fleet: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let stale: Vec<&str> = fleet["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["stale"] == true)
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    // Dead at the start (minutes to days without a heartbeat), and only those.
    assert_eq!(
        stale,
        ["build-03", "build-05", "edge-05", "edge-07"],
        "{fleet:#}"
    );
}

/// The README's "A big incident" walkthrough, command by command, in
/// `sandbox --big-incident`.
const BIG_INCIDENT: &str = r#"
set -e
dir="$1"
pushleft-controller stuck --group-by node --output json > "$dir/groups.json"
pushleft-controller stuck --node edge-07 --output json > "$dir/edge-07.json"
pushleft-controller fail-safely --from "$dir/edge-07.json" --reason "INC-7 edge-07 died" \
    --yes --output json > "$dir/batch.json"
code=0
pushleft-controller wait e0000001 --wait-for-node --timeout 2s --output json > "$dir/wait.json" || code=$?
[ "$code" = 6 ] || exit 20
code=0
pushleft-controller wait e0000001 --output json > "$dir/blocked.json" || code=$?
[ "$code" = 7 ] || exit 21
pushleft-controller history --reason-contains inc-7 --output json > "$dir/history.json"
"#;

#[test]
fn the_big_incident_walkthrough_works_as_the_readme_says() {
    let script = in_sandbox(&["--big-incident"], BIG_INCIDENT);
    let read = |name: &str| script.json(name);
    let groups = read("groups.json");
    assert_eq!(groups["groups"][0]["key"], "edge-07");
    assert_eq!(groups["groups"][0]["count"], 41, "40 stranded and d0000003");
    let batch = read("batch.json");
    assert_eq!(batch["summary"]["applied"], 41, "{batch:#}");
    let waited = read("wait.json");
    assert_eq!(waited["timed_out"], true);
    assert!(
        waited["blocked"].to_string().contains("edge-07"),
        "the teardown waits for edge-07: {waited:#}"
    );
    assert_eq!(read("blocked.json")["state"], "blocked_on_dead_node");
    let history = read("history.json");
    assert_eq!(history["actions"].as_array().map(Vec::len), Some(41));
}

/// The README's tour in a plain sandbox that has aged past the stale
/// threshold (3 seconds against a 2-second --stale-after standing in for
/// minutes against the default 2m): the outcomes the README promises.
const TOUR: &str = r#"
set -e
dir="$1"
sleep 3
pushleft-controller stuck --output json > "$dir/stuck.json"
pushleft-controller diagnose d0000002 --stale-after 2s --output json > "$dir/d2.json"
pushleft-controller diagnose d0000005 --stale-after 2s --output json > "$dir/d5.json"
pushleft-controller fail-safely d0000002 --reason "INC-4712 orphaned build lease" --dry-run --output json > "$dir/dry.json"
pushleft-controller fail-safely d0000002 --reason "INC-4712 orphaned build lease" --yes --output json > "$dir/applied.json"
pushleft-controller fleet list --stale-after 2s --output json > "$dir/fleet.json"
pushleft-controller doctor --output json > "$dir/doctor.json"
pushleft-controller history --output json > "$dir/history.json"
pushleft-controller stuck --group-by node --output json > "$dir/groups.json"
"#;

#[test]
fn the_readme_tour_holds_in_a_sandbox_past_the_stale_threshold() {
    let script = in_sandbox(&[], TOUR);
    let read = |name: &str| script.json(name);
    let stuck = read("stuck.json");
    assert_eq!(stuck["deployments_stuck"].as_array().map(Vec::len), Some(5));
    assert_eq!(stuck["leases_orphaned"].as_array().map(Vec::len), Some(1));
    assert_eq!(read("d2.json")["verdict"]["path"], "teardown_requested");
    // The healthy deployment still looks healthy: its nodes heartbeat.
    let d5 = read("d5.json");
    assert!(
        d5["verdict"]["headline"]
            .as_str()
            .is_some_and(|h| h.starts_with("not stuck: running")),
        "{d5:#}"
    );
    let problems: Vec<&serde_json::Value> = d5["verdict"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "problem")
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(read("dry.json")["dry_run"], true);
    assert_eq!(read("applied.json")["new_status"], "teardown_queued");
    let stale: Vec<String> = read("fleet.json")["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["stale"] == true)
        .map(|n| n["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stale, ["build-03", "build-05", "edge-05", "edge-07"]);
    assert_eq!(read("doctor.json")["ok"], true);
    assert_eq!(
        read("history.json")["actions"][0]["reason"],
        "INC-4712 orphaned build lease"
    );
    assert_eq!(read("groups.json")["groups"][0]["key"], "(none)");
}

/// The README's script for a ticket ("For a script pasted into a
/// ticket"), as the README prints it.
fn ticket_script() -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("reading the README");
    let from = readme
        .find("For a script pasted into a ticket:")
        .expect("the ticket script");
    let block = &readme[from..];
    let start = block.find("```sh\n").expect("its sh block") + "```sh\n".len();
    let end = block[start..].find("```").expect("the block's end");
    block[start..start + end].to_string()
}

#[test]
fn the_readme_ticket_script_can_be_run_twice() {
    let script = ticket_script();
    assert!(script.contains("--expect-fingerprint"), "{script}");
    let twice = format!(
        "set -e\ndir=\"$1\"\nD=d0000002\nTICKET=INC-4712\nWHY='orphaned build lease'\n\
         {{\n{script}}} > \"$dir/first.json\"\n{{\n{script}}} > \"$dir/second.json\"\n"
    );
    let ran = in_sandbox(&[], &twice);
    let documents = |name: &str| -> Vec<serde_json::Value> {
        let text = ran.text(name);
        serde_json::Deserializer::from_str(&text)
            .into_iter::<serde_json::Value>()
            .map(|doc| doc.expect("a JSON document"))
            .collect()
    };
    let (first, second) = (documents("first.json"), documents("second.json"));
    assert_eq!(first.len(), 2, "fail-safely, then wait: {first:#?}");
    assert_eq!(first[0]["replayed"], false);
    assert_eq!(first[0]["new_status"], "teardown_queued");
    assert_eq!(first[1]["verified"], true, "{:#}", first[1]);
    // The second run reports the first one's write, and writes nothing.
    assert_eq!(second[0]["replayed"], true, "{:#}", second[0]);
    assert_eq!(second[0]["event"]["id"], first[0]["event"]["id"]);
    assert_eq!(second[1]["verified"], true);
}
