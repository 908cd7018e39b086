//! What only the tests (and the benchmark) use of the throwaway cluster: a
//! hot standby, stopping and restarting the server, files for the server.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, Result};

use crate::sandbox::cluster::{Cluster, ClusterOptions, DEFAULT_PORT, SUPERUSER};

impl Cluster {
    /// A hot standby of `primary`: `pg_basebackup -R` over the primary's
    /// socket (its default `local replication all trust` line lets the
    /// superuser replicate), then started with `hot_standby = on`, so it
    /// answers read-only queries and replays what the primary writes. The
    /// same watchdog cleans it up.
    pub fn start_standby_of(primary: &Cluster) -> Result<Cluster> {
        let base = tempfile::Builder::new()
            .prefix("pushleft-pg-standby-")
            .tempdir()
            .context("creating a temporary directory for the throwaway standby")?
            .keep();
        let mut cluster = Cluster {
            data: base.join("data"),
            base,
            bin_dir: primary.bin_dir.clone(),
            port: DEFAULT_PORT,
            tcp_port: None,
            run_as: primary.run_as,
            watchdog: None,
        };
        if let Some((uid, gid)) = cluster.run_as {
            nix::unistd::chown(&cluster.base, Some(uid), Some(gid)).with_context(|| {
                format!("handing {} to the postgres user", cluster.base.display())
            })?;
        }
        cluster.spawn_watchdog()?;
        let mut cmd = cluster.command("pg_basebackup");
        cmd.arg("-D")
            .arg(&cluster.data)
            .arg("-h")
            .arg(primary.socket_dir())
            .arg("-p")
            .arg(primary.port().to_string())
            .args(["-U", SUPERUSER, "-R", "-X", "stream", "--checkpoint=fast"]);
        cluster.run(cmd, "pg_basebackup")?;
        // The copied postgresql.conf names the primary's socket and port;
        // the lines appended here come later and win.
        cluster.configure(&ClusterOptions {
            tcp_port: None,
            extra_conf: vec!["hot_standby = on".to_string()],
            extra_hba: Vec::new(),
        })?;
        cluster.pg_ctl_start()?;
        Ok(cluster)
    }

    /// Stops the server but keeps its files (`start_server` brings it back):
    /// for tests of what the tool does when its server goes away.
    pub fn stop_server(&self) -> Result<()> {
        let mut cmd = self.command("pg_ctl");
        cmd.arg("-D")
            .arg(&self.data)
            .args(["-m", "fast", "-w", "-t", "60", "stop"]);
        self.run(cmd, "pg_ctl stop")
    }

    /// Starts the server again after [`Cluster::stop_server`].
    pub fn start_server(&self) -> Result<()> {
        self.pg_ctl_start()
    }
}

/// Makes a file readable by the server's user (certificates for TLS tests).
pub fn hand_to_server(cluster: &Cluster, path: &Path, mode: u32) -> Result<()> {
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .with_context(|| format!("chmod {}", path.display()))?;
    if let Some((uid, gid)) = cluster.run_as {
        nix::unistd::chown(path, Some(uid), Some(gid))
            .with_context(|| format!("chown {}", path.display()))?;
    }
    Ok(())
}
