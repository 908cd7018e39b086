//! `sandbox`: the embedded default. A throwaway PostgreSQL with the
//! reference schema and the incident scenarios, so anyone can try every
//! command in a minute without touching a real control plane.

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use anyhow::{Context, Result};
use postgres::NoTls;
use serde::Serialize;

use crate::cli::SandboxArgs;
use crate::cluster::{Cluster, ClusterOptions};
use crate::exit::{self, ExitCode};
use crate::output::{self, Output, Paint};
use crate::schema;
use crate::simulate::{self, Simulation};

/// The database the sandbox creates inside its cluster.
pub const DATABASE: &str = "sandbox";

#[derive(Debug, Serialize)]
pub struct Scenario {
    pub deployment_id: uuid::Uuid,
    pub name: String,
    pub problem: String,
    pub try_command: String,
}

/// Creates the `sandbox` database in `cluster` with the schema and the
/// scenarios loaded, and returns the scenarios.
pub fn load(cluster: &Cluster) -> Result<Vec<Scenario>> {
    let mut admin = postgres::Client::connect(&cluster.conninfo("postgres"), NoTls)
        .context("connecting to the sandbox's PostgreSQL")?;
    admin.batch_execute(&format!("CREATE DATABASE {DATABASE}"))?;
    let mut client = postgres::Client::connect(&cluster.conninfo(DATABASE), NoTls)
        .context("connecting to the sandbox database")?;
    client
        .batch_execute(schema::SCHEMA)
        .context("loading sql/schema.sql")?;
    client
        .batch_execute(schema::SCENARIOS)
        .context("loading sql/sandbox/scenarios.sql")?;
    // The reference control plane, in its own schema: `--simulate` runs it,
    // and anyone can call its functions from psql.
    client
        .batch_execute(schema::CONTROL_PLANE)
        .context("loading sql/control_plane.sql")?;
    let rows = client.query(
        "SELECT deployment_id, name, problem, try_command FROM sandbox.scenarios ORDER BY position",
        &[],
    )?;
    Ok(rows
        .iter()
        .map(|row| Scenario {
            deployment_id: row.get(0),
            name: row.get(1),
            problem: row.get(2),
            try_command: row.get(3),
        })
        .collect())
}

/// The environment a command needs to talk to the sandbox: DATABASE_URL for
/// this tool, PG* for psql and friends.
fn environment(cluster: &Cluster) -> Vec<(&'static str, String)> {
    vec![
        ("DATABASE_URL", cluster.url(DATABASE)),
        ("PGHOST", cluster.socket_dir().display().to_string()),
        ("PGPORT", cluster.port().to_string()),
        ("PGUSER", cluster.superuser().to_string()),
        ("PGDATABASE", DATABASE.to_string()),
    ]
}

/// PATH with the directory of the running binary in front, if it can be
/// found and joined.
fn path_with_this_binary() -> Option<std::ffi::OsString> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&path))).ok()
}

/// Variables that would point a command elsewhere than the sandbox.
const FOREIGN_VARIABLES: &[&str] = &[
    "PGPASSWORD",
    "PGPASSFILE",
    "PGSERVICE",
    "PGSERVICEFILE",
    "PGHOSTADDR",
    "PGOPTIONS",
    "PGSSLMODE",
];

pub fn run(args: &SandboxArgs, output: &Output) -> Result<ExitCode> {
    // From here on Ctrl-C belongs to the command we run (it is in our
    // process group and gets the signal itself); we only clean up after it.
    crate::interrupt::defer_to_child();

    output::note("Starting a throwaway PostgreSQL with the reference schema and scenarios...");
    let cluster = Cluster::start(&ClusterOptions::default())?;
    let scenarios = load(&cluster)?;

    // stdout belongs to the command we run; the scenario table is for the
    // human and goes to stderr, unless a script asked for JSON on stdout.
    if output.json() && output.explicit && args.command.is_empty() {
        output::print_json(&serde_json::json!({
            "database_url": cluster.url(DATABASE),
            "scenarios": scenarios,
        }))?;
    } else {
        let mut table = output.table(&["deployment", "scenario", "what is wrong", "try"]);
        table.use_stderr();
        for s in &scenarios {
            let short = s.deployment_id.to_string()[..8].to_string();
            table.add_row(vec![
                output.cell(short, false),
                output.cell(&s.name, false),
                output.cell(&s.problem, false),
                output.cell(&s.try_command, false),
            ]);
        }
        output::note(&table.to_string());
    }

    if args.keep {
        let url = cluster.url(DATABASE);
        let stop = cluster.keep();
        output::note(&format!(
            "\nThe sandbox keeps running. Point commands at it with:\n  export DATABASE_URL='{url}'\nStop it and delete its files with:\n  {stop}"
        ));
        return Ok(ExitCode::Done);
    }

    let (program, arguments, banner) = match args.command.split_first() {
        Some((program, rest)) => (program.clone(), rest.to_vec(), false),
        None => (
            std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".to_string()),
            Vec::new(),
            true,
        ),
    };
    if banner {
        output::note(&output.paint(
            "\nA shell pointed at the sandbox (DATABASE_URL and PG* are set). Try the commands above; \
             exit the shell to stop the sandbox and delete it.",
            Paint::Bold,
        ));
    }
    let simulation = if args.simulate {
        match Simulation::start(&cluster.conninfo(DATABASE), simulate::INTERVAL) {
            Ok(simulation) => Some(simulation),
            Err(err) => {
                cluster.stop();
                return Err(err);
            }
        }
    } else {
        None
    };
    let mut command = Command::new(&program);
    command.args(&arguments);
    for name in FOREIGN_VARIABLES {
        command.env_remove(name);
    }
    command.envs(environment(&cluster));
    // The scenario table says `pushleft-controller diagnose ...`: make that
    // this very binary, also under `cargo run` where it is not installed.
    if let Some(path) = path_with_this_binary() {
        command.env("PATH", path);
    }
    let status = command.status();
    // The simulation stops talking to the cluster before the cluster stops.
    if let Some(simulation) = simulation {
        simulation.stop();
    }
    let status = match status {
        Ok(status) => status,
        Err(err) => {
            cluster.stop();
            return Err(exit::usage(format!(
                "could not run `{program}` against the sandbox: {err}"
            )));
        }
    };
    cluster.stop();
    Ok(match (status.code(), status.signal()) {
        (Some(0), _) => ExitCode::Done,
        (Some(code), _) => ExitCode::Child(code),
        (None, Some(signal)) => ExitCode::Child(128 + signal),
        (None, None) => ExitCode::Unexpected,
    })
}
