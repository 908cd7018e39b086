//! Whole-process runs: wall time from spawn to exit, peak RSS from
//! `wait4`, the round trips the delay proxy saw, and a timeout that kills
//! a run (and the server backend it left running) instead of waiting for
//! ever.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::proxy::{ConnectionFlights, DelayProxy};

/// Which program a case runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// `pushleft-controller` (the release build cargo made for this bench),
    /// given the database in DATABASE_URL.
    Ours,
    /// `psql -X -q -v ON_ERROR_STOP=1 -d <conninfo>` and the case's args:
    /// what an operator types (ON_ERROR_STOP only turns a failed statement
    /// into a non-zero exit, so that a failure cannot pass for a result).
    Psql,
}

/// One command line to time, without its connection.
#[derive(Debug, Clone)]
pub struct Case {
    pub label: String,
    pub program: Program,
    pub args: Vec<String>,
}

impl Case {
    pub fn ours(label: impl Into<String>, args: &[&str]) -> Case {
        Case {
            label: label.into(),
            program: Program::Ours,
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }

    pub fn psql(label: impl Into<String>, args: &[&str]) -> Case {
        Case {
            label: label.into(),
            program: Program::Psql,
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// What is needed to run a case against one database at one distance.
pub struct Target<'a> {
    pub ours: &'a Path,
    pub psql: &'a Path,
    pub conninfo: String,
    /// The proxy the conninfo goes through, to read its round trips.
    pub proxy: Option<&'a DelayProxy>,
    pub timeout: Duration,
}

impl Target<'_> {
    fn command(&self, case: &Case) -> Command {
        let mut command = match case.program {
            Program::Ours => {
                let mut command = Command::new(self.ours);
                command.env("DATABASE_URL", &self.conninfo);
                command
            }
            Program::Psql => {
                let mut command = Command::new(self.psql);
                command.args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", &self.conninfo]);
                command
            }
        };
        command.args(&case.args);
        // Nothing from the caller's environment may point either program
        // elsewhere or change how it formats (PGHOST, PGOPTIONS, COLUMNS...).
        for (name, _) in std::env::vars_os() {
            let name_text = name.to_string_lossy();
            if name_text.starts_with("PG") || name_text == "COLUMNS" {
                command.env_remove(&name);
            }
        }
        command
    }
}

/// One run's measurements.
#[derive(Debug, Clone)]
pub struct Sample {
    pub ms: f64,
    pub rss_kib: i64,
    /// Round trips of each connection (through the proxy only).
    pub flights: Option<Vec<ConnectionFlights>>,
}

/// Why a run produced no sample.
#[derive(Debug, Clone)]
pub enum RunError {
    /// Killed after the timeout; its server backend was terminated.
    TimedOut(Duration),
    /// Exited non-zero (or by a signal): the first lines of its stderr.
    Failed(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::TimedOut(after) => write!(f, "timed out after {}s", after.as_secs()),
            RunError::Failed(why) => write!(f, "failed: {why}"),
        }
    }
}

/// Runs `case` once. Err(..) is a problem of the harness (cannot spawn,
/// cannot wait); Ok(Err(..)) a run that failed or timed out.
pub fn run_once(
    target: &Target<'_>,
    case: &Case,
    stderr_file: &mut File,
    on_timeout: &dyn Fn(),
) -> Result<std::result::Result<Sample, RunError>> {
    stderr_file
        .set_len(0)
        .context("truncating the stderr file")?;
    stderr_file
        .seek(SeekFrom::Start(0))
        .context("rewinding the stderr file")?;
    let stderr = stderr_file.try_clone().context("cloning the stderr file")?;
    let started = Instant::now();
    let child = target
        .command(case)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(stderr))
        .spawn()
        .with_context(|| format!("starting {}", case.label))?;
    let exit = wait_with_timeout(child.id() as libc::pid_t, target.timeout)
        .with_context(|| format!("waiting for {}", case.label))?;
    let elapsed = exit.at - started;
    if exit.killed {
        // The server goes on with the query of a killed client until it
        // next writes to it: stop it before anything else is measured.
        on_timeout();
        if let Some(proxy) = target.proxy {
            proxy.take_flights(Duration::from_secs(5))?;
        }
        return Ok(Err(RunError::TimedOut(target.timeout)));
    }
    let flights = match target.proxy {
        Some(proxy) => Some(proxy.take_flights(Duration::from_secs(5))?),
        None => None,
    };
    if !libc::WIFEXITED(exit.status) || libc::WEXITSTATUS(exit.status) != 0 {
        return Ok(Err(RunError::Failed(failure(exit.status, stderr_file)?)));
    }
    Ok(Ok(Sample {
        ms: elapsed.as_secs_f64() * 1000.0,
        rss_kib: exit.usage.ru_maxrss,
        flights,
    }))
}

