//! `sandbox`: the embedded default. A throwaway PostgreSQL with the
//! reference schema and the incident scenarios, so anyone can try every
//! command in a minute without touching a real control plane.

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use anyhow::{Context, Result};
use postgres::NoTls;
use serde::Serialize;

pub mod cluster;
pub mod shell;
pub mod simulate;

use self::cluster::{Cluster, ClusterOptions};
use self::simulate::Simulation;
use crate::cli::SandboxArgs;
use crate::db::sql;
use crate::exit::{self, ExitCode};
use crate::model::short_id;
use crate::ui::table::{Cell, Table, col};
use crate::ui::{self as output, Output, Paint};

/// The database the sandbox creates inside its cluster
/// (`sql/sandbox/create_database.sql`).
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
pub fn load(cluster: &Cluster, big_incident: bool) -> Result<Vec<Scenario>> {
    let mut admin = postgres::Client::connect(&cluster.conninfo("postgres"), NoTls)
        .context("connecting to the sandbox's PostgreSQL")?;
    admin.batch_execute(sql::sandbox::CREATE_DATABASE.text)?;
    let mut client = postgres::Client::connect(&cluster.conninfo(DATABASE), NoTls)
        .context("connecting to the sandbox database")?;
    client
        .batch_execute(sql::scripts::SCHEMA.text)
        .context("loading sql/schema.sql")?;
    client
        .batch_execute(sql::sandbox::SCENARIOS.text)
        .context("loading sql/sandbox/scenarios.sql")?;
    if big_incident {
        client
            .batch_execute(sql::sandbox::BIG_INCIDENT.text)
            .context("loading sql/sandbox/big_incident.sql")?;
    }
    // The reference control plane, in its own schema: `--simulate` runs it,
    // and anyone can call its functions from psql.
    client
        .batch_execute(sql::scripts::CONTROL_PLANE.text)
        .context("loading sql/control_plane.sql")?;
    let rows = client.query(sql::sandbox::LIST_SCENARIOS.text, &[])?;
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

pub fn run(output: &Output, args: &SandboxArgs) -> Result<ExitCode> {
    // From here on Ctrl-C belongs to the command we run (it is in our
    // process group and gets the signal itself); we only clean up after it.
    crate::interrupt::defer_to_child();

    output::note("Starting a throwaway PostgreSQL with the reference schema and scenarios...");
    let cluster = Cluster::start(&ClusterOptions::default())?;
    let scenarios = load(&cluster, args.big_incident)?;
    show_scenarios(&cluster, &scenarios, args, output)?;

    if args.keep {
        let url = cluster.url(DATABASE);
        let stop = cluster.keep();
        output::note(&format!(
            "\nThe sandbox keeps running. Point commands at it with:\n  export DATABASE_URL='{url}'\nStop it and delete its files with:\n  {stop}"
        ));
        // Redirected (`sandbox --keep > env.sh`): the same as a script to
        // source, with the stop command as a comment.
        if !output.interactive {
            output::print(&format!(
                "export DATABASE_URL='{url}'\n# stop it and delete its files:\n# {stop}"
            ))?;
        }
        return Ok(ExitCode::Done);
    }
    // Without --simulate the live nodes still heartbeat: a sandbox that
    // turns every node stale after two minutes tells a newcomer the wrong
    // story.
    let mode = if args.simulate {
        simulate::Mode::ControlPlane
    } else {
        simulate::Mode::Heartbeats
    };
    let simulation = match Simulation::start(&cluster.conninfo(DATABASE), simulate::INTERVAL, mode)
    {
        Ok(simulation) => simulation,
        Err(err) => {
            cluster.stop();
            return Err(err);
        }
    };
    let status = run_command(&cluster, args, output);
    // The simulation stops talking to the cluster before the cluster stops.
    simulation.stop();
    cluster.stop();
    let status = status?;
    Ok(match (status.code(), status.signal()) {
        (Some(0), _) => ExitCode::Done,
        (Some(code), _) => ExitCode::Child(code),
        (None, Some(signal)) => ExitCode::Child(128 + signal),
        (None, None) => ExitCode::Unexpected,
    })
}

/// The scenario table, for the human on stderr; or, when a script asked for
/// JSON and runs no command, the URL and the scenarios on stdout.
fn show_scenarios(
    cluster: &Cluster,
    scenarios: &[Scenario],
    args: &SandboxArgs,
    output: &Output,
) -> Result<()> {
    // stdout belongs to the command we run.
    if output.json() && output.explicit && args.command.is_empty() {
        return output::print_json(&serde_json::json!({
            "database_url": cluster.url(DATABASE),
            "scenarios": scenarios,
        }));
    }
    let mut table = Table::new(&[
        col("deployment"),
        col("scenario").drop(1),
        col("what is wrong").shrink(),
        col("try").command(),
    ]);
    for s in scenarios {
        table.row(vec![
            Cell::new(short_id(s.deployment_id)),
            Cell::new(&s.name),
            Cell::new(&s.problem),
            Cell::new(&s.try_command),
        ]);
    }
    output::note(&table.render(output));
    Ok(())
}

/// Runs CMD (or a shell) pointed at the sandbox and waits for it.
fn run_command(
    cluster: &Cluster,
    args: &SandboxArgs,
    output: &Output,
) -> Result<std::process::ExitStatus> {
    let shell = match args.command.split_first() {
        Some((program, rest)) => shell::Shell::command(program, rest),
        None => {
            output::note(&output.paint(
                &format!(
                    "\nA shell pointed at the sandbox: DATABASE_URL and PG* are set, and the prompt \
                     starts {}. Try the commands above; exit the shell to stop the sandbox and \
                     delete it.",
                    shell::MARK
                ),
                Paint::Bold,
            ));
            shell::interactive(&std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".to_string()))?
        }
    };
    let program = shell.program.clone();
    let mut command = Command::new(&program);
    command.args(&shell.args);
    for name in FOREIGN_VARIABLES {
        command.env_remove(name);
    }
    command.envs(environment(cluster));
    command.envs(shell.env.iter().map(|(k, v)| (k, v)));
    // The scenario table says `pushleft-controller diagnose ...`: make that
    // this very binary, also under `cargo run` where it is not installed.
    if let Some(path) = path_with_this_binary() {
        command.env("PATH", path);
    }
    // As a shell would: 127 when there is no such command, 126 when it
    // cannot be executed.
    command.status().map_err(|err| {
        let code = match err.kind() {
            std::io::ErrorKind::NotFound => 127,
            _ => 126,
        };
        exit::command_failed(
            code,
            format!("could not run `{program}` against the sandbox: {err}"),
        )
    })
}
