//! The race test's own server: the verdict needs the commit order as the
//! server saw it (`pg_xact_commit_timestamp`), which takes
//! `track_commit_timestamp = on` — a setting that needs a restart, so the
//! shared test cluster of `support` cannot simply be switched over. A
//! dedicated throwaway cluster (the same `Cluster` the sandbox and the
//! shared harness use) with that setting, or the server of
//! `PUSHLEFT_TEST_DATABASE_URL` when it already has it on.

use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};

pub struct RaceServer {
    /// conninfo (key=value or URL) of the maintenance database.
    base: String,
    prefix: String,
    /// Stopped (and its directory removed) when the server is dropped,
    /// also when the test panics.
    _cluster: Option<Cluster>,
}

/// The server to race on, or why the test is skipped.
pub fn start() -> Result<RaceServer, String> {
    if let Ok(url) = std::env::var("PUSHLEFT_TEST_DATABASE_URL")
        && !url.is_empty()
    {
        let mut client =
            Client::connect(&url, NoTls).expect("connecting to PUSHLEFT_TEST_DATABASE_URL");
        let on: String = client
            .query_one("SHOW track_commit_timestamp", &[])
            .expect("SHOW track_commit_timestamp")
            .get(0);
        if on != "on" {
            return Err(format!(
                "the server of PUSHLEFT_TEST_DATABASE_URL has track_commit_timestamp = {on}; the \
                 race verdict needs the server's commit order (set it on and restart the server)"
            ));
        }
        return Ok(RaceServer {
            base: url,
            prefix: format!("pushleft_race{}_", std::process::id()),
            _cluster: None,
        });
    }
    let cluster = Cluster::start(&ClusterOptions {
        extra_conf: vec!["track_commit_timestamp = on".to_string()],
        ..ClusterOptions::default()
    })
    .expect("starting a throwaway PostgreSQL with track_commit_timestamp = on");
    Ok(RaceServer {
        base: cluster.conninfo("postgres"),
        prefix: "race_".to_string(),
        _cluster: Some(cluster),
    })
}

impl RaceServer {
    /// A fresh database `name` with the reference schema (as
    /// `support::cluster::create_templates` loads it), dropped with the value.
    /// `alter` runs on it (ALTER DATABASE … SET) before anyone connects.
    pub fn database(&self, name: &str, alter: Option<&str>) -> RaceDb {
        let name = format!("{}{name}", self.prefix);
        let mut admin = Client::connect(&self.base, NoTls).expect("connecting to the race server");
        for statement in [
            format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            format!("CREATE DATABASE {name}"),
        ] {
            admin
                .batch_execute(&statement)
                .expect("creating a race database");
        }
        let conninfo = conninfo_for(&self.base, &name);
        Client::connect(&conninfo, NoTls)
            .expect("connecting to a race database")
            .batch_execute(sql::scripts::SCHEMA.text)
            .expect("loading sql/schema.sql");
        if let Some(setting) = alter {
            admin
                .batch_execute(&format!("ALTER DATABASE {name} SET {setting}"))
                .expect("ALTER DATABASE … SET");
        }
        RaceDb {
            base: self.base.clone(),
            name,
            conninfo,
        }
    }
}

pub struct RaceDb {
    base: String,
    pub name: String,
    pub conninfo: String,
}

impl RaceDb {
    pub fn client(&self) -> Client {
        Client::connect(&self.conninfo, NoTls).expect("connecting to a race database")
    }
}

impl Drop for RaceDb {
    fn drop(&mut self) {
        if let Ok(mut admin) = Client::connect(&self.base, NoTls) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// conninfo for `dbname` on the server of `base` (a URL or key=value), the
/// way `support` derives its per-test databases.
fn conninfo_for(base: &str, dbname: &str) -> String {
    if !(base.starts_with("postgres://") || base.starts_with("postgresql://")) {
        return format!("{base} dbname={dbname}");
    }
    let (head, query) = match base.split_once('?') {
        Some((h, q)) => (h, format!("?{q}")),
        None => (base, String::new()),
    };
    let scheme_end = head.find("://").map_or(0, |i| i + 3);
    let authority_end = head[scheme_end..]
        .find('/')
        .map_or(head.len(), |i| i + scheme_end);
    format!("{}/{dbname}{query}", &head[..authority_end])
}
