//! A throwaway PostgreSQL cluster: initdb + postgres on a private unix socket
//! in a temporary directory.
//!
//! One mechanism serves the sandbox and the test harness. Cleanup must not
//! depend on this process ending politely (Ctrl-C, a panic, a failed test,
//! SIGKILL), so every cluster comes with a *watchdog*: a tiny shell process
//! that holds the read end of a pipe whose write end only this process has.
//! When this process goes away for whatever reason, the pipe closes and the
//! watchdog stops the server and deletes the directory. A normal stop uses
//! the very same path: close the pipe, wait for the watchdog.

use std::fs;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use anyhow::{Context, Result, bail};

/// The port number of the socket file; the socket directory is private, so
/// any number works and the default avoids surprises.
pub(crate) const DEFAULT_PORT: u16 = 5432;
pub(crate) const SUPERUSER: &str = "postgres";

/// Runs the server's cleanup when its stdin reaches end-of-file, unless the
/// first line is `keep` (see [`Cluster::keep`]).
const WATCHDOG_SCRIPT: &str = r#"
trap '' INT QUIT HUP TERM
if IFS= read -r word && [ "$word" = keep ]; then exit 0; fi
"$1/pg_ctl" -D "$2" -m fast -w -t 20 stop >/dev/null 2>&1 ||
    "$1/pg_ctl" -D "$2" -m immediate -w -t 20 stop >/dev/null 2>&1
rm -rf "$3"
"#;

/// How to start a cluster.
#[derive(Debug, Clone, Default)]
pub struct ClusterOptions {
    /// Also listen on 127.0.0.1 at this TCP port (the default is unix socket
    /// only).
    pub tcp_port: Option<u16>,
    /// Extra `postgresql.conf` lines (e.g. ssl settings).
    pub extra_conf: Vec<String>,
    /// Extra `pg_hba.conf` lines, placed before the default trust rules.
    pub extra_hba: Vec<String>,
}

/// A running throwaway cluster. Dropping it stops the server and deletes its
/// directory.
#[derive(Debug)]
pub struct Cluster {
    pub(crate) base: PathBuf,
    pub(crate) data: PathBuf,
    pub(crate) bin_dir: PathBuf,
    pub(crate) port: u16,
    pub(crate) tcp_port: Option<u16>,
    pub(crate) run_as: Option<(nix::unistd::Uid, nix::unistd::Gid)>,
    pub(crate) watchdog: Option<(Child, ChildStdin)>,
}

/// Where the PostgreSQL server binaries are: `PUSHLEFT_PG_BIN`, else next to
/// `initdb` on PATH, else the newest `/usr/lib/postgresql/*/bin`.
pub fn server_bin_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("PUSHLEFT_PG_BIN") {
        let dir = PathBuf::from(dir);
        if dir.join("initdb").is_file() {
            return Ok(dir);
        }
        bail!("PUSHLEFT_PG_BIN={} has no initdb in it", dir.display());
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let initdb = dir.join("initdb");
            if initdb.is_file() {
                // Follow links such as /usr/local/bin/initdb so that postgres
                // and pg_ctl come from the same installation.
                let real = fs::canonicalize(&initdb).unwrap_or(initdb);
                if let Some(parent) = real.parent()
                    && parent.join("pg_ctl").is_file()
                    && parent.join("postgres").is_file()
                {
                    return Ok(parent.to_path_buf());
                }
            }
        }
    }
    let mut candidates: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    candidates.sort();
    match candidates.pop() {
        Some((_, bin)) => Ok(bin),
        None => bail!(
            "the PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found on PATH \
             or in /usr/lib/postgresql/*/bin; install them (Debian/Ubuntu: apt-get install \
             postgresql) or set PUSHLEFT_PG_BIN to their directory"
        ),
    }
}

/// initdb refuses to run as root; then the server runs as the unprivileged
/// `postgres` user.
fn unprivileged_user() -> Result<Option<(nix::unistd::Uid, nix::unistd::Gid)>> {
    if !nix::unistd::geteuid().is_root() {
        return Ok(None);
    }
    match nix::unistd::User::from_name(SUPERUSER).context("looking up the `postgres` user")? {
        Some(user) => Ok(Some((user.uid, user.gid))),
        None => bail!(
            "running as root, and initdb refuses to run as root: create an unprivileged \
             `postgres` user (useradd --system postgres) or run as a normal user"
        ),
    }
}

