use super::*;
use crate::model::target::ServerRole;

fn target() -> WriteTarget {
    WriteTarget {
        transport: Transport::Unix,
        address: None,
        host: Some("/tmp/pg".into()),
        socket: Some("/tmp/pg/.s.PGSQL.5432".into()),
        port: 5432,
        database: "sandbox".into(),
        user: "postgres".into(),
        region: None,
        role: ServerRole::Primary,
        system_identifier: "7".into(),
        database_oid: 16384,
    }
}

#[test]
fn a_target_in_one_line() {
    assert_eq!(
        describe(&target()),
        "on sandbox at /tmp/pg:5432 as postgres (primary)"
    );
    let tcp = WriteTarget {
        transport: Transport::Tcp,
        address: Some("10.0.0.5".into()),
        host: Some("db1".into()),
        socket: None,
        region: Some("eu".into()),
        role: ServerRole::Standby,
        ..target()
    };
    assert_eq!(
        describe(&tcp),
        "on sandbox in region eu at 10.0.0.5:5432 (host db1) as postgres (standby)"
    );
}