/// How a child ended.
struct Exit {
    /// When it was seen to exit (before reaping: the wall time's end).
    at: Instant,
    status: libc::c_int,
    usage: libc::rusage,
    /// The timeout killed it.
    killed: bool,
}

/// Waits for child `pid`, SIGKILLing it after `timeout`; reaps it with
/// wait4 for its peak RSS.
fn wait_with_timeout(pid: libc::pid_t, timeout: Duration) -> Result<Exit> {
    let exited = Arc::new(Mutex::new(false));
    let killed = Arc::new(Mutex::new(false));
    let (stop_timer, timer_stopped) = std::sync::mpsc::channel::<()>();
    let timer = {
        let exited = Arc::clone(&exited);
        let killed = Arc::clone(&killed);
        std::thread::spawn(move || {
            if timer_stopped.recv_timeout(timeout).is_err() {
                let exited = exited.lock().unwrap_or_else(|p| p.into_inner());
                if !*exited {
                    // SAFETY: the child is not reaped yet (see below), so
                    // pid is still our child's, alive or a zombie.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                    *killed.lock().unwrap_or_else(|p| p.into_inner()) = true;
                }
            }
        })
    };
    // Wait for the exit without reaping (WNOWAIT): until wait4 below, the
    // pid cannot be reused, so the timer can never kill a stranger.
    // SAFETY: an all-zero siginfo_t is a valid value for waitid to fill in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our child; info is a valid pointer.
    let waited = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        )
    };
    let at = Instant::now();
    *exited.lock().unwrap_or_else(|p| p.into_inner()) = true;
    let _ = stop_timer.send(());
    let _ = timer.join();
    if waited != 0 {
        bail!("waitid: {}", std::io::Error::last_os_error());
    }
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own exited child; status and usage are valid.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        bail!("wait4: {}", std::io::Error::last_os_error());
    }
    let killed = *killed.lock().unwrap_or_else(|p| p.into_inner());
    Ok(Exit {
        at,
        status,
        usage,
        killed,
    })
}

/// "exit 4: <the first two lines of stderr>".
fn failure(status: libc::c_int, stderr_file: &File) -> Result<String> {
    let mut text = String::new();
    let mut reader = stderr_file.try_clone().context("cloning the stderr file")?;
    reader
        .seek(SeekFrom::Start(0))
        .context("rewinding the stderr file")?;
    let _ = reader.take(4096).read_to_string(&mut text);
    let code = if libc::WIFEXITED(status) {
        format!("exit {}", libc::WEXITSTATUS(status))
    } else {
        format!("signal {}", libc::WTERMSIG(status))
    };
    let first = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(2)
        .collect::<Vec<_>>()
        .join(" / ");
    Ok(format!("{code}: {first}"))
}

/// The samples of one case, or why it has none.
#[derive(Debug, Clone)]
pub struct Measured {
    pub case: Case,
    pub outcome: std::result::Result<Stats, RunError>,
}

