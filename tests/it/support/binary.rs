//! Running the binary under test: a clean environment, what a run did,
//! and scripts run inside a sandbox.

use std::process::{Command, Output};

/// The binary under test, with a clean environment for connecting.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pushleft-controller"));
    for var in [
        "DATABASE_URL",
        "PGHOST",
        "PGPORT",
        "PGUSER",
        "PGDATABASE",
        "PGPASSWORD",
        "PGSSLMODE",
        "PGSERVICE",
        "NO_COLOR",
    ] {
        cmd.env_remove(var);
    }
    cmd.stdin(std::process::Stdio::null());
    cmd
}

/// What a run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Run {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|err| {
            panic!(
                "stdout is not JSON ({err}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// `doctor --output json`: the (status, detail) of the check `name`.
    pub fn doctor_check(&self, name: &str) -> (String, String) {
        let json = self.json();
        let check = json["checks"]
            .as_array()
            .expect("doctor's checks")
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no check {name}: {}", self.stdout))
            .clone();
        (
            check["status"].as_str().expect("a status").to_string(),
            check["detail"].as_str().expect("a detail").to_string(),
        )
    }

    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Run {
        assert_eq!(
            self.code, code,
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

/// What a script run inside a sandbox wrote: the directory it got as `$1`.
pub struct SandboxScript {
    dir: tempfile::TempDir,
}

impl SandboxScript {
    /// What the script wrote to `name` in its directory.
    pub fn text(&self, name: &str) -> String {
        let path = self.dir.path().join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    }

    /// The JSON document the script wrote to `name` in its directory.
    pub fn json(&self, name: &str) -> serde_json::Value {
        let path = self.dir.path().join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        serde_json::from_slice(&bytes).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    }
}

/// Runs `script` (sh; `$1` is a fresh directory for what it writes) as
/// `sandbox FLAGS -- sh -c SCRIPT`, and asserts that it exited 0.
pub fn in_sandbox(flags: &[&str], script: &str) -> SandboxScript {
    let dir = tempfile::tempdir().expect("a directory for the script");
    let run = bin()
        .arg("sandbox")
        .args(flags)
        .args(["--", "sh", "-c", script, "sh"])
        .arg(dir.path())
        .output()
        .expect("running the sandbox");
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    SandboxScript { dir }
}
