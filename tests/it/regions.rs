//! Regions: a control plane with one PostgreSQL per region, each a named
//! connection service. Three throwaway servers in a test pg_service.conf:
//! `stuck --all-services` merges the two that answer and reports the one
//! that is stopped, without hiding the others.

use std::io::Write;

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

use crate::support::bin;

/// A server with the schema and the scenarios in database `control`.
fn region() -> Cluster {
    let cluster = Cluster::start(&ClusterOptions::default()).expect("a throwaway server");
    let mut admin = Client::connect(&cluster.conninfo("postgres"), NoTls).expect("connecting");
    admin
        .batch_execute("CREATE DATABASE control")
        .expect("a database");
    let mut client = Client::connect(&cluster.conninfo("control"), NoTls).expect("connecting");
    client
        .batch_execute(sql::scripts::SCHEMA.text)
        .expect("the schema");
    client
        .batch_execute(sql::sandbox::SCENARIOS.text)
        .expect("the scenarios");
    cluster
}

fn service_file(regions: &[(&str, &Cluster)]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for (name, cluster) in regions {
        writeln!(file, "[{name}]").unwrap();
        for pair in cluster.conninfo("control").split(' ') {
            writeln!(file, "{pair}").unwrap();
        }
        writeln!(file).unwrap();
    }
    file
}

fn run(file: &tempfile::NamedTempFile, args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = bin()
        .env("PGSERVICEFILE", file.path())
        .env_remove("PGSYSCONFDIR")
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let doc = serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        doc,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn all_services_merges_the_regions_and_reports_a_stopped_one() {
    let (eu, us, ap) = (region(), region(), region());
    ap.stop_server().expect("stopping the ap region");
    let file = service_file(&[("eu", &eu), ("us", &us), ("ap", &ap)]);

    let (code, doc, stderr) = run(&file, &["stuck", "--all-services", "--output", "json"]);
    // One region could not be read: the view is incomplete, exit 1.
    assert_eq!(code, 1, "{stderr}");
    let rows = doc["deployments_stuck"].as_array().expect("rows");
    assert_eq!(rows.len(), 10, "five stuck scenarios in each live region");
    for region in ["eu", "us"] {
        assert_eq!(rows.iter().filter(|r| r["region"] == region).count(), 5);
    }
    let regions = doc["regions"].as_array().expect("the regions' status");
    let status = |name: &str| {
        regions
            .iter()
            .find(|r| r["region"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(status("eu")["ok"], true);
    assert_eq!(status("us")["ok"], true);
    assert_eq!(status("ap")["ok"], false);
    assert!(
        status("ap")["error"]
            .as_str()
            .is_some_and(|e| !e.is_empty())
    );
    assert!(stderr.contains("region ap could not be read"), "{stderr}");

    // Named regions, all of them up: exit 0, and the table has a region column.
    let (code, doc, stderr) = run(
        &file,
        &["--service", "eu,us", "fleet", "list", "--output", "json"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(doc["nodes"].as_array().map(Vec::len), Some(24));
    let table = bin()
        .env("PGSERVICEFILE", file.path())
        .args(["--service", "eu,us", "history", "--output", "table"])
        .output()
        .unwrap();
    assert_eq!(table.status.code(), Some(0));
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.starts_with("region"), "{text}");
    assert!(text.contains("regions read: eu, us"), "{text}");

    // diagnose acts on exactly one region.
    let (code, _, stderr) = run(&file, &["--service", "eu,us", "diagnose", "d0000001"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("exactly one region"), "{stderr}");
    let (code, doc, stderr) = run(
        &file,
        &[
            "--service",
            "us",
            "diagnose",
            "d0000001",
            "--output",
            "json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(doc["verdict"]["path"], "operator_failed");
    assert_eq!(doc["region"], "us", "diagnose names the region it read");
    // fail-safely acts on one region and its audit says which.
    let (code, doc, stderr) = run(
        &file,
        &[
            "--service",
            "us",
            "fail-safely",
            "d0000001",
            "--reason",
            "INC-9 us only",
            "--yes",
            "--output",
            "json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(doc["event"]["payload"]["audit"]["region"], "us");
    let (_, eu, _) = run(
        &file,
        &[
            "--service",
            "eu",
            "diagnose",
            "d0000001",
            "--output",
            "json",
        ],
    );
    assert_eq!(eu["deployment"]["status"], "queued", "eu was not touched");
}
