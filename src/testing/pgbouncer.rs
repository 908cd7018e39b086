//! A real PgBouncer in front of a throwaway cluster, for the pooler tests.
//!
//! The point is "PgBouncer as a team runs it": the configuration starts
//! from Debian's default (`/etc/pgbouncer/pgbouncer.ini` as the package
//! ships it) and changes only what a private test instance must — where it
//! listens (127.0.0.1, a free port, a socket in its own directory), its log
//! and pid file, the pool mode, trust authentication for the users a test
//! names, and one `[databases]` line (`* = host=… port=…`) that sends every
//! database to the cluster. Everything else stays the default; in
//! particular `ignore_startup_parameters` is not set, so PgBouncer refuses a
//! client that sends the `options` startup parameter, unless a test passes
//! it among its overrides.
//!
//! Cleanup is the cluster's mechanism (see `sandbox::cluster`): a watchdog
//! shell in a session of its own holds the read end of a pipe that only
//! this process can write. When this process goes away, however it ends,
//! the pipe closes and the watchdog stops PgBouncer (by its pid file) and
//! removes the directory. Dropping a [`Pgbouncer`] stops and reaps it here,
//! then has the watchdog remove the directory.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::sandbox::cluster::spawn_watchdog;

/// Debian's default configuration, as the package installs it.
pub const DEBIAN_DEFAULT_INI: &str = "/etc/pgbouncer/pgbouncer.ini";

/// The server superuser of the throwaway clusters; always in the auth file.
const SUPERUSER: &str = "postgres";

/// On end-of-file: stop PgBouncer (SIGTERM, its immediate shutdown; SIGKILL
/// after 10 s), then remove the directory. `$1` the pid file, `$2` the
/// directory. A PgBouncer still starting has not written its pid file yet:
/// it gets a second look. A first line `stopped` (a normal stop: this
/// process stopped and reaped it) leaves only the directory to remove.
const WATCHDOG_SCRIPT: &str = r#"
trap '' INT QUIT HUP TERM
if IFS= read -r word && [ "$word" = stopped ]; then rm -rf "$2"; exit 0; fi
[ -s "$1" ] || sleep 1
pid=$(cat "$1" 2>/dev/null)
if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null
    n=0
    while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
    kill -KILL "$pid" 2>/dev/null
fi
rm -rf "$2"
"#;

/// `pool_mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolMode {
    Session,
    Transaction,
    Statement,
}

impl PoolMode {
    pub fn as_str(self) -> &'static str {
        match self {
            PoolMode::Session => "session",
            PoolMode::Transaction => "transaction",
            PoolMode::Statement => "statement",
        }
    }
}

/// How to start one: the cluster behind it, the pool mode, overrides of the
/// `[pgbouncer]` section, and the users it lets in besides `postgres`.
#[derive(Debug, Clone)]
pub struct PgbouncerOptions {
    /// The cluster's unix socket directory (or a host name).
    pub server_host: String,
    pub server_port: u16,
    pub pool_mode: PoolMode,
    /// `[pgbouncer]` settings, e.g. `("default_pool_size", "1")`.
    pub settings: Vec<(String, String)>,
    /// Roles allowed in (trust authentication still needs each in the
    /// auth file); `postgres` always is.
    pub users: Vec<String>,
}

impl PgbouncerOptions {
    pub fn new(server_host: impl Into<String>, server_port: u16, mode: PoolMode) -> Self {
        PgbouncerOptions {
            server_host: server_host.into(),
            server_port,
            pool_mode: mode,
            settings: Vec::new(),
            users: Vec::new(),
        }
    }

    pub fn set(mut self, key: &str, value: &str) -> Self {
        self.settings.push((key.to_string(), value.to_string()));
        self
    }

    pub fn user(mut self, name: &str) -> Self {
        self.users.push(name.to_string());
        self
    }
}

/// A running PgBouncer. Dropping it stops it and removes its directory.
#[derive(Debug)]
pub struct Pgbouncer {
    base: PathBuf,
    port: u16,
    mode: PoolMode,
    child: Option<Child>,
    watchdog: Option<(Child, ChildStdin)>,
}

/// `PUSHLEFT_PGBOUNCER`, else `pgbouncer` on PATH, else Debian's
/// `/usr/sbin/pgbouncer`.
pub fn pgbouncer_binary() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("PUSHLEFT_PGBOUNCER") {
        return Ok(PathBuf::from(path));
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join("pgbouncer"))
        .chain([PathBuf::from("/usr/sbin/pgbouncer")])
        .find(|p| p.is_file());
    on_path.context(
        "pgbouncer was not found on PATH or at /usr/sbin/pgbouncer: install it \
         (Debian/Ubuntu: apt-get install pgbouncer; .ci/run does) or set PUSHLEFT_PGBOUNCER",
    )
}

