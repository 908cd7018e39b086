use super::Replication;

fn replication(standbys: i64, synchronous: i64, confirmed: i64) -> Replication {
    Replication {
        commit_lsn: "0/3000148".to_string(),
        standbys,
        synchronous,
        confirmed,
        unknown: 0,
    }
}

#[test]
fn without_standbys_nothing_is_said() {
    assert_eq!(replication(0, 0, 0).sentence(), None);
}

#[test]
fn an_asynchronous_standby_without_the_write_is_a_risk_said_so() {
    let r = replication(1, 0, 0);
    assert!(r.at_risk());
    let text = r.sentence().unwrap_or_default();
    assert!(
        text.starts_with("replication asynchronous: 0 of 1 standbys"),
        "{text}"
    );
    assert!(text.contains("a failover could lose this write"), "{text}");
}

#[test]
fn a_confirmed_or_synchronous_write_is_no_risk() {
    assert!(!replication(2, 0, 1).at_risk());
    assert!(!replication(1, 1, 0).at_risk());
    let text = replication(1, 1, 1).sentence().unwrap_or_default();
    assert!(
        text.starts_with("replication synchronous: 1 of 1"),
        "{text}"
    );
}