impl Cluster {
    /// initdb, configure, start, wait until it accepts connections.
    pub fn start(options: &ClusterOptions) -> Result<Cluster> {
        let bin_dir = server_bin_dir()?;
        let run_as = unprivileged_user()?;
        let base = tempfile::Builder::new()
            .prefix("pushleft-pg-")
            .tempdir()
            .context("creating a temporary directory for the throwaway PostgreSQL")?
            // From here on the watchdog owns the directory's removal.
            .keep();
        let mut cluster = Cluster {
            data: base.join("data"),
            base,
            bin_dir,
            port: DEFAULT_PORT,
            tcp_port: options.tcp_port,
            run_as,
            watchdog: None,
        };
        if let Some((uid, gid)) = run_as {
            nix::unistd::chown(&cluster.base, Some(uid), Some(gid)).with_context(|| {
                format!("handing {} to the postgres user", cluster.base.display())
            })?;
        }
        // The watchdog first: whatever fails below, the directory goes away.
        cluster.spawn_watchdog()?;
        cluster.initdb()?;
        cluster.configure(options)?;
        cluster.pg_ctl_start()?;
        Ok(cluster)
    }

    pub(crate) fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(self.bin_dir.join(program));
        cmd.current_dir(&self.base)
            .stdin(Stdio::null())
            .env_remove("PGDATA")
            .env("LC_ALL", "C");
        // A process group of its own: Ctrl-C at the terminal goes to the
        // operator's command, not to the server; we stop it in order.
        cmd.process_group(0);
        if let Some((uid, gid)) = self.run_as {
            cmd.uid(uid.as_raw()).gid(gid.as_raw());
        }
        cmd
    }

    pub(crate) fn spawn_watchdog(&mut self) -> Result<()> {
        let args = [
            self.bin_dir.as_os_str(),
            self.data.as_os_str(),
            self.base.as_os_str(),
        ];
        self.watchdog = Some(spawn_watchdog(
            WATCHDOG_SCRIPT,
            "pushleft-watchdog",
            &args,
            self.run_as,
        )?);
        Ok(())
    }

    pub(crate) fn run(&self, mut cmd: Command, what: &str) -> Result<()> {
        let output = cmd.output().with_context(|| format!("running {what}"))?;
        if !output.status.success() {
            bail!(
                "{what} failed ({}):\n{}{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        Ok(())
    }

    fn initdb(&self) -> Result<()> {
        let mut cmd = self.command("initdb");
        cmd.arg("-D").arg(&self.data).args([
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        ]);
        self.run(cmd, "initdb")
    }

    pub(crate) fn configure(&self, options: &ClusterOptions) -> Result<()> {
        let listen = if options.tcp_port.is_some() {
            "127.0.0.1"
        } else {
            ""
        };
        let mut conf = format!(
            "\n# pushleft-controller throwaway cluster\n\
             listen_addresses = '{listen}'\n\
             port = {port}\n\
             unix_socket_directories = '{socket}'\n\
             fsync = off\n\
             synchronous_commit = off\n\
             full_page_writes = off\n\
             max_connections = 300\n\
             shared_buffers = 128MB\n\
             max_wal_senders = 4\n\
             wal_level = replica\n\
             log_min_messages = warning\n",
            port = options.tcp_port.unwrap_or(self.port),
            socket = self.base.display(),
        );
        for line in &options.extra_conf {
            conf.push_str(line);
            conf.push('\n');
        }
        append(&self.data.join("postgresql.conf"), &conf)?;
        if !options.extra_hba.is_empty() {
            let hba_path = self.data.join("pg_hba.conf");
            let existing = fs::read_to_string(&hba_path)
                .with_context(|| format!("reading {}", hba_path.display()))?;
            let mut hba = options.extra_hba.join("\n");
            hba.push('\n');
            hba.push_str(&existing);
            fs::write(&hba_path, hba).with_context(|| format!("writing {}", hba_path.display()))?;
        }
        Ok(())
    }

    pub(crate) fn pg_ctl_start(&self) -> Result<()> {
        let log = self.base.join("postgres.log");
        let mut cmd = self.command("pg_ctl");
        cmd.arg("-D")
            .arg(&self.data)
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "60", "start"]);
        self.run(cmd, "pg_ctl start").map_err(|err| {
            let tail = fs::read_to_string(&log).unwrap_or_default();
            err.context(format!(
                "the throwaway PostgreSQL did not start; its log:\n{tail}"
            ))
        })
    }

    /// The directory of the unix socket (libpq's `host`).
    pub fn socket_dir(&self) -> &Path {
        &self.base
    }

    /// The temporary directory that holds everything of this cluster.
    pub fn base_dir(&self) -> &Path {
        &self.base
    }

    pub fn data_dir(&self) -> &Path {
        &self.data
    }

    pub fn bin_dir(&self) -> &Path {
        &self.bin_dir
    }

    /// The port of the unix socket (and of TCP, when listening on it).
    pub fn port(&self) -> u16 {
        self.tcp_port.unwrap_or(self.port)
    }

    pub fn superuser(&self) -> &str {
        SUPERUSER
    }

    /// A libpq key=value connection string for `dbname` over the socket.
    pub fn conninfo(&self, dbname: &str) -> String {
        format!(
            "host={} port={} user={} dbname={}",
            self.base.display(),
            self.port(),
            SUPERUSER,
            dbname
        )
    }

    /// The same as a `postgresql://` URL (the socket directory as `host=`).
    pub fn url(&self, dbname: &str) -> String {
        format!(
            "postgresql://{SUPERUSER}@/{dbname}?host={}&port={}",
            self.base.display(),
            self.port()
        )
    }

    /// Leaves the server running after this process ends. Returns the
    /// command that stops it and removes its directory.
    pub fn keep(mut self) -> String {
        if let Some((mut child, mut stdin)) = self.watchdog.take() {
            let _ = stdin.write_all(b"keep\n");
            drop(stdin);
            let _ = child.wait();
        }
        let pg_ctl = self.bin_dir.join("pg_ctl");
        let stop = format!(
            "{} -D {} -m fast stop && rm -rf {}",
            pg_ctl.display(),
            self.data.display(),
            self.base.display()
        );
        let stop = if self.run_as.is_some() {
            format!("runuser -u {SUPERUSER} -- {stop}")
        } else {
            stop
        };
        // Nothing left for Drop to do.
        self.base = PathBuf::new();
        stop
    }

    /// Stops the server and removes its directory; waits until both are done.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some((mut child, stdin)) = self.watchdog.take() {
            // End-of-file is the watchdog's signal to clean up.
            drop(stdin);
            let _ = child.wait();
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn append(path: &Path, text: &str) -> Result<()> {
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

/// Starts a cleanup watchdog: `script` run by `/bin/sh` as `name` with
/// `args`, in a session of its own, not only a process group (whatever
/// stops this process together with its session or group, a terminal
/// hang-up, a job-control kill, must not take the watchdog along), as
/// `run_as` when given. It watches the returned stdin pipe: when this
/// process ends, the pipe closes and the script cleans up.
pub(crate) fn spawn_watchdog(
    script: &str,
    name: &str,
    args: &[&std::ffi::OsStr],
    run_as: Option<(nix::unistd::Uid, nix::unistd::Gid)>,
) -> Result<(Child, ChildStdin)> {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(script)
        .arg(name)
        .args(args)
        .current_dir("/")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe; nothing else runs here.
    unsafe {
        cmd.pre_exec(|| {
            nix::unistd::setsid()
                .map(|_| ())
                .map_err(std::io::Error::from)
        });
    }
    if let Some((uid, gid)) = run_as {
        cmd.uid(uid.as_raw()).gid(gid.as_raw());
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("starting the cleanup watchdog {name} (/bin/sh)"))?;
    let stdin = child
        .stdin
        .take()
        .with_context(|| format!("the cleanup watchdog {name} has no stdin pipe"))?;
    Ok((child, stdin))
}
