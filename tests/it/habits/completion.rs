//! Completion of what is in the database, through the committed bash
//! script (which asks the binary under test): the stuck deployments first,
//! node names, pools; nothing, quickly and silently, without a database.

use std::time::{Duration, Instant};

use crate::cli::bash_complete_with;
use crate::support::{TestDb, scenario};

#[test]
fn bash_completes_the_stuck_deployment_ids_from_the_database() {
    let db = TestDb::scenarios();
    let env = [("DATABASE_URL", db.conninfo.as_str())];
    let offered = bash_complete_with(&env, &["pushleft-controller", "diagnose", "d"]);
    // The stuck scenarios, and nothing that is not a deployment id.
    let stuck: Vec<String> = [1, 2, 3, 4, 8].iter().map(|&n| scenario(n)).collect();
    let first: Vec<&String> = offered.iter().take(stuck.len()).collect();
    for id in &stuck {
        assert!(first.contains(&id), "{id} among the first: {offered:?}");
    }
    assert!(offered.iter().all(|o| o.starts_with('d')), "{offered:?}");
    // d0000007 (teardown queued, an operator acted on it) after them, for
    // `wait`; the healthy and the finished ones not at all.
    assert!(offered.contains(&scenario(7)), "{offered:?}");
    for n in [5, 6, 9] {
        assert!(!offered.contains(&scenario(n)), "{offered:?}");
    }
    let nodes = bash_complete_with(&env, &["pushleft-controller", "stuck", "--node", "edge-0"]);
    assert!(nodes.contains(&"edge-07".to_string()), "{nodes:?}");
    let pools = bash_complete_with(
        &env,
        &["pushleft-controller", "fleet", "list", "--pool", ""],
    );
    assert!(pools.contains(&"edge".to_string()), "{pools:?}");
}

#[test]
fn without_a_database_completion_offers_nothing_at_once() {
    // A port nothing listens on, and a server on this machine that
    // accepts the connection and then never says a word (its listener
    // lives as long as the test; nothing leaves the loopback).
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
    let port = silent.local_addr().expect("its address").port();
    let held = std::thread::spawn(move || {
        let mut accepted = Vec::new();
        for stream in silent.incoming().take(4).flatten() {
            accepted.push(stream);
        }
        accepted
    });
    for url in [
        "postgresql://127.0.0.1:1/nothing".to_string(),
        format!("postgresql://127.0.0.1:{port}/nothing"),
    ] {
        let url = url.as_str();
        let started = Instant::now();
        let offered = bash_complete_with(
            &[("DATABASE_URL", url)],
            &["pushleft-controller", "diagnose", "d"],
        );
        assert!(offered.is_empty(), "{url}: {offered:?}");
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{url}: {:?}",
            started.elapsed()
        );
    }
    drop(held);
}
