//! The shell `sandbox` opens when it is given no command (README, "A tour of
//! the sandbox"): its prompt says sandbox, so that a terminal left open
//! for an hour is never taken for one pointed at production. The shell's
//! own start-up files still run (aliases, history); the prompt is set
//! after them, in front of the operator's own:
//! - bash: `--rcfile` with a file that sources `~/.bashrc`, then `PS1`;
//! - zsh: `ZDOTDIR` at a `.zshrc` that sources the operator's, then
//!   `PROMPT` (and `ZDOTDIR` back as it was, for shells started inside);
//! - fish: `--init-command`, run after its configuration: a `fish_prompt`
//!   that prints the mark before the operator's;
//! - any other shell: `PS1` in its environment (sh, dash and ksh read it).
//!
//! A shell that ignores all of that still has the banner printed before it.

use std::path::Path;

use anyhow::{Context, Result};

/// What the prompt starts with.
pub const MARK: &str = "(pushleft sandbox)";

/// The shell to run: program, arguments, variables, and the directory its
/// start-up file lives in (deleted when this is dropped, after the shell).
pub struct Shell {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    _files: Option<tempfile::TempDir>,
}

impl Shell {
    /// `sandbox -- CMD ARGS`: run as it is, nothing added.
    pub fn command(program: &str, args: &[String]) -> Shell {
        Shell {
            program: program.to_string(),
            args: args.to_vec(),
            env: Vec::new(),
            _files: None,
        }
    }
}

/// The start-up file bash reads (`--rcfile`).
fn bashrc() -> String {
    format!("[ -f ~/.bashrc ] && . ~/.bashrc\nPS1=\"{MARK} ${{PS1:-\\$ }}\"\n")
}

/// The `.zshrc` zsh reads from our `ZDOTDIR`; `PUSHLEFT_ZDOTDIR` is the
/// operator's (empty: the home directory).
fn zshrc() -> String {
    format!(
        "if [ -n \"$PUSHLEFT_ZDOTDIR\" ]; then ZDOTDIR=\"$PUSHLEFT_ZDOTDIR\"; else unset ZDOTDIR; fi\n\
         unset PUSHLEFT_ZDOTDIR\n\
         [ -f \"${{ZDOTDIR:-$HOME}}/.zshrc\" ] && . \"${{ZDOTDIR:-$HOME}}/.zshrc\"\n\
         PROMPT=\"{MARK} ${{PROMPT:-%# }}\"\n"
    )
}

/// fish's `--init-command`: the operator's prompt kept under another name
/// and called after the mark.
fn fish_init() -> String {
    format!(
        "functions -q fish_prompt; and functions -c fish_prompt __pushleft_operator_prompt; \
         function fish_prompt; printf '%s ' '{MARK}'; \
         functions -q __pushleft_operator_prompt; and __pushleft_operator_prompt; \
         or printf '> '; end"
    )
}

/// The interactive shell `program` (a path, from `SHELL`), its prompt
/// marked as the sandbox's.
pub fn interactive(program: &str) -> Result<Shell> {
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut shell = Shell {
        program: program.to_string(),
        args: Vec::new(),
        env: vec![("PS1".into(), format!("{MARK} $ "))],
        _files: None,
    };
    match name.as_str() {
        "bash" => {
            let dir = tempfile::tempdir().context("a directory for the shell's prompt")?;
            let rc = dir.path().join("bashrc");
            std::fs::write(&rc, bashrc()).context("writing the shell's start-up file")?;
            shell.args = vec!["--rcfile".into(), rc.display().to_string(), "-i".into()];
            shell._files = Some(dir);
        }
        "zsh" => {
            let dir = tempfile::tempdir().context("a directory for the shell's prompt")?;
            std::fs::write(dir.path().join(".zshrc"), zshrc())
                .context("writing the shell's start-up file")?;
            let theirs = std::env::var("ZDOTDIR").unwrap_or_default();
            shell.env.push(("PUSHLEFT_ZDOTDIR".into(), theirs));
            shell
                .env
                .push(("ZDOTDIR".into(), dir.path().display().to_string()));
            shell._files = Some(dir);
        }
        "fish" => shell.args = vec!["--init-command".into(), fish_init()],
        _ => {}
    }
    Ok(shell)
}

#[cfg(test)]
#[path = "shell_tests.rs"]
mod tests;
