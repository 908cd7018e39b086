//! `sandbox --simulate`: a background thread that plays the control plane
//! against the sandbox database, so a newcomer can request a teardown and
//! watch it complete (or hang on a dead node).
//!
//! Every second it heartbeats the nodes that were alive when the sandbox
//! started (not offline, heartbeat fresh) and runs one round of the
//! reference control plane (`control_plane.tick`, sql/control_plane.sql):
//! agents on fresh nodes lease and finish their jobs, teardowns are driven,
//! failed deployments reaped. The scheduler stays paused: in every scenario
//! it is the part that is stuck, and running it would dispatch the
//! never-dispatched scenarios and change their break-glass path under the
//! newcomer's feet. Dead nodes (edge-07) never heartbeat, so work for them
//! waits, as in production.

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{Context, Result};
use postgres::{Client, NoTls};
use uuid::Uuid;

use crate::ui as output;

/// How often the simulated control plane runs a round.
pub const INTERVAL: Duration = Duration::from_secs(1);

use crate::db::sql::Schema;
use crate::db::sql::sandbox::{HEARTBEAT, LIVE_NODES, SIMULATION_SESSION, TICK};

/// What runs in the background of a sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Only the live nodes' heartbeats: the scenarios stay as described
    /// however long a newcomer explores (a plain `sandbox`).
    Heartbeats,
    /// Heartbeats and a round of the reference control plane
    /// (`sandbox --simulate`).
    ControlPlane,
}

/// A running simulation; [`Simulation::stop`] ends it and waits for it.
pub struct Simulation {
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Simulation {
    /// Connects to `conninfo` (the sandbox database, with the control plane
    /// loaded) and starts a round every `interval`.
    pub fn start(conninfo: &str, interval: Duration, mode: Mode) -> Result<Simulation> {
        let mut client = Client::connect(conninfo, NoTls)
            .context("connecting the simulated control plane to the sandbox database")?;
        client.batch_execute(SIMULATION_SESSION.text)?;
        // The sandbox loads the reference schema into public.
        let schema = Schema::public();
        let heartbeat = HEARTBEAT.sql(&schema);
        let rows = client
            .query(&LIVE_NODES.sql(&schema), &[])
            .context("finding the live nodes to heartbeat")?;
        let live: Vec<Uuid> = rows.iter().map(|row| row.get(0)).collect();
        let names: Vec<String> = rows.iter().map(|row| row.get(1)).collect();
        output::note(&match mode {
            Mode::ControlPlane => format!(
                "Simulating the control plane every {}s: heartbeats from {}; agents run jobs on them \
                 (a few seconds each), teardowns are driven, expired leases reclaimed, failed \
                 deployments reaped, healthy ones report in. The scheduler stays paused (the \
                 scenarios are stuck because of it); nodes that were dead at start stay dead.",
                interval.as_secs(),
                names.join(", ")
            ),
            Mode::Heartbeats => format!(
                "Live nodes keep heartbeating ({}), so the scenarios stay as described however \
                 long you look; nothing else runs (--simulate runs the control plane).",
                names.join(", ")
            ),
        });
        let started = chrono::Utc::now();
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("sandbox-simulation".to_string())
            .spawn(move || {
                let mut last_error: Option<String> = None;
                if let Err(err) = client.execute(&heartbeat, &[&live]) {
                    report(&mut last_error, &err);
                }
                // A message, or the sender gone, ends the loop.
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(interval) {
                    let round = client.execute(&heartbeat, &[&live]).and_then(|_| {
                        if mode == Mode::ControlPlane {
                            client.query_one(TICK.text, &[&started])?;
                        }
                        Ok(())
                    });
                    match round {
                        Ok(()) => {
                            if last_error.take().is_some() {
                                output::note("simulated control plane: running again");
                            }
                        }
                        Err(err) => report(&mut last_error, &err),
                    }
                }
            })
            .context("starting the simulation thread")?;
        Ok(Simulation { stop, thread })
    }

    /// Ends the loop after its current round and waits for it, so nothing
    /// talks to the cluster once this returns.
    pub fn stop(self) {
        let _ = self.stop.send(());
        if self.thread.join().is_err() {
            output::note("the simulated control plane ended with a panic");
        }
    }
}

/// Says what failed, once per distinct error, not once a second.
fn report(last_error: &mut Option<String>, err: &postgres::Error) {
    let text = err
        .as_db_error()
        .map(|db| db.message().to_string())
        .unwrap_or_else(|| err.to_string());
    if last_error.as_deref() != Some(text.as_str()) {
        output::output::warn(&format!(
            "simulated control plane: a round failed ({text}); retrying every second"
        ));
    }
    *last_error = Some(text);
}
