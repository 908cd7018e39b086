//! `fleet list` against the scenario fleet (sql/sandbox/scenarios.sql),
//! with every expected number computed by hand from that file.

use serde_json::Value;

use crate::clock::rebase_to_now;
use crate::support::TestDb;

/// One node as scenarios.sql defines it, with what it hosts:
///
/// allocations in use (reserved or active):
///   edge-07: d0000003's instance (active)
///   edge-01: d0000004's api (reserved) + d0000005's web (active)
///   edge-02: d0000004's worker (reserved) + d0000007's web (active)
///   edge-05: d0000008's api (active)
///   edge-06: d0000005's second web (active)
/// non-removed instances with an active node: d3 on edge-07, d5 on edge-01
/// and edge-06, d7 on edge-02, d8 on edge-05 (d4's two are pending, no node).
/// stale (heartbeat older than 2m): build-03 52m, build-05 2d, edge-05 6m,
/// edge-07 3h12m.
struct Expected {
    name: &'static str,
    pool: &'static str,
    status: &'static str,
    schedulable: bool,
    age: i64,
    stale: bool,
    slots: i64,
    used: i64,
    instances: i64,
}

// One row of the table below, positionally, so the table reads like one.
#[allow(clippy::too_many_arguments)]
const fn node(
    name: &'static str,
    pool: &'static str,
    status: &'static str,
    schedulable: bool,
    age: i64,
    stale: bool,
    slots: i64,
    used: i64,
    instances: i64,
) -> Expected {
    Expected {
        name,
        pool,
        status,
        schedulable,
        age,
        stale,
        slots,
        used,
        instances,
    }
}

const FLEET: [Expected; 12] = [
    node("build-01", "build", "online", true, 4, false, 8, 0, 0),
    node("build-02", "build", "online", true, 11, false, 8, 0, 0),
    node("build-03", "build", "online", true, 52 * 60, true, 8, 0, 0),
    node("build-04", "build", "draining", false, 7, false, 8, 0, 0),
    node(
        "build-05",
        "build",
        "offline",
        false,
        2 * 86_400,
        true,
        8,
        0,
        0,
    ),
    node("edge-01", "edge", "online", true, 3, false, 4, 2, 1),
    node("edge-02", "edge", "online", true, 9, false, 4, 2, 1),
    node("edge-03", "edge", "online", false, 5, false, 4, 0, 0),
    node("edge-04", "edge", "draining", false, 14, false, 4, 0, 0),
    node("edge-05", "edge", "online", true, 6 * 60, true, 4, 1, 1),
    node("edge-06", "edge", "online", true, 2, false, 4, 1, 1),
    node(
        "edge-07",
        "edge",
        "offline",
        true,
        3 * 3600 + 12 * 60,
        true,
        4,
        1,
        1,
    ),
];

fn scenario_db() -> TestDb {
    let db = TestDb::scenarios();
    rebase_to_now(&mut db.client());
    db
}

fn names(doc: &Value) -> Vec<String> {
    doc["nodes"]
        .as_array()
        .expect("nodes is an array")
        .iter()
        .map(|n| n["name"].as_str().expect("a name").to_string())
        .collect()
}

fn list_json(db: &TestDb, extra: &[&str]) -> Value {
    let mut args = vec!["fleet", "list", "--output", "json"];
    args.extend_from_slice(extra);
    db.run(&args).assert_code(0).json()
}

fn rfc3339(value: &Value) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(value.as_str().expect("a timestamp string"))
        .unwrap_or_else(|err| panic!("{value} is not RFC 3339: {err}"))
}

#[test]
fn fleet_list_json_has_the_hand_computed_numbers() {
    let db = scenario_db();
    let doc = list_json(&db, &[]);
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), FLEET.len(), "{doc:#}");
    let at = rfc3339(&doc["snapshot"]["at"]);
    for (got, want) in nodes.iter().zip(FLEET.iter()) {
        let name = want.name;
        assert_eq!(got["name"], want.name, "sorted by pool then name");
        assert_eq!(got["pool"], want.pool, "{name}");
        assert_eq!(got["status"], want.status, "{name}");
        assert_eq!(got["schedulable"], want.schedulable, "{name}");
        assert_eq!(got["stale"], want.stale, "{name}");
        assert_eq!(got["slots"], want.slots, "{name}");
        assert_eq!(got["slots_used"], want.used, "{name}");
        assert_eq!(got["instances"], want.instances, "{name}");
        assert!(got["id"].as_str().unwrap().starts_with("a00000"), "{name}");
        let age = got["heartbeat_age_seconds"].as_i64().unwrap();
        assert!(
            (want.age..want.age + 30).contains(&age),
            "{name}: heartbeat age {age}, expected about {}",
            want.age
        );
        // Every age comes from the one now() the snapshot reports.
        let seen = rfc3339(&got["last_seen_at"]);
        assert_eq!(
            (at - seen).num_seconds(),
            age,
            "{name}: age = snapshot.at - last_seen_at"
        );
    }
    let used: i64 = nodes
        .iter()
        .map(|n| n["slots_used"].as_i64().unwrap())
        .sum();
    let instances: i64 = nodes.iter().map(|n| n["instances"].as_i64().unwrap()).sum();
    assert_eq!((used, instances), (7, 5));
}

