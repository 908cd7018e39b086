//! Completion of hostile names in real interactive shells (README, "Shell
//! completions and man pages"): bash, zsh and fish in tmux, each with a
//! clean rc and the committed script, and a `pushleft-controller` on PATH
//! that asks the binary under test when completing and otherwise only
//! writes down the arguments it got. Tab then Enter on a name holding a
//! command, a glob, a space or a quote must give the tool that name
//! exactly and run nothing; a name with a newline is not offered. A shell
//! missing here is skipped with a word (`.ci/run` installs all three).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::TestDb;

/// (typed prefix, the name in the database, what the tool must get).
const NODES: &[(&str, &str, &str)] = &[
    ("semi", "semi;touch pwned-semi", "semi;touch pwned-semi"),
    (
        "subst",
        "subst$(touch pwned-subst)",
        "subst$(touch pwned-subst)",
    ),
    ("tick", "tick`touch pwned-tick`", "tick`touch pwned-tick`"),
    (
        "andand",
        "andand && touch pwned-and #",
        "andand && touch pwned-and #",
    ),
    ("star", "star*", "star*"),
    ("spaced", "spaced name", "spaced name"),
    ("quote", "quote'name", "quote'name"),
    // Cannot be quoted safely: not offered, so the tool gets what was typed.
    // Split at the newline, it would be two names, `newline-` in common.
    ("newline", "newline-a\nnewline-b", "newline"),
    ("ctl", "ctl\u{1b}]0;title\u{7}", "ctl"),
    // Partly typed in quotes: dequoted before matching, and completed.
    ("'qt", "qt-typed'", "qt-typed'"),
    ("\"dq", "dq $(touch pwned-dq)", "dq $(touch pwned-dq)"),
];
const POOL: (&str, &str) = ("poolx", "poolx;touch pwned-pool");

fn have(shell: &str) -> bool {
    let found = Command::new(shell)
        .args(["-c", "exit 0"])
        .status()
        .is_ok_and(|s| s.success())
        && Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: no {shell} or no tmux on this machine (.ci/run installs them)");
    }
    found
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One shell in a tmux server of its own, in a directory of its own.
struct Shell {
    dir: tempfile::TempDir,
}

