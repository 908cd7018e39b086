//! The server the benchmark measures against, and the databases it makes
//! there: a throwaway cluster (default) or PUSHLEFT_BENCH_DATABASE_URL.

use std::net::{TcpListener, ToSocketAddrs};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use postgres::config::Host;
use postgres::{Client, NoTls};
use pushleft_controller::db::sql;
use pushleft_controller::sandbox::cluster::{Cluster, ClusterOptions};
use uuid::Uuid;

use pushleft_controller::testing::proxy::Upstream;

const AUTOVACUUM_OFF: &str = include_str!("../../../sql/bench/autovacuum_off.sql");
const AUTOVACUUM_RESET: &str = include_str!("../../../sql/bench/autovacuum_reset.sql");
const EXAMPLES: &str = include_str!("../../../sql/bench/examples.sql");
const SIZES: &str = include_str!("../../../sql/bench/sizes.sql");
const PLAIN_INDEXES: &str = include_str!("../../../sql/bench/plain_indexes.sql");

pub struct Server {
    /// Dropped last: stops the throwaway server and deletes its files.
    _cluster: Option<Cluster>,
    host: String,
    port: u16,
    user: String,
    password: Option<String>,
    /// A database to connect to for CREATE / DROP DATABASE.
    admin_database: String,
    pub upstream: Upstream,
    /// How the tools reach the server without the proxy, for the output.
    pub near: String,
}

