//! `generate` (hidden): shell completions and man pages from the clap
//! definition. The results are committed; a test fails when they are stale.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::{Cli, GenerateArgs};
use crate::exit::ExitCode;

pub fn run(_ctx: &super::Context, args: &GenerateArgs) -> Result<ExitCode> {
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
        let mut cmd = without_hidden_commands(Cli::command());
        let path = clap_complete::generate_to(shell, &mut cmd, "pushleft-controller", &completions)
            .with_context(|| format!("writing {shell} completions"))?;
        if shell == Shell::Bash {
            fix_bash_hyphenated_bin_name(&path)?;
        }
    }
    let man = dir.join("man");
    fs::create_dir_all(&man).with_context(|| format!("creating {}", man.display()))?;
    crate::docs::manpages::write(&man)
}

/// The command line as completions should offer it: clap_complete offers
/// hidden subcommands too (`generate`), so they are left out here.
fn without_hidden_commands(cmd: clap::Command) -> clap::Command {
    let visible: Vec<clap::Command> = cmd
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .cloned()
        .collect();
    let mut pruned = clap::Command::new(cmd.get_name().to_string())
        .args(cmd.get_arguments().cloned())
        .subcommands(visible)
        .propagate_version(true);
    if let Some(version) = cmd.get_version() {
        pruned = pruned.version(version.to_string());
    }
    if let Some(about) = cmd.get_about() {
        pruned = pruned.about(about.clone());
    }
    pruned
}

/// clap_complete's bash script spells the state of a subcommand two ways
/// when the binary name has a hyphen (`pushleft__controller__subcmd__doctor`
/// in the dispatch loop, `pushleft__subcmd__controller__subcmd__doctor` in
/// the case arms), so no option of any subcommand ever completes
/// (clap-rs/clap#6421). Spell the arms the way the loop does; a no-op once
/// clap_complete is fixed. The bash completion test catches either way.
fn fix_bash_hyphenated_bin_name(path: &Path) -> Result<()> {
    let script = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let fixed = script.replace("pushleft__subcmd__controller", "pushleft__controller");
    if fixed != script {
        fs::write(path, fixed).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