/// PgBouncer refuses to run as root: then it runs as `postgres`, as the
/// clusters do.
fn run_as() -> Result<Option<(nix::unistd::Uid, nix::unistd::Gid)>> {
    if !nix::unistd::geteuid().is_root() {
        return Ok(None);
    }
    match nix::unistd::User::from_name(SUPERUSER).context("looking up the `postgres` user")? {
        Some(user) => Ok(Some((user.uid, user.gid))),
        None => bail!("running as root, and pgbouncer refuses to: create a `postgres` user"),
    }
}

fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

/// Debian's file with our lines: in `[pgbouncer]`, every key we set is
/// commented out where it stands and ours follow the section's header;
/// `[databases]` gets the wildcard line. Sections missing are added.
pub fn configure(default_ini: &str, ours: &[(String, String)], databases: &str) -> String {
    let keys: Vec<String> = ours.iter().map(|(k, _)| k.to_ascii_lowercase()).collect();
    let mut ours_text = String::from("; pushleft-controller test instance:\n");
    for (key, value) in ours {
        let _ = writeln!(ours_text, "{key} = {value}");
    }
    let databases_text = format!("; pushleft-controller test instance:\n{databases}\n");
    let (mut seen_pgbouncer, mut seen_databases) = (false, false);
    let mut section = String::new();
    let mut out = String::new();
    for line in default_ini.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            section = trimmed[1..trimmed.len() - 1].trim().to_ascii_lowercase();
            out.push_str(line);
            out.push('\n');
            if section == "pgbouncer" {
                seen_pgbouncer = true;
                out.push_str(&ours_text);
            } else if section == "databases" {
                seen_databases = true;
                out.push_str(&databases_text);
            }
            continue;
        }
        let key = trimmed
            .split_once('=')
            .map(|(k, _)| k.trim().to_ascii_lowercase());
        let commented = trimmed.starts_with(';') || trimmed.starts_with('#');
        let overridden = match (&key, section.as_str()) {
            (Some(k), "pgbouncer") => keys.contains(k),
            (Some(k), "databases") => k == "*",
            _ => false,
        };
        if !commented && overridden {
            out.push_str("; overridden for the test: ");
        }
        out.push_str(line);
        out.push('\n');
    }
    if !seen_databases {
        out.push_str("[databases]\n");
        out.push_str(&databases_text);
    }
    if !seen_pgbouncer {
        out.push_str("[pgbouncer]\n");
        out.push_str(&ours_text);
    }
    out
}

impl Pgbouncer {
    /// The short form: `extra` are `[pgbouncer]` overrides.
    pub fn start(
        server_host: &Path,
        server_port: u16,
        mode: PoolMode,
        extra: &[(&str, &str)],
    ) -> Result<Pgbouncer> {
        let mut options =
            PgbouncerOptions::new(server_host.display().to_string(), server_port, mode);
        for (key, value) in extra {
            options = options.set(key, value);
        }
        Pgbouncer::start_with(&options)
    }

    /// Starts one; a port taken meanwhile by someone else is retried.
    pub fn start_with(options: &PgbouncerOptions) -> Result<Pgbouncer> {
        let mut last = None;
        for _ in 0..5 {
            match Pgbouncer::try_start(options) {
                Ok(pgbouncer) => return Ok(pgbouncer),
                Err(err) if format!("{err:#}").contains("already in use") => last = Some(err),
                Err(err) => return Err(err),
            }
        }
        Err(last.expect("at least one try"))
    }

    fn try_start(options: &PgbouncerOptions) -> Result<Pgbouncer> {
        let binary = pgbouncer_binary()?;
        let default_ini = std::env::var("PUSHLEFT_PGBOUNCER_INI")
            .unwrap_or_else(|_| DEBIAN_DEFAULT_INI.to_string());
        let default_text = fs::read_to_string(&default_ini).with_context(|| {
            format!("reading PgBouncer's default configuration {default_ini} (apt-get install pgbouncer)")
        })?;
        let run_as = run_as()?;
        let base = tempfile::Builder::new()
            .prefix("pushleft-pgbouncer-")
            .tempdir()
            .context("creating a temporary directory for PgBouncer")?
            // From here on the watchdog owns the directory's removal.
            .keep();
        let mut pgbouncer = Pgbouncer {
            base,
            port: free_port()?,
            mode: options.pool_mode,
            child: None,
            watchdog: None,
        };
        if let Some((uid, gid)) = run_as {
            nix::unistd::chown(&pgbouncer.base, Some(uid), Some(gid))
                .with_context(|| format!("handing {} to postgres", pgbouncer.base.display()))?;
        }
        pgbouncer.spawn_watchdog(run_as)?;
        pgbouncer.write_files(options, &default_text)?;
        let mut cmd = Command::new(&binary);
        cmd.arg("-q")
            .arg(pgbouncer.ini())
            .current_dir(&pgbouncer.base)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some((uid, gid)) = run_as {
            cmd.uid(uid.as_raw()).gid(gid.as_raw());
        }
        let child = cmd
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        pgbouncer.child = Some(child);
        pgbouncer.wait_until_ready()?;
        Ok(pgbouncer)
    }

