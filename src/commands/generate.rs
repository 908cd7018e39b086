//! `generate` (hidden): shell completions and man pages from the clap
//! definition. The results are committed; a test fails when they are stale.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::{Cli, GenerateArgs};
use crate::exit::ExitCode;

pub fn run(args: &GenerateArgs) -> Result<ExitCode> {
    write_all(&args.out_dir)?;
    Ok(ExitCode::Done)
}

/// Writes `completions/` and `man/` under `dir`.
pub fn write_all(dir: &Path) -> Result<()> {
    let completions = dir.join("completions");
    fs::create_dir_all(&completions)
        .with_context(|| format!("creating {}", completions.display()))?;
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::PowerShell,
        Shell::Elvish,
    ] {
        let mut cmd = Cli::command();
        clap_complete::generate_to(shell, &mut cmd, "pushleft-controller", &completions)
            .with_context(|| format!("writing {shell} completions"))?;
    }
    let man = dir.join("man");
    fs::create_dir_all(&man).with_context(|| format!("creating {}", man.display()))?;
    crate::manpages::write(&man)
}
