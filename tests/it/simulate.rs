//! `sandbox --simulate`: the reference control plane runs while the command
//! does, so a requested teardown completes (or hangs on a dead node) and
//! `fleet list` shows capacity drop.

use crate::support::{bin, in_sandbox};

/// The runbook's teardown_requested for d0000005 (instances on edge-01 and
/// edge-06, both alive) and d0000003 (instance on edge-07, dead).
const REQUEST_TEARDOWNS: &str = "
BEGIN;
UPDATE deployments SET status = 'teardown_queued', updated_at = now()
 WHERE id IN ('d0000005-0000-4000-8000-000000000005', 'd0000003-0000-4000-8000-000000000003');
INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload)
SELECT max(e.sequence) + 1, gen_random_uuid(), d.org_id, d.id, 'teardown_requested',
       '{\"operator\": true, \"reason\": \"simulate test\"}'
  FROM deployments d JOIN deployment_events e ON e.deployment_id = d.id
 WHERE d.id IN ('d0000005-0000-4000-8000-000000000005', 'd0000003-0000-4000-8000-000000000003')
 GROUP BY d.id, d.org_id;
COMMIT;
";

/// Waits (up to 30s) for d0000005 to be destroyed, then records the fleet
/// and the deployments.
const SCRIPT: &str = r#"
set -e
B="$1"; dir="$2"
psql -X -q -v ON_ERROR_STOP=1 -f "$dir/request.sql"
i=0
until [ "$(psql -X -At -c "select status from deployments where id = 'd0000005-0000-4000-8000-000000000005'")" = destroyed ]; do
    i=$((i + 1)); [ $i -lt 60 ] || exit 7
    sleep 0.5
done
sleep 2
# The sandbox puts this very binary first on PATH.
[ "$(command -v pushleft-controller)" = "$B" ] || exit 8
pushleft-controller fleet list --output json > "$dir/fleet.json"
psql -X -At -c "select substr(id::text, 1, 8) || '=' || status from deployments order by id" > "$dir/deployments.txt"
"#;

#[test]
fn sandbox_simulate_completes_teardowns_on_live_nodes_and_waits_for_dead_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("request.sql"), REQUEST_TEARDOWNS).unwrap();
    let run = bin()
        .args(["sandbox", "--simulate", "--", "sh", "-c", SCRIPT, "sh"])
        .arg(env!("CARGO_BIN_EXE_pushleft-controller"))
        .arg(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("Simulating the control plane"), "{stderr}");

    let deployments = std::fs::read_to_string(dir.path().join("deployments.txt")).unwrap();
    for expected in [
        "d0000003=teardown_queued", // its teardown job waits for edge-07
        "d0000005=destroyed",
        "d0000007=destroyed", // its leased teardown on edge-02 finished
        "d0000001=queued",    // the scheduler stays paused
        "d0000004=queued",
    ] {
        assert!(
            deployments.contains(expected),
            "{expected} in {deployments}"
        );
    }

    let fleet: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("fleet.json")).unwrap()).unwrap();
    let node = |name: &str| {
        fleet["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {fleet:#}"))
            .clone()
    };
    // Before: edge-01 2, edge-02 2, edge-06 1, edge-07 1 slots in use.
    for (name, used, instances) in [
        ("edge-01", 1, 0), // d5's web released; d4's reservation stays
        ("edge-02", 1, 0), // d7's web released; d4's reservation stays
        ("edge-06", 0, 0), // d5's second web released
        ("edge-07", 1, 1), // dead: d3's instance and allocation stay
    ] {
        let n = node(name);
        assert_eq!(n["slots_used"], used, "{name}: {n}");
        assert_eq!(n["instances"], instances, "{name}: {n}");
    }
    // Live nodes heartbeat; dead and stale ones do not.
    assert!(node("build-01")["heartbeat_age_seconds"].as_i64().unwrap() < 4);
    assert_eq!(node("build-01")["stale"], false);
    assert_eq!(node("edge-07")["stale"], true);
    assert_eq!(node("edge-05")["stale"], true);
}

#[test]
fn sandbox_simulate_and_keep_exclude_each_other() {
    let run = bin()
        .args(["sandbox", "--simulate", "--keep"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
}

/// The tour under --simulate: d0000007's teardown is still under way right
/// after the start and completes while `wait` watches; once every stuck
/// deployment is handled with fail-safely (and the reclaimer took the
/// orphaned lease back), `stuck --exit-code` clears.
const TOUR: &str = r#"
set -e
dir="$1"
# After the first round (1s): an instant agent would have finished already.
sleep 1.5
pushleft-controller diagnose d0000007 --output json > "$dir/d7-start.json"
pushleft-controller wait d0000007 --timeout 30s --output json > "$dir/d7-wait.json"
for d in d0000001 d0000002 d0000003 d0000004 d0000008; do
    pushleft-controller fail-safely "$d" --reason "INC-9 simulate tour" --yes --output json > /dev/null
done
i=0
until pushleft-controller stuck --exit-code --output json > "$dir/stuck.json"; do
    i=$((i + 1)); [ $i -lt 20 ] || exit 9
    sleep 0.5
done
"#;

#[test]
fn sandbox_simulate_shows_a_teardown_complete_and_stuck_clears_once_handled() {
    let script = in_sandbox(&["--simulate"], TOUR);
    let read = |name: &str| script.json(name);
    let start = read("d7-start.json");
    assert_eq!(
        start["deployment"]["status"], "teardown_queued",
        "{start:#}"
    );
    let waited = read("d7-wait.json");
    assert_eq!(waited["verified"], true, "{waited:#}");
    assert_eq!(waited["status"], "destroyed");
    let stuck = read("stuck.json");
    assert_eq!(
        stuck["deployments_stuck"],
        serde_json::json!([]),
        "{stuck:#}"
    );
    assert_eq!(stuck["leases_orphaned"], serde_json::json!([]), "{stuck:#}");
}