#[derive(Debug, Clone)]
pub struct Stats {
    pub runs: usize,
    pub median: f64,
    pub p10: f64,
    pub p90: f64,
    pub max_rss_kib: i64,
    /// The most frequent round-trip count over the runs (connections,
    /// start-up, total), when the runs went through the proxy.
    pub flights: Option<FlightSummary>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlightSummary {
    pub connections: usize,
    /// Start-up round trips, summed over the connections (None: one never
    /// reached ReadyForQuery).
    pub startup: Option<u32>,
    pub total: u32,
    /// Not every run took the same number.
    pub varied: bool,
}

impl Stats {
    fn of(samples: &[Sample]) -> Stats {
        let mut times: Vec<f64> = samples.iter().map(|s| s.ms).collect();
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        let per_run: Vec<FlightSummary> = samples
            .iter()
            .filter_map(|s| s.flights.as_ref())
            .map(|connections| FlightSummary {
                connections: connections.len(),
                startup: connections.iter().map(|c| c.startup).sum(),
                total: connections.iter().map(|c| c.round_trips).sum(),
                varied: false,
            })
            .collect();
        let flights = per_run
            .iter()
            .max_by_key(|candidate| per_run.iter().filter(|other| other == candidate).count())
            .map(|most| FlightSummary {
                varied: per_run.iter().any(|other| other != most),
                ..*most
            });
        Stats {
            runs: samples.len(),
            median: at(0.5),
            p10: at(0.1),
            p90: at(0.9),
            max_rss_kib: samples.iter().map(|s| s.rss_kib).max().unwrap_or(0),
            flights,
        }
    }
}

/// A psql baseline and the commands of ours compared with it (or none).
#[derive(Debug, Clone)]
pub struct Group {
    pub baseline: Option<Case>,
    pub members: Vec<Case>,
}

#[derive(Debug, Clone)]
pub struct GroupResult {
    pub baseline: Option<Measured>,
    pub members: Vec<Measured>,
}

/// How many runs, and how long one may take.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub warmups: usize,
    pub runs: usize,
    /// A case stops being repeated once its runs (warm-ups included) have
    /// taken this long and it has one measured run: a command that takes
    /// 20 s on the no-index schema is measured, not waited for ten times.
    pub case_budget: Option<Duration>,
}

impl std::fmt::Display for Plan {
    /// "median of 15 runs after 1 warm-up", for the tables' titles.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "median of {} run{} after {} warm-up{}",
            self.runs,
            plural(self.runs),
            self.warmups,
            plural(self.warmups)
        )
    }
}

/// Measures each group side by side: in every round the baseline and then
/// each member once, so that ours and psql see the same moment of the
/// machine (caches, the neighbour's load). A case that fails or times out
/// is not run again.
pub fn measure_groups(
    target: &Target<'_>,
    groups: &[Group],
    plan: Plan,
    on_timeout: &dyn Fn(),
) -> Result<Vec<GroupResult>> {
    let mut stderr_file = tempfile::tempfile().context("creating a file for stderr")?;
    let mut results = Vec::new();
    for group in groups {
        let cases: Vec<&Case> = group.baseline.iter().chain(&group.members).collect();
        let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); cases.len()];
        let mut errors: Vec<Option<RunError>> = vec![None; cases.len()];
        let mut spent = vec![Duration::ZERO; cases.len()];
        for round in 0..plan.warmups + plan.runs {
            for (i, case) in cases.iter().enumerate() {
                let over_budget = plan
                    .case_budget
                    .is_some_and(|budget| spent[i] > budget && !samples[i].is_empty());
                if errors[i].is_some() || over_budget {
                    continue;
                }
                match run_once(target, case, &mut stderr_file, on_timeout)? {
                    Ok(sample) => {
                        spent[i] += Duration::from_secs_f64(sample.ms / 1000.0);
                        if round >= plan.warmups {
                            samples[i].push(sample);
                        }
                    }
                    Err(err) => errors[i] = Some(err),
                }
            }
        }
        let mut measured: Vec<Measured> = cases
            .iter()
            .zip(samples.iter().zip(errors))
            .map(|(case, (samples, error))| Measured {
                case: (*case).clone(),
                outcome: match error {
                    Some(err) => Err(err),
                    None => Ok(Stats::of(samples)),
                },
            })
            .collect();
        let baseline = if group.baseline.is_some() {
            Some(measured.remove(0))
        } else {
            None
        };
        results.push(GroupResult {
            baseline,
            members: measured,
        });
    }
    Ok(results)
}

/// Runs a command once, untimed, and returns its exit code and everything
/// it printed (stdout then stderr).
pub fn capture(target: &Target<'_>, case: &Case) -> Result<(i32, String)> {
    let output = target
        .command(case)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {}", case.label))?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if let Some(proxy) = target.proxy {
        proxy.take_flights(Duration::from_secs(5))?;
    }
    Ok((output.status.code().unwrap_or(-1), text))
}

/// `program` on PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}