impl Shell {
    fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }
    fn argv_file(&self) -> PathBuf {
        self.dir.path().join("argv")
    }
    fn calls_file(&self) -> PathBuf {
        self.dir.path().join("calls")
    }

    fn start(db: &TestDb, argv: &[&str]) -> Shell {
        let shell = Shell {
            dir: tempfile::tempdir().unwrap(),
        };
        let (bin, work) = (shell.dir.path().join("bin"), shell.work());
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        // A file `star*` would glob to, were it left unquoted.
        std::fs::write(work.join("star-file"), "").unwrap();
        let wrapper = format!(
            "#!/bin/sh\n\
             if [ -n \"$COMPLETE\" ]; then echo >> '{calls}'; exec '{real}' \"$@\"; fi\n\
             printf '%s\\0' \"$@\" > '{argv}.tmp' && mv '{argv}.tmp' '{argv}'\n",
            calls = shell.calls_file().display(),
            real = env!("CARGO_BIN_EXE_pushleft-controller"),
            argv = shell.argv_file().display(),
        );
        let path = bin.join("pushleft-controller");
        std::fs::write(&path, wrapper).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let home = shell.dir.path().display().to_string();
        let mut cmd = shell.tmux();
        cmd.args([
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            "200",
            "-y",
            "50",
            "-c",
        ])
        .arg(&work)
        .args(["-e", &format!("DATABASE_URL={}", db.conninfo)])
        .args(["-e", &format!("HOME={home}"), "-e", "TERM=xterm"])
        .args(["-e", &format!("XDG_CONFIG_HOME={home}/config")])
        .args(["-e", &format!("XDG_DATA_HOME={home}/data")])
        // tmux sets PATH from its client's: `env` sets ours.
        .arg("env")
        .arg(format!("PATH={}:/usr/bin:/bin", bin.display()))
        .args(argv);
        assert!(cmd.status().unwrap().success(), "tmux new-session");
        shell
    }

    fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-S").arg(self.dir.path().join("socket"));
        for var in [
            "DATABASE_URL",
            "PGSERVICE",
            "TMUX",
            "COMPLETE",
            "ENV",
            "BASH_ENV",
        ] {
            cmd.env_remove(var);
        }
        cmd
    }

    fn keys(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "t"])
            .args(keys)
            .status();
        assert!(status.unwrap().success(), "tmux send-keys");
    }

    fn screen(&self) -> String {
        let out = self.tmux().args(["capture-pane", "-p", "-t", "t"]).output();
        String::from_utf8_lossy(&out.unwrap().stdout).into_owned()
    }

    /// Polls `ready` every 50 ms for at most `limit`.
    #[track_caller]
    fn wait(&self, what: &str, limit: Duration, ready: impl Fn(&Shell) -> bool) {
        let start = Instant::now();
        while !ready(self) {
            assert!(
                start.elapsed() < limit,
                "waited {limit:?} for {what}:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `line` in the shell and waits for it to have run.
    fn run(&self, line: &str) {
        self.keys(&["-l", &format!("{line}; echo RE''ADY")]);
        self.keys(&["Enter"]);
        let ready = |s: &Shell| s.screen().lines().any(|l| l.trim_end() == "READY");
        self.wait("the shell to run its setup", Duration::from_secs(20), ready);
        self.keys(&["-l", "clear"]);
        self.keys(&["Enter"]);
        let cleared = |s: &Shell| !s.screen().contains("READY");
        self.wait("the screen to clear", Duration::from_secs(10), cleared);
    }

    fn calls(&self) -> usize {
        std::fs::read_to_string(self.calls_file()).map_or(0, |s| s.lines().count())
    }

    /// Types `line`, Tab, waits for the completion and a still screen,
    /// then Enter: the arguments the tool received.
    fn tab_enter(&self, line: &str) -> Vec<String> {
        let _ = std::fs::remove_file(self.argv_file());
        let before = self.calls();
        self.keys(&["-l", line]);
        self.keys(&["Tab"]);
        let asked = |s: &Shell| s.calls() > before;
        self.wait("the completion to be asked", Duration::from_secs(10), asked);
        self.settle();
        self.keys(&["Enter"]);
        let ran = |s: &Shell| s.argv_file().exists();
        self.wait("the tool to run", Duration::from_secs(10), ran);
        let argv = std::fs::read(self.argv_file()).unwrap();
        let argv = String::from_utf8(argv).unwrap();
        argv.split_terminator('\0').map(str::to_string).collect()
    }

    /// Until the screen has not changed for 300 ms (5 s at most).
    fn settle(&self) {
        let start = Instant::now();
        let (mut last, mut since) = (self.screen(), Instant::now());
        while since.elapsed() < Duration::from_millis(300)
            && start.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(50));
            let now = self.screen();
            if now != last {
                (last, since) = (now, Instant::now());
            }
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").output();
    }
}

fn plant(db: &TestDb) {
    let mut client = db.client();
    let insert = "INSERT INTO fleet_nodes (id, name, pool, status, slots) \
                  VALUES (gen_random_uuid(), $1, $2, 'online', 1)";
    for (_, name, _) in NODES {
        client.execute(insert, &[name, &"edge"]).unwrap();
    }
    client.execute(insert, &[&"pool-holder", &POOL.1]).unwrap();
}

/// Every hostile name through Tab and Enter in one shell.
fn check(shell_name: &str, argv: &[&str], setup: &str) {
    if !have(shell_name) {
        return;
    }
    let db = TestDb::scenarios();
    plant(&db);
    let shell = Shell::start(&db, argv);
    shell.run(setup);
    let mut cases: Vec<(String, &str)> = NODES
        .iter()
        .map(|(typed, _, want)| (format!("pushleft-controller stuck --node {typed}"), *want))
        .collect();
    cases.push((
        format!("pushleft-controller stuck --pool {}", POOL.0),
        POOL.1,
    ));
    for (line, want) in cases {
        let got = shell.tab_enter(&line);
        let flag = line.split_whitespace().nth(2).unwrap_or_default();
        assert_eq!(
            got,
            ["stuck", flag, want],
            "{shell_name}: {line}\n{}",
            shell.screen()
        );
    }
    let files = list(&shell.work());
    assert_eq!(files, ["star-file"], "{shell_name}: something ran");
}

fn list(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

#[test]
fn bash_tab_offers_hostile_names_quoted_and_runs_nothing() {
    let script = repo().join("completions/pushleft-controller.bash");
    let setup = format!("source '{}'", script.display());
    check("bash", &["bash", "--norc", "--noprofile"], &setup);
}

#[test]
fn zsh_tab_offers_hostile_names_quoted_and_runs_nothing() {
    let fpath = repo().join("completions");
    let setup = format!(
        "fpath=('{}' $fpath); autoload -U compinit; compinit -u -D",
        fpath.display()
    );
    check("zsh", &["zsh", "-f"], &setup);
}

#[test]
fn fish_tab_offers_hostile_names_quoted_and_runs_nothing() {
    let script = repo().join("completions/pushleft-controller.fish");
    let setup = format!("source '{}'", script.display());
    check("fish", &["fish", "--no-config"], &setup);
}
