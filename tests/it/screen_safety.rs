//! The database's bytes never drive the terminal. Escape sequences (a
//! screen clear, an OSC window title), BEL, CR and newlines, control
//! characters next to NUL (which PostgreSQL cannot store), C1 controls and
//! bidi overrides are planted in every database text the tool prints: a
//! job's error, an event's kind and payload, a node's name and pool, the
//! operator's reason, a route's hostname, an instance's role, a network
//! segment, an artifact's image. In table mode none of them reaches stdout
//! or stderr as itself; JSON carries them exactly.

use serde_json::Value;

use crate::support::{Run, TestDb, scenario};

/// What an agent (a less trusted party) could write.
const PLANTED: &str =
    "<\u{1b}[2J\u{1b}]0;pwned\u{7}|\r\nX\u{1}\u{7f}\u{9b}31m|\u{202e}evil\u{2066}|\u{200b}>";

/// Characters that must never reach a terminal as themselves.
const FORBIDDEN: &[char] = &[
    '\u{1b}', '\u{7}', '\r', '\u{1}', '\u{7f}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200b}',
];

fn plant(db: &TestDb) {
    let d3 = scenario(3);
    let d4 = scenario(4);
    let statements = [
        // A job's error (d0000003's deploy job).
        "UPDATE jobs SET payload = jsonb_set(payload, '{last_error}', to_jsonb($1::text))
          WHERE id = 'b0000032-0000-4000-8000-000000000032'",
        // An event, its kind and its payload.
        &format!(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload)
             SELECT max(sequence) + 1, gen_random_uuid(), 'c0000002-0000-4000-8000-000000000002',
                    '{d3}', 'note' || $1, jsonb_build_object('message', $1)
               FROM deployment_events WHERE deployment_id = '{d3}'"
        ),
        // A node's name and pool (edge-07: the dead node a teardown waits for).
        "UPDATE fleet_nodes SET name = 'edge-07' || $1, pool = 'edge' || $1 WHERE name = 'edge-07'",
        // A route's hostname, an instance's role, an artifact's image.
        &format!(
            "UPDATE ingress_analytics_routes SET hostname = 'shop' || $1 WHERE deployment_id = '{d3}'"
        ),
        &format!(
            "UPDATE application_instances SET role_name = 'web' || $1 WHERE deployment_id = '{d3}'"
        ),
        &format!("UPDATE release_artifacts SET image = 'img' || $1 WHERE deployment_id = '{d3}'"),
        // A network segment (d0000004).
        &format!(
            "UPDATE network_attachments SET segment = 'seg' || $1 WHERE deployment_id = '{d4}'"
        ),
    ];
    let mut client = db.client();
    for sql in statements {
        client
            .execute(sql, &[&PLANTED])
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

#[track_caller]
fn assert_screen_safe(label: &str, run: &Run) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        let raw: Vec<char> = text.chars().filter(|c| FORBIDDEN.contains(c)).collect();
        assert!(
            raw.is_empty(),
            "{label}: {stream} carries {raw:?} raw:\n{text:?}"
        );
    }
}

fn table(db: &TestDb, args: &[&str]) -> Run {
    let mut args = args.to_vec();
    args.extend(["-o", "table", "--color", "never"]);
    db.run(&args)
}

fn json(db: &TestDb, args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.extend(["-o", "json"]);
    db.run(&args).json()
}

