//! Two-person break-glass (README, "Two-person break-glass"): a plan made
//! with `--plan-out` (nothing written), reviewed, and applied with
//! `--apply` — only on the cluster and database it was made on, before it
//! expires, held to its fingerprints, and under `PUSHLEFT_REQUIRE_APPROVAL=1`
//! only by someone else. "Someone else" here is honest: the tests run as
//! root, and the applier is the binary run as the `postgres` OS user
//! (`runuser`), which `db::connect::os_user()` (the effective uid's name)
//! reports as such.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{Run, TestDb};

mod apply;
mod hostile;
mod limits;
mod pace;
mod plan;
mod server;
mod signals;

/// A plan file in a directory of its own, readable by the other user.
pub struct PlanFile {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl PlanFile {
    pub fn arg(&self) -> &str {
        self.path.to_str().unwrap()
    }
}

/// A directory for a plan that the `postgres` user can read.
pub fn plan_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("plan.json");
    (dir, path)
}

/// `fail-safely <targets> --reason R --plan-out FILE -o json` as this
/// process's user; the plan written, readable by everyone.
pub fn make_plan(db: &TestDb, targets: &[&str], extra: &[&str]) -> (PlanFile, Value) {
    let (dir, path) = plan_dir();
    let mut args = vec!["fail-safely"];
    args.extend_from_slice(targets);
    args.extend([
        "--reason",
        "INC-26 two people",
        "--plan-out",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    args.extend_from_slice(extra);
    let run = db.run(&args);
    run.assert_code(0);
    let printed = run.json();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    (PlanFile { _dir: dir, path }, printed)
}

/// `n` deployments stranded on edge-07 (`strand_on_edge_07`), and a
/// batch file naming each, a line each.
pub fn stranded_batch(db: &TestDb, n: u32) -> tempfile::NamedTempFile {
    use std::io::Write as _;
    crate::support::strand_on_edge_07(db, n);
    let mut batch = tempfile::NamedTempFile::new().unwrap();
    for g in 1..=n {
        writeln!(batch, "e{g:07x}-0000-4000-8000-000000000000").unwrap();
    }
    batch
}

/// Whether the tests can run the binary as another OS user.
pub fn other_user_available() -> bool {
    let root = nix::unistd::geteuid().is_root();
    let runuser = Path::new("/usr/sbin/runuser").exists() || Path::new("/sbin/runuser").exists();
    if !(root && runuser) {
        eprintln!("skipped: running as another OS user needs root and runuser");
    }
    root && runuser
}

/// The binary as the `postgres` OS user, pointed at `db` (the same
/// database role: only the OS user differs).
pub fn as_postgres(db_conninfo: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new("runuser");
    cmd.args(["-u", "postgres", "--"])
        .arg(env!("CARGO_BIN_EXE_pushleft-controller"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", db_conninfo)
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    Run::from(
        cmd.output()
            .expect("running pushleft-controller as postgres"),
    )
}

/// The status of a deployment now.
pub fn status_of(db: &TestDb, id: &str) -> String {
    db.client()
        .query_one(
            "SELECT status FROM deployments WHERE id = $1::text::uuid",
            &[&id],
        )
        .unwrap()
        .get(0)
}

/// Every key anywhere in `value`.
pub fn keys(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}
