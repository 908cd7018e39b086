//! The command-line habits operators expect: the same table in a pipe as
//! on a terminal, short help, the version, completion from the database
//! and `--show-sql`.

mod accepted_back;
mod completion;
mod help;
mod hostile_names;
mod paged;
mod piped;
mod show_sql;
mod tired;
mod typed_back;

use std::process::{Command, Stdio};

/// Runs the binary in a pseudo-terminal of 80×24 with `env`; returns what
/// the terminal received (stdout and stderr both, `\r\n` as `\n`).
pub fn on_terminal(env: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "stty cols 80 rows 24 && exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_pushleft-controller"),
    ])
    .args(args);
    for var in [
        "PGHOST",
        "PGPORT",
        "PGUSER",
        "PGDATABASE",
        "NO_COLOR",
        "COLUMNS",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied())
        .env("TERM", "xterm")
        // The screen's pager would hold a tall table on the terminal.
        .env("PAGER", "cat")
        .stdin(Stdio::inherit());
    let mut session = rexpect::session::spawn_command(cmd, Some(60_000)).expect("a pty");
    // rexpect hands each byte over as one char: make it UTF-8 again.
    let bytes: Vec<u8> = session
        .exp_eof()
        .expect("the command ends")
        .chars()
        .map(|c| c as u8)
        .collect();
    let _ = session.process().wait();
    String::from_utf8_lossy(&bytes).replace("\r\n", "\n")
}