#[test]
fn no_planted_byte_reaches_the_terminal_and_json_keeps_them_exact() {
    let db = TestDb::scenarios();
    plant(&db);
    let reason = format!("INC-4711 {PLANTED}");
    let d3 = scenario(3);

    // Table mode: everything that shows database text.
    let diagnose = table(&db, &["diagnose", "d0000003"]);
    diagnose.assert_code(0);
    assert_screen_safe("diagnose d0000003", &diagnose);
    // The text is there, made visible, on one line.
    assert!(
        diagnose.stdout.contains("\\u{1b}[2J"),
        "{}",
        diagnose.stdout
    );
    assert!(diagnose.stdout.contains("\\r\\n"), "{}", diagnose.stdout);
    assert!(
        diagnose.stdout.contains("\\u{202e}evil"),
        "{}",
        diagnose.stdout
    );
    for args in [
        &["diagnose", "d0000004"][..],
        &["stuck"],
        &["fleet", "list"],
        &["fleet", "list", "-o", "wide"],
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-4711 planted",
            "--dry-run",
        ],
    ] {
        let run = table(&db, args);
        assert_screen_safe(&args.join(" "), &run);
    }
    // The reason rules refuse control characters in a reason given to the
    // tool (exit 2, the character named, not echoed) ...
    let refused = table(
        &db,
        &["fail-safely", "d0000003", "--reason", &reason, "--dry-run"],
    );
    refused.assert_code(2);
    assert_screen_safe("a hostile --reason", &refused);
    // The teardown, written; then shown by fail-safely, diagnose and wait
    // (whose teardown waits for the planted node: a timeout, exit 6).
    let applied = table(
        &db,
        // The planted note is recent progress: not stuck, on purpose here.
        &[
            "fail-safely",
            "d0000003",
            "--reason",
            "INC-4711 planted",
            "--yes",
            "--even-if-not-stuck",
        ],
    );
    applied.assert_code(0);
    assert_screen_safe("fail-safely", &applied);
    // ... so the hostile reason is planted as a hand-written event (after
    // the teardown: an event is progress), as an attacker with write
    // access would; the tool's own reason is clean.
    db.client()
        .execute(
            "INSERT INTO deployment_events (sequence, id, org_id, deployment_id, kind, payload)
             SELECT max(sequence) + 1, gen_random_uuid(), org_id, deployment_id,
                    'operator_note', jsonb_build_object('reason', $1::text)
             FROM deployment_events WHERE deployment_id::text = $2::text
             GROUP BY org_id, deployment_id",
            &[&reason, &d3],
        )
        .expect("planting a hostile reason");
    assert_screen_safe(
        "diagnose after",
        &table(&db, &["diagnose", "d0000003", "--events", "50"]),
    );
    let wait = table(
        &db,
        &[
            "wait",
            "d0000003",
            "--wait-for-node",
            "--timeout",
            "1s",
            "--interval",
            "200ms",
        ],
    );
    wait.assert_code(6);
    assert_screen_safe("wait", &wait);
    assert!(
        wait.stderr.contains("waiting for node edge-07<"),
        "{}",
        wait.stderr
    );
    db.run(&["fail-safely", "d0000004", "--reason", "INC-4712", "--yes"])
        .assert_code(0);
    let wait4 = table(&db, &["wait", "d0000004", "--timeout", "2s"]);
    assert_screen_safe("wait d0000004", &wait4);

    // JSON: the same text, byte for byte.
    let doc = json(&db, &["diagnose", &d3]);
    let planted = Value::from(PLANTED);
    let job = doc["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["kind"] == "deploy");
    assert_eq!(job.unwrap()["last_error"], planted);
    let note = doc["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["payload"].get("message").is_some());
    assert_eq!(note.unwrap()["payload"]["message"], planted);
    assert_eq!(note.unwrap()["kind"], Value::from(format!("note{PLANTED}")));
    assert!(
        doc["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["payload"]["reason"] == reason.as_str())
    );
    assert_eq!(
        doc["routes"][0]["hostname"],
        Value::from(format!("shop{PLANTED}"))
    );
    assert_eq!(
        doc["instances"][0]["role_name"],
        Value::from(format!("web{PLANTED}"))
    );
    assert_eq!(
        doc["release_artifacts"][0]["image"],
        Value::from(format!("img{PLANTED}"))
    );
    let node = Value::from(format!("edge-07{PLANTED}"));
    assert!(
        doc["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == node)
    );
    let fleet = json(&db, &["fleet", "list"]);
    assert!(
        fleet["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["name"] == node && n["pool"] == format!("edge{PLANTED}").as_str())
    );
    let d4 = json(&db, &["diagnose", "d0000004"]);
    assert_eq!(
        d4["network_attachments"][0]["segment"],
        Value::from(format!("seg{PLANTED}"))
    );
}

/// Two nodes can never look the same: a name holding a word joiner, a
/// soft hyphen, a variation selector and a tag character shows each of
/// them escaped in `stuck` and `fleet list`.
#[test]
fn invisible_characters_in_a_node_name_show_escaped() {
    let db = TestDb::scenarios();
    let hidden = "edge-07\u{2060}\u{ad}\u{fe0f}\u{e0041}";
    db.client()
        .execute(
            "UPDATE fleet_nodes SET name = $1 WHERE name = 'edge-07'",
            &[&hidden],
        )
        .unwrap();
    let shown = "edge-07\\u{2060}\\u{ad}\\u{fe0f}\\u{e0041}";
    for args in [
        &["stuck", "-o", "wide"][..],
        &["fleet", "list", "-o", "wide"],
    ] {
        let run = db.run(&[args, &["--color", "never"]].concat());
        for raw in ['\u{2060}', '\u{ad}', '\u{fe0f}', '\u{e0041}'] {
            assert!(
                !run.stdout.contains(raw),
                "{args:?}: {raw:?}\n{}",
                run.stdout
            );
            assert!(
                !run.stderr.contains(raw),
                "{args:?}: {raw:?}\n{}",
                run.stderr
            );
        }
        assert!(run.stdout.contains(shown), "{args:?}:\n{}", run.stdout);
    }
}
