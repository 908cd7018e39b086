//! The differential test: every case runs through `psql` (libpq) and
//! through `pushleft-controller doctor` under the identical environment —
//! a HOME of its own with the case's `.pgpass`, service file and
//! certificates, explicit `PG*` variables, the same connection string —
//! against the throwaway servers of [`world`], and compares where each
//! landed: which server, over TCP (address and port) or a socket, with
//! TLS or not, which database and user; or that neither connected.
//! psql reports it from inside the session (`cluster_name`,
//! `inet_server_addr()`, `inet_server_port()`, `pg_stat_ssl`), the tool
//! in doctor's `reached`. Every output of the tool is scanned for the
//! passwords. Differences the README lists as deliberate are marked on
//! their case; any other fails the test. Only loopback addresses and
//! names from /etc/hosts: no case makes either client ask DNS.

mod cases;
mod cases_pgpass;
mod cases_tls;
mod world;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use world::{PASSWORDS, World};

/// One case: the connection string (psql's argument, the tool's
/// DATABASE_URL), the variables, and the files of its HOME.
#[derive(Default, Clone)]
pub struct Case {
    pub name: String,
    pub conn: Option<String>,
    pub env: Vec<(String, String)>,
    /// `~/.pgpass` (mode 0600 unless `pgpass_mode`).
    pub pgpass: Option<String>,
    pub pgpass_mode: Option<u32>,
    /// `~/.pg_service.conf`.
    pub service: Option<String>,
    /// Other files under HOME: (relative path, content, mode).
    pub files: Vec<(String, String, u32)>,
    /// Why the tool deliberately differs here (README, "Connecting").
    pub deliberate: Option<&'static str>,
}

/// Where a client landed, or `None` when it did not connect.
type Landing = Option<String>;

const QUERY: &str = "SELECT current_setting('cluster_name'), \
     coalesce(host(inet_server_addr()), 'unix'), coalesce(inet_server_port(), 0), \
     coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false), \
     current_database(), current_user";

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `cmd` with a hard limit (a hung client fails the case, never the
/// whole test run): (exit code, stdout, stderr).
fn run_bounded(mut cmd: Command, limit: Duration) -> (i32, String, String) {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting a client");
    let pid = child.id();
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit.saturating_sub(started.elapsed())) {
        Ok(Ok(out)) => (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ),
        _ => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            (-1, String::new(), format!("killed after {limit:?}"))
        }
    }
}

/// A fresh HOME with the case's files.
fn home_for(case: &Case) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let mut files = case.files.clone();
    if let Some(text) = &case.pgpass {
        files.push((
            ".pgpass".into(),
            text.clone(),
            case.pgpass_mode.unwrap_or(0o600),
        ));
    }
    if let Some(text) = &case.service {
        files.push((".pg_service.conf".into(), text.clone(), 0o644));
    }
    for (relative, text, mode) in files {
        let path = home.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    home
}

fn base_command(program: &str, case: &Case, home: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("LANG", "C.UTF-8")
        // No system service file of the machine running the tests.
        .env("PGSYSCONFDIR", home.join("no-sysconf"));
    for (k, v) in &case.env {
        cmd.env(k, in_home(v, home));
    }
    cmd
}

/// `HOME/…` in a case stands for a file under the case's HOME.
fn in_home(text: &str, home: &Path) -> String {
    text.replace("HOME/", &format!("{}/", home.display()))
}

/// psql itself, not Debian's wrapper (which picks a cluster and may set
/// PGPORT or PGHOST of its own).
fn psql_program() -> String {
    let mut found: Vec<_> = glob_psql();
    found.sort();
    found.pop().unwrap_or_else(|| "psql".to_string())
}

fn glob_psql() -> Vec<String> {
    std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin/psql"))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect()
}

fn psql(case: &Case, home: &Path) -> (Landing, String) {
    let mut cmd = base_command(&psql_program(), case, home);
    cmd.args(["-X", "-w", "-A", "-t", "-F", "|", "-c", QUERY]);
    if let Some(conn) = &case.conn {
        cmd.arg(in_home(conn, home));
    }
    let (code, stdout, stderr) = run_bounded(cmd, Duration::from_secs(30));
    if code != 0 {
        return (None, stderr);
    }
    let fields: Vec<&str> = stdout.trim().split('|').collect();
    let [server, addr, port, ssl, db, user] = fields[..] else {
        return (None, format!("unexpected psql output: {stdout}"));
    };
    let transport = if addr == "unix" {
        "unix".to_string()
    } else {
        format!("tcp {addr}:{port}")
    };
    let ssl = if ssl == "t" { "tls" } else { "plain" };
    (
        Some(format!("{server} {transport} {ssl} db={db} user={user}")),
        stdout,
    )
}

