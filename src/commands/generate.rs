//! `generate` (hidden): the shell completion scripts and the man pages
//! from the clap definition. The results are committed; a test fails when they are stale.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use clap_complete::env::EnvCompleter;

use crate::cli::complete::shells;

use crate::cli::GenerateArgs;
use crate::exit::ExitCode;

pub fn run(_ctx: &crate::ops::Context, args: &GenerateArgs) -> Result<ExitCode> {
    write_all(&args.out_dir)?;
    Ok(ExitCode::Done)
}

/// Writes `completions/` and `man/` under `dir`.
pub fn write_all(dir: &Path) -> Result<()> {
    let completions = dir.join("completions");
    fs::create_dir_all(&completions)
        .with_context(|| format!("creating {}", completions.display()))?;
    for (file, shell) in SCRIPTS {
        let mut script = Vec::new();
        shell
            .write_registration(crate::cli::complete::VAR, BIN, BIN, BIN, &mut script)
            .with_context(|| format!("writing {file}"))?;
        if *file == "_pushleft-controller" {
            script.extend_from_slice(ZSH_FIRST_CALL.as_bytes());
        }
        let path = completions.join(file);
        fs::write(&path, script).with_context(|| format!("writing {}", path.display()))?;
    }
    let man = dir.join("man");
    fs::create_dir_all(&man).with_context(|| format!("creating {}", man.display()))?;
    crate::docs::manpages::write(&man, crate::cli::command())
}

const BIN: &str = "pushleft-controller";

/// The committed scripts: each asks the binary on PATH (`COMPLETE=<shell>
/// pushleft-controller -- WORDS…`), so what it offers is always this
/// binary's command line, with values from the database (README, "Shell
/// completions and man pages").
const SCRIPTS: &[(&str, &dyn EnvCompleter)] = &[
    ("pushleft-controller.bash", &shells::Bash),
    ("_pushleft-controller", &shells::Zsh),
    ("pushleft-controller.fish", &shells::Fish),
    ("_pushleft-controller.ps1", &shells::Powershell),
    ("pushleft-controller.elv", &shells::Elvish),
];

/// zsh autoloads `_pushleft-controller` from $fpath as the completion
/// function itself: on that first call the file's body only defines the
/// function and registers it, so it also completes this once.
const ZSH_FIRST_CALL: &str = r#"
if [[ "${funcstack[1]}" == "_pushleft-controller" ]]; then
    _clap_dynamic_completer_pushleft_controller "$@"
fi
"#;
