use super::*;

fn in_force(pairs: &[(&str, &str)]) -> InForce {
    InForce(
        pairs
            .iter()
            .map(|(name, value)| {
                (
                    name.to_string(),
                    Setting {
                        value: value.to_string(),
                        source: "session".into(),
                    },
                )
            })
            .collect(),
    )
}

fn pinned_snapshot() -> Vec<(&'static str, &'static str)> {
    vec![
        ("search_path", "pg_catalog, pg_temp"),
        ("jit", "off"),
        ("standard_conforming_strings", "on"),
        ("session_replication_role", "origin"),
        ("transaction_isolation", "repeatable read"),
        ("transaction_read_only", "on"),
        ("statement_timeout", "30000"),
        ("lock_timeout", "5000"),
        ("idle_in_transaction_session_timeout", "60000"),
        ("client_connection_check_interval", "1000"),
    ]
}

#[test]
fn only_the_settings_asked_for_pass() {
    let timeouts = Timeouts::default();
    assert_eq!(
        in_force(&pinned_snapshot()).mismatch(Terms::Snapshot, &timeouts),
        None
    );
    let why = in_force(&pinned_snapshot())
        .mismatch(Terms::LockAndWrite, &timeouts)
        .unwrap();
    assert!(
        why.contains("transaction_isolation = repeatable read"),
        "{why}"
    );
    assert!(why.contains("transaction_read_only = on"), "{why}");
    for (name, bad) in [
        ("search_path", "public, pg_catalog"),
        ("jit", "on"),
        ("lock_timeout", "0"),
        ("client_connection_check_interval", "0"),
    ] {
        let mut settings = pinned_snapshot();
        settings.retain(|(n, _)| *n != name);
        settings.push((name, bad));
        let why = in_force(&settings)
            .mismatch(Terms::Snapshot, &timeouts)
            .unwrap_or_else(|| panic!("{name} = {bad} passed"));
        assert!(why.contains(&format!("{name} = {bad}")), "{why}");
    }
    let mut settings = pinned_snapshot();
    settings.retain(|(n, _)| *n != "session_replication_role");
    settings.push(("session_replication_role", "replica"));
    let why = in_force(&settings)
        .mismatch(Terms::Snapshot, &timeouts)
        .unwrap();
    assert!(why.contains("session_replication_role = replica"), "{why}");
    assert!(why.contains("no trigger fires"), "{why}");
    // A server without client_connection_check_interval (13) is fine.
    let mut settings = pinned_snapshot();
    settings.retain(|(n, _)| *n != "client_connection_check_interval");
    assert_eq!(
        in_force(&settings).mismatch(Terms::Snapshot, &timeouts),
        None
    );
}

#[test]
fn the_script_states_its_terms_and_numbers_only() {
    let timeouts = Timeouts {
        statement: Duration::from_secs(30),
        lock: Duration::from_millis(1500),
        idle_in_transaction: Duration::from_secs(60),
    };
    let write = Terms::LockAndWrite.begin_script(&timeouts);
    assert!(write.contains("START TRANSACTION ISOLATION LEVEL READ COMMITTED, READ WRITE;"));
    assert!(write.contains("lock_timeout = 1500;"));
    let read = Terms::Snapshot.begin_script(&timeouts);
    assert!(read.contains("ISOLATION LEVEL REPEATABLE READ, READ ONLY;"));
    assert!(!read.contains(" :"), "an unrendered placeholder:\n{read}");
}