fn tool(world: &World, case: &Case, home: &Path) -> (Landing, String) {
    let mut cmd = base_command(env!("CARGO_BIN_EXE_pushleft-controller"), case, home);
    if let Some(conn) = &case.conn {
        cmd.env("DATABASE_URL", in_home(conn, home));
    }
    cmd.args(["doctor", "--output", "json"]);
    let (code, stdout, stderr) = run_bounded(cmd, Duration::from_secs(30));
    let all = format!("exit {code}\nstdout: {stdout}\nstderr: {stderr}");
    for password in PASSWORDS {
        assert!(
            !all.contains(password),
            "{}: the tool printed a password:\n{all}",
            case.name
        );
    }
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&stdout) else {
        return (None, all);
    };
    let r = &json["reached"];
    if r.is_null() {
        return (None, all);
    }
    let port = r["port"].as_u64().unwrap_or(0) as u16;
    let server = world.server_at(r["address"].as_str(), port, r["socket"].as_str());
    let transport = match r["address"].as_str() {
        Some(addr) => format!("tcp {addr}:{port}"),
        None => "unix".to_string(),
    };
    let ssl = if r["tls"] == true { "tls" } else { "plain" };
    let (db, user) = (
        r["database"].as_str().unwrap_or("?"),
        r["user"].as_str().unwrap_or("?"),
    );
    (
        Some(format!("{server} {transport} {ssl} db={db} user={user}")),
        all,
    )
}

/// The verdict of one case: whether psql connected, or a disagreement.
fn compare(world: &World, case: &Case) -> Result<bool, String> {
    let home = home_for(case);
    let (by_psql, psql_says) = psql(case, home.path());
    let (by_tool, tool_says) = tool(world, case, home.path());
    let show = |l: &Landing| l.clone().unwrap_or_else(|| "did not connect".into());
    if std::env::var_os("PUSHLEFT_DIFF_VERBOSE").is_some() {
        eprintln!(
            "{}: psql {} / tool {}\n    psql: {}\n    tool: {}",
            case.name,
            show(&by_psql),
            show(&by_tool),
            psql_says.trim().replace('\n', " "),
            tool_says
                .trim()
                .replace('\n', " ")
                .chars()
                .take(600)
                .collect::<String>()
        );
    }
    if by_psql == by_tool || (case.deliberate.is_some() && by_tool.is_none()) {
        return Ok(by_psql.is_some());
    }
    Err(format!(
        "{}: psql {} / tool {}\n  psql: {}\n  tool: {}",
        case.name,
        show(&by_psql),
        show(&by_tool),
        psql_says.trim(),
        tool_says.trim()
    ))
}

#[test]
fn the_tool_lands_where_psql_lands() {
    for program in ["psql", "openssl"] {
        let found = have(program) || (program == "psql" && !glob_psql().is_empty());
        if !found {
            eprintln!(
                "skipped: `{program}` is not installed (Debian: apt-get install \
                 postgresql-client openssl; .ci/run installs both)"
            );
            return;
        }
    }
    let world = world::start_world();
    let cases = cases::all(&world);
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let mut names = BTreeMap::new();
    for case in &cases {
        assert!(
            names.insert(case.name.clone(), ()).is_none(),
            "duplicate case {}",
            case.name
        );
    }
    let queue = Mutex::new(cases.iter().collect::<Vec<_>>());
    let failures = Mutex::new(Vec::new());
    let connected = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                while let Some(case) = queue.lock().unwrap().pop() {
                    match compare(&world, case) {
                        Ok(true) => {
                            connected.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        Ok(false) => {}
                        Err(why) => failures.lock().unwrap().push(why),
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let connected = connected.into_inner();
    eprintln!(
        "libpq differential: {} cases ({connected} where psql connected), {} disagreements",
        cases.len(),
        failures.len()
    );
    // A harness that connects nowhere would agree with everything.
    assert!(
        connected >= cases.len() / 2,
        "psql connected in only {connected} cases"
    );
    assert!(
        failures.is_empty(),
        "disagreements with psql:\n{}",
        failures.join("\n")
    );
}
