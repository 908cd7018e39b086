//! Whole-process runs: a case (which program, its arguments) against a
//! target, wall time from spawn to exit, peak RSS from `wait4`, the round
//! trips the proxy saw, and a timeout that kills a run (and the
//! server backend it left running) instead of waiting for ever.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use pushleft_controller::testing::proxy::{Flights, Proxy};

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
    pub proxy: Option<&'a Proxy>,
    pub timeout: Duration,
}

impl Target<'_> {
    pub fn command(&self, case: &Case) -> Command {
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
    pub flights: Option<Vec<Flights>>,
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
            proxy.take(Duration::from_secs(5))?;
        }
        return Ok(Err(RunError::TimedOut(target.timeout)));
    }
    let flights = match target.proxy {
        Some(proxy) => Some(proxy.take(Duration::from_secs(5))?),
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