    fn ini(&self) -> PathBuf {
        self.base.join("pgbouncer.ini")
    }

    fn write_files(&self, options: &PgbouncerOptions, default_text: &str) -> Result<()> {
        let base = self.base.display().to_string();
        let mut ours: Vec<(String, String)> = [
            ("listen_addr", "127.0.0.1".to_string()),
            ("listen_port", self.port.to_string()),
            ("unix_socket_dir", base.clone()),
            ("logfile", format!("{base}/pgbouncer.log")),
            ("pidfile", format!("{base}/pgbouncer.pid")),
            ("pool_mode", options.pool_mode.as_str().to_string()),
            ("auth_type", "trust".to_string()),
            ("auth_file", format!("{base}/userlist.txt")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        for (key, value) in &options.settings {
            ours.retain(|(k, _)| !k.eq_ignore_ascii_case(key));
            ours.push((key.clone(), value.clone()));
        }
        let databases = format!(
            "* = host={} port={}",
            options.server_host, options.server_port
        );
        let ini = configure(default_text, &ours, &databases);
        let mut users = String::new();
        for user in std::iter::once(SUPERUSER).chain(options.users.iter().map(String::as_str)) {
            let _ = writeln!(users, "\"{}\" \"\"", user.replace('"', "\"\""));
        }
        for (name, text) in [("pgbouncer.ini", ini), ("userlist.txt", users)] {
            let path = self.base.join(name);
            fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    }

    fn spawn_watchdog(
        &mut self,
        run_as: Option<(nix::unistd::Uid, nix::unistd::Gid)>,
    ) -> Result<()> {
        let pidfile = self.base.join("pgbouncer.pid");
        let args = [pidfile.as_os_str(), self.base.as_os_str()];
        self.watchdog = Some(spawn_watchdog(
            WATCHDOG_SCRIPT,
            "pushleft-pgbouncer-watchdog",
            &args,
            run_as,
        )?);
        Ok(())
    }

    /// Until the port answers a real query (`SELECT 1` in `postgres`), or
    /// PgBouncer exits, or 20 s pass; then its log says why.
    fn wait_until_ready(&mut self) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut last_error = String::from("not listening yet");
        while Instant::now() < deadline {
            if let Some(child) = self.child.as_mut()
                && let Some(status) = child.try_wait().context("waiting for pgbouncer")?
            {
                bail!(
                    "pgbouncer exited at once ({status}); its log:\n{}",
                    self.log()
                );
            }
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                match postgres::Client::connect(
                    &self.conninfo("postgres", SUPERUSER),
                    postgres::NoTls,
                )
                .and_then(|mut c| c.simple_query("SELECT 1").map(|_| ()))
                {
                    Ok(()) => return Ok(()),
                    Err(err) => last_error = format!("{err:?}"),
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        bail!(
            "pgbouncer did not answer on 127.0.0.1:{} within 20 s ({last_error}); its log:\n{}",
            self.port,
            self.log()
        )
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn pool_mode(&self) -> PoolMode {
        self.mode
    }

    /// The directory of its unix socket (`host=` for a socket connection).
    pub fn socket_dir(&self) -> &Path {
        &self.base
    }

    /// libpq key=value for `dbname` as `user` over TCP.
    pub fn conninfo(&self, dbname: &str, user: &str) -> String {
        format!(
            "host=127.0.0.1 port={} user={user} dbname={dbname}",
            self.port
        )
    }

    /// The same as a `postgresql://` URL.
    pub fn url(&self, dbname: &str, user: &str) -> String {
        format!("postgresql://{user}@127.0.0.1:{}/{dbname}", self.port)
    }

    /// The configuration it runs with.
    pub fn config(&self) -> String {
        fs::read_to_string(self.ini()).unwrap_or_default()
    }

    /// Its log so far (for a failure message).
    pub fn log(&self) -> String {
        fs::read_to_string(self.base.join("pgbouncer.log")).unwrap_or_default()
    }

    /// SIGTERM (PgBouncer's immediate shutdown), reaped here (a zombie
    /// would look alive to the watchdog); SIGKILL after 10 s. Then the
    /// watchdog removes the directory.
    fn shutdown(&mut self) {
        let mut stopped = false;
        if let Some(mut child) = self.child.take() {
            // The shell's kill: the crate's nix has no signal feature.
            let _ = Command::new("/bin/sh")
                .args(["-c", "kill -TERM \"$1\"", "sh", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            stopped = child.wait().is_ok();
        }
        if let Some((mut watchdog, mut stdin)) = self.watchdog.take() {
            if stopped {
                let _ = stdin.write_all(b"stopped\n");
            }
            // End-of-file is the watchdog's signal to clean up.
            drop(stdin);
            let _ = watchdog.wait();
        }
    }
}

/// Dropping it stops it and removes its directory, and waits for both.
impl Drop for Pgbouncer {
    fn drop(&mut self) {
        self.shutdown();
    }
}
