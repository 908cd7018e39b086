//! The command line as the binary parses it: the clap definition with each
//! command's formats (`formats`), `--version -o json`, and the help topics
//! for the shared options (README, "Output and exit codes").

use clap::ArgMatches;
use clap::error::ErrorKind;

use super::formats;
use crate::cli;
use crate::ui::{self, OutputFormat};

/// The whole command line: parsing, help, man pages and completions.
pub fn command() -> clap::Command {
    cli::command(formats::of)
}

/// `--version` with `-o json` on the line: the version document, not
/// clap's line.
pub fn wants_json_version(err: &clap::Error) -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    err.kind() == ErrorKind::DisplayVersion
        && ui::usage::requested_in_args(&args) == Some(OutputFormat::Json)
}

/// `pushleft-controller connection` (a help topic given as a command):
/// its help, as `help connection` shows it. `None` for any other command.
pub fn help_topic(matches: &ArgMatches) -> Option<i32> {
    let name = matches.subcommand_name()?;
    if !cli::TOPICS.iter().any(|(topic, _)| *topic == name) {
        return None;
    }
    let mut root = command();
    root.build();
    let topic = root.find_subcommand_mut(name)?;
    Some(match topic.print_long_help() {
        Ok(()) => 0,
        Err(_) => 1,
    })
}