/// A libpq conninfo value, quoted when it must be.
fn quote_value(value: &str) -> String {
    if !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c == '\'' || c == '\\')
    {
        return value.to_string();
    }
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// An SQL identifier, quoted.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl Server {
    /// A throwaway cluster that also listens on 127.0.0.1. Its
    /// configuration changes only durability (fsync, synchronous_commit,
    /// full_page_writes) and connection settings; the planner, JIT and
    /// autovacuum keep the server's defaults.
    pub fn throwaway() -> Result<Server> {
        let port = {
            let probe = TcpListener::bind("127.0.0.1:0")
                .context("finding a free TCP port for the throwaway PostgreSQL")?;
            probe
                .local_addr()
                .context("reading the probe's port")?
                .port()
        };
        let cluster = Cluster::start(&ClusterOptions {
            tcp_port: Some(port),
            ..ClusterOptions::default()
        })
        .context("starting the throwaway PostgreSQL")?;
        let user = cluster.superuser().to_string();
        let addr = ("127.0.0.1", port)
            .to_socket_addrs()
            .context("resolving 127.0.0.1")?
            .next()
            .context("127.0.0.1 resolves to nothing")?;
        Ok(Server {
            _cluster: Some(cluster),
            host: "127.0.0.1".into(),
            port,
            user,
            password: None,
            admin_database: "postgres".into(),
            upstream: Upstream::Tcp(addr),
            near: format!("TCP to 127.0.0.1:{port}, no TLS"),
        })
    }

    /// The server of `url`; returns it and the URL's database.
    pub fn external(url: &str) -> Result<(Server, String)> {
        let config = postgres::Config::from_str(url)
            .context("PUSHLEFT_BENCH_DATABASE_URL is not a connection string")?;
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let user = config
            .get_user()
            .map(str::to_string)
            .or_else(|| std::env::var("USER").ok())
            .context("PUSHLEFT_BENCH_DATABASE_URL names no user")?;
        let database = config
            .get_dbname()
            .map(str::to_string)
            .unwrap_or_else(|| user.clone());
        let password = config
            .get_password()
            .map(|p| String::from_utf8_lossy(p).into_owned());
        let (host, upstream, near) = match config.get_hosts().first() {
            Some(Host::Tcp(host)) => {
                let addr = (host.as_str(), port)
                    .to_socket_addrs()
                    .with_context(|| format!("resolving {host}"))?
                    .next()
                    .with_context(|| format!("{host} resolves to nothing"))?;
                (
                    host.clone(),
                    Upstream::Tcp(addr),
                    format!("TCP to {host}:{port}, no TLS"),
                )
            }
            Some(Host::Unix(dir)) => (
                dir.to_string_lossy().into_owned(),
                Upstream::Unix(dir.join(format!(".s.PGSQL.{port}"))),
                format!("unix socket in {}", dir.display()),
            ),
            None => {
                let dir = PathBuf::from("/var/run/postgresql");
                (
                    dir.to_string_lossy().into_owned(),
                    Upstream::Unix(dir.join(format!(".s.PGSQL.{port}"))),
                    format!("unix socket in {}", dir.display()),
                )
            }
        };
        let server = Server {
            _cluster: None,
            host,
            port,
            user,
            password,
            admin_database: database.clone(),
            upstream,
            near,
        };
        Ok((server, database))
    }

    fn conninfo_at(&self, host: &str, port: u16, database: &str) -> String {
        let mut conninfo = format!(
            "host={} port={port} user={} dbname={} sslmode=disable",
            quote_value(host),
            quote_value(&self.user),
            quote_value(database)
        );
        if let Some(password) = &self.password {
            conninfo.push_str(&format!(" password={}", quote_value(password)));
        }
        conninfo
    }

    /// Straight to the server.
    pub fn conninfo(&self, database: &str) -> String {
        self.conninfo_at(&self.host, self.port, database)
    }

    /// Where the server listens (host or socket directory, port) and as
    /// whom the benchmark connects: what a pooler in front of it needs.
    pub fn address(&self) -> (&str, u16, &str) {
        (&self.host, self.port, &self.user)
    }

    /// Through the proxy (`testing::proxy`) listening on 127.0.0.1:`proxy_port`.
    pub fn conninfo_via(&self, database: &str, proxy_port: u16) -> String {
        self.conninfo_at("127.0.0.1", proxy_port, database)
    }

    /// A plain session with the server's defaults (JIT included).
    pub fn connect(&self, database: &str) -> Result<Client> {
        Client::connect(&self.conninfo(database), NoTls)
            .with_context(|| format!("connecting to database {database}"))
    }

    pub fn create_database(&self, name: &str, template: Option<&str>) -> Result<()> {
        let mut admin = self.connect(&self.admin_database)?;
        let statement = match template {
            // FILE_COPY (PostgreSQL 15) copies the files instead of writing
            // every page to the WAL: seconds instead of a minute.
            Some(template) => {
                let version: i32 = admin
                    .query_one("SELECT current_setting('server_version_num')::int", &[])?
                    .get(0);
                format!(
                    "CREATE DATABASE {} TEMPLATE {}{}",
                    quote_ident(name),
                    quote_ident(template),
                    if version >= 150000 {
                        " STRATEGY = FILE_COPY"
                    } else {
                        ""
                    }
                )
            }
            None => format!("CREATE DATABASE {}", quote_ident(name)),
        };
        admin
            .batch_execute(&statement)
            .with_context(|| format!("creating database {name} (needs CREATEDB)"))
    }

    pub fn drop_database(&self, name: &str) -> Result<()> {
        let mut admin = self.connect(&self.admin_database)?;
        admin
            .batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                quote_ident(name)
            ))
            .with_context(|| format!("dropping database {name}"))
    }

    /// Ends every other session on `database`: what a killed client left
    /// running on the server.
    pub fn terminate_backends(&self, database: &str) {
        let result = self.connect(&self.admin_database).and_then(|mut admin| {
            admin
                .execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = $1 AND pid <> pg_backend_pid()",
                    &[&database],
                )
                .context("terminating backends")
        });
        if let Err(err) = result {
            eprintln!("warning: could not stop what a killed run left running: {err:#}");
        }
    }

    pub fn version(&self) -> Result<String> {
        let mut client = self.connect(&self.admin_database)?;
        Ok(client.query_one("SELECT version()", &[])?.get(0))
    }
}

/// A database the benchmark made for one phase; dropped when done.
pub struct ScratchDatabase<'a> {
    server: &'a Server,
    pub name: String,
}

impl<'a> ScratchDatabase<'a> {
    pub fn create(
        server: &'a Server,
        name: String,
        template: Option<&str>,
    ) -> Result<ScratchDatabase<'a>> {
        // A leftover of an interrupted run on an external server.
        server.drop_database(&name)?;
        server.create_database(&name, template)?;
        Ok(ScratchDatabase { server, name })
    }
}