#[test]
fn fleet_list_table_shows_the_same_numbers() {
    let db = scenario_db();
    // Every column (-o wide); plain aligned text, cells apart by two or
    // more spaces.
    let run = db.run(&["fleet", "list", "--output", "wide"]);
    run.assert_code(0);
    let rows: Vec<Vec<String>> = run
        .stdout
        .lines()
        .skip(1)
        .map(|line| {
            line.split("  ")
                .map(str::trim)
                .filter(|cell| !cell.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), FLEET.len(), "{}", run.stdout);
    for (row, want) in rows.iter().zip(FLEET.iter()) {
        assert_eq!(row[0], want.name);
        assert_eq!(row[1], want.pool);
        assert_eq!(row[2], want.status);
        assert_eq!(row[3], if want.schedulable { "yes" } else { "no" });
        assert_eq!(
            row[4].contains("STALE"),
            want.stale,
            "{}: {}",
            want.name,
            row[4]
        );
        // row[5] is the heartbeat's absolute time.
        assert_eq!(
            row[6],
            format!("{}/{}", want.used, want.slots),
            "{}",
            want.name
        );
        assert_eq!(row[7], want.instances.to_string(), "{}", want.name);
    }
    assert!(
        run.stderr.contains("12 nodes, 4 stale") && run.stderr.contains("7 of 68 slots in use"),
        "{}",
        run.stderr
    );
}

#[test]
fn fleet_list_filters_by_pool_status_and_staleness() {
    let db = scenario_db();
    let edge: Vec<String> = (1..=7).map(|n| format!("edge-0{n}")).collect();
    assert_eq!(names(&list_json(&db, &["--pool", "edge"])), edge);
    assert_eq!(
        names(&list_json(&db, &["--status", "offline"])),
        ["build-05", "edge-07"]
    );
    assert_eq!(
        names(&list_json(&db, &["--status", "draining"])),
        ["build-04", "edge-04"]
    );
    assert_eq!(
        names(&list_json(&db, &["--stale"])),
        ["build-03", "build-05", "edge-05", "edge-07"]
    );
    assert_eq!(
        names(&list_json(&db, &["--pool", "edge", "--stale"])),
        ["edge-05", "edge-07"]
    );
    // edge-05 (6m) is fresh when stale means 10m.
    let doc = list_json(&db, &["--stale", "--stale-after", "10m"]);
    assert_eq!(names(&doc), ["build-03", "build-05", "edge-07"]);
    assert_eq!(doc["snapshot"]["stale_after_seconds"], 600);
    assert_eq!(
        names(&list_json(
            &db,
            &["--pool", "edge", "--status", "online", "--stale"]
        )),
        ["edge-05"]
    );
    assert!(names(&list_json(&db, &["--pool", "no-such-pool"])).is_empty());
    let run = db.run(&["fleet", "list", "--status", "sleeping"]);
    run.assert_code(2);
}

#[test]
fn fleet_list_counts_follow_releases_and_removals() {
    let db = scenario_db();
    let mut client = db.client();
    // What an accepted teardown result of d0000007 does on edge-02.
    client
        .batch_execute(
            "UPDATE application_instances SET status = 'removed'
              WHERE id = 'c1000071-0000-4000-8000-000000000071';
             UPDATE fleet_allocations SET status = 'released', released_at = now()
              WHERE id = 'c2000071-0000-4000-8000-000000000071';
             -- A never-seen node is stale, with no age.
             INSERT INTO fleet_nodes (id, name, pool, status, schedulable, slots, last_seen_at)
             VALUES ('a0000099-0000-4000-8000-000000000099', 'edge-99', 'edge', 'online', true, 4, NULL);",
        )
        .unwrap();
    let doc = list_json(&db, &["--pool", "edge"]);
    let edge02 = &doc["nodes"][1];
    assert_eq!(edge02["name"], "edge-02");
    assert_eq!(
        (&edge02["slots_used"], &edge02["instances"]),
        (&1.into(), &0.into())
    );
    let never = &doc["nodes"][7];
    assert_eq!(never["name"], "edge-99");
    assert_eq!(never["stale"], true);
    assert!(never["last_seen_at"].is_null() && never["heartbeat_age_seconds"].is_null());
}

/// On tables where, as in production, most allocations are released and
/// most instances removed, the counts read only what is in use, through the
/// partial indexes, in one pass each (no loop per node).
#[test]
fn fleet_list_is_index_backed_on_a_large_fleet() {
    let db = TestDb::empty();
    let mut client = db.client();
    client
        .batch_execute(
            "INSERT INTO fleet_nodes (id, name, pool, status, schedulable, slots, last_seen_at)
             SELECT gen_random_uuid(), 'n-' || lpad(g::text, 5, '0'), 'pool-' || g % 5,
                    'online', true, 200, now()
             FROM generate_series(1, 2000) g;
             CREATE TEMP TABLE numbered AS
                 SELECT id, row_number() OVER (ORDER BY name) - 1 AS rn FROM fleet_nodes;
             INSERT INTO deployments (id, org_id, status)
             VALUES ('d9999999-0000-4000-8000-000000000000', gen_random_uuid(), 'running');
             -- 200,000 allocations, 100 per node; one in ten is in use.
             INSERT INTO fleet_allocations (id, node_id, resource_kind, resource_id, status)
             SELECT gen_random_uuid(), n.id, 'application_instance', gen_random_uuid(),
                    CASE g % 20 WHEN 0 THEN 'active' WHEN 1 THEN 'reserved' ELSE 'released' END
             FROM generate_series(0, 199999) g JOIN numbered n ON n.rn = g % 2000;
             -- 20,000 instances, nine in ten removed.
             INSERT INTO application_instances (id, deployment_id, role_name, status, active_node_id)
             SELECT gen_random_uuid(), 'd9999999-0000-4000-8000-000000000000', 'web',
                    CASE WHEN g % 10 = 0 THEN 'running' ELSE 'removed' END, n.id
             FROM generate_series(0, 19999) g JOIN numbered n ON n.rn = g % 2000;
             ANALYZE;",
        )
        .unwrap();
    // As the tool runs it: rendered for the schema.
    let query = pushleft_controller::db::sql::fleet::LIST
        .sql(&pushleft_controller::db::sql::Schema::public());
    let plan: String = client
        .query(
            &format!("EXPLAIN {query}"),
            &[
                &None::<String>,
                &None::<String>,
                &false,
                &120_000_i64,
                &"public",
            ],
        )
        .expect("EXPLAIN of sql/fleet/list.sql")
        .iter()
        .map(|row| row.get::<_, String>(0))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(plan.contains("fleet_allocations_node_in_use"), "{plan}");
    assert!(
        plan.contains("HashAggregate") || plan.contains("GroupAggregate"),
        "{plan}"
    );
    assert!(plan.contains("application_instances_active_node"), "{plan}");
    assert!(!plan.contains("Seq Scan on fleet_allocations"), "{plan}");
    assert!(
        !plan.contains("Seq Scan on application_instances"),
        "{plan}"
    );

    let started = std::time::Instant::now();
    let doc = list_json(&db, &[]);
    let elapsed = started.elapsed();
    let nodes = doc["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 2000);
    let used: i64 = nodes
        .iter()
        .map(|n| n["slots_used"].as_i64().unwrap())
        .sum();
    let instances: i64 = nodes.iter().map(|n| n["instances"].as_i64().unwrap()).sum();
    assert_eq!((used, instances), (20_000, 2_000));
    // n-00001 (row 0) holds allocations g = 0, 2000, 4000, ...: all with
    // g % 20 = 0, active; n-00002 all reserved; n-00003 and n-00011 all
    // released. Every tenth row hosts 10 running instances, the others only
    // removed ones.
    let by_name = |name: &str| {
        nodes
            .iter()
            .find(|n| n["name"] == name)
            .unwrap_or_else(|| panic!("{name} is listed"))
    };
    for (name, used, hosted) in [
        ("n-00001", 100, 10),
        ("n-00002", 100, 0),
        ("n-00003", 0, 0),
        ("n-00011", 0, 10),
    ] {
        assert_eq!(by_name(name)["slots_used"], used, "{name}");
        assert_eq!(by_name(name)["instances"], hosted, "{name}");
    }
    eprintln!("fleet list over 2000 nodes and 200k allocations: {elapsed:?}");
}