impl Drop for ScratchDatabase<'_> {
    fn drop(&mut self) {
        if let Err(err) = self.server.drop_database(&self.name) {
            eprintln!("warning: {err:#}");
        }
    }
}

/// What loading a data set took and made.
pub struct Loaded {
    pub seconds: f64,
    pub counts: Vec<(String, i64)>,
}

/// The reference schema and generate.sql's data at `scale` (and `nodes`),
/// then ANALYZE; autovacuum off on every table (see autovacuum_off.sql),
/// no VACUUM.
pub fn load(client: &mut Client, scale: f64, nodes: Option<i32>) -> Result<Loaded> {
    let started = Instant::now();
    client
        .batch_execute(sql::scripts::SCHEMA.text)
        .context("loading the reference schema")?;
    client
        .batch_execute(AUTOVACUUM_OFF)
        .context("turning autovacuum off per table")?;
    client
        .batch_execute(sql::scripts::BENCH_GENERATE.text)
        .context("loading sql/bench/generate.sql")?;
    let rows = client
        .query("SELECT * FROM bench.generate($1, $2)", &[&scale, &nodes])
        .context("generating the data set")?;
    client.batch_execute("ANALYZE").context("ANALYZE")?;
    Ok(Loaded {
        seconds: started.elapsed().as_secs_f64(),
        counts: rows.iter().map(|row| (row.get(0), row.get(1))).collect(),
    })
}

/// The "vacuumed" state: VACUUM ANALYZE, autovacuum back on.
pub fn vacuum(client: &mut Client) -> Result<f64> {
    let started = Instant::now();
    client
        .batch_execute("VACUUM ANALYZE")
        .context("VACUUM ANALYZE")?;
    client
        .batch_execute(AUTOVACUUM_RESET)
        .context("turning autovacuum back on")?;
    Ok(started.elapsed().as_secs_f64())
}

/// The deployments diagnosed, with their trail lengths.
pub struct Examples {
    pub typical: (Uuid, i64),
    pub long_trail: (Uuid, i64),
}

pub fn examples(client: &mut Client) -> Result<Examples> {
    let rows = client
        .query(EXAMPLES, &[])
        .context("reading bench.examples() (a data set from an older generate.sql?)")?;
    let find = |name: &str| -> Result<(Uuid, i64)> {
        rows.iter()
            .find(|row| row.get::<_, String>(0) == name)
            .map(|row| (row.get(1), row.get(2)))
            .with_context(|| format!("bench.examples() has no {name}"))
    };
    Ok(Examples {
        typical: find("typical")?,
        long_trail: find("long_trail")?,
    })
}

/// What a data set holds (sizes.sql).
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    pub nodes: i64,
    pub deployments: i64,
    pub events: i64,
    pub allocations_in_use: i64,
    pub stuck: i64,
    pub orphaned_leases: i64,
    pub long_trail_events: i64,
}

pub fn sizes(client: &mut Client) -> Result<Sizes> {
    let row = client
        .query_one(SIZES, &[])
        .context("counting the data set")?;
    Ok(Sizes {
        nodes: row.get("nodes"),
        deployments: row.get("deployments"),
        events: row.get("events"),
        allocations_in_use: row.get("allocations_in_use"),
        stuck: row.get("stuck"),
        orphaned_leases: row.get("orphaned_leases"),
        long_trail_events: row.get("long_trail_events"),
    })
}

/// Drops every index that backs no primary key or unique constraint;
/// returns their names.
pub fn drop_plain_indexes(client: &mut Client) -> Result<Vec<String>> {
    let names: Vec<String> = client
        .query(PLAIN_INDEXES, &[])
        .context("listing the plain indexes")?
        .iter()
        .map(|row| row.get(0))
        .collect();
    if names.is_empty() {
        bail!("the schema has no index beyond its keys: nothing to drop");
    }
    for name in &names {
        // The names come from regclass::text: already quoted when needed.
        client
            .batch_execute(&format!("DROP INDEX {name}"))
            .with_context(|| format!("dropping index {name}"))?;
    }
    Ok(names)
}
