//! What the raw command line asks beyond what the derive parses:
//! `--version -o json`, the help topics for the shared options given as a
//! command, and an option given to a command that does not have it
//! (README, "Output and exit codes").

use clap::ArgMatches;
use clap::error::ErrorKind;

use super::{TOPICS, command, usage};
use crate::ui::OutputFormat;

/// `--version` with `-o json` on the line: the version document, not
/// clap's line.
pub fn wants_json_version(err: &clap::Error) -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    err.kind() == ErrorKind::DisplayVersion
        && usage::requested_in_args(&args) == Some(OutputFormat::Json)
}

/// `pushleft-controller connection` (a help topic given as a command):
/// its help, as `help connection` shows it. `None` for any other command.
pub fn help_topic(matches: &ArgMatches) -> Option<i32> {
    let name = matches.subcommand_name()?;
    if !TOPICS.iter().any(|(topic, _)| *topic == name) {
        return None;
    }
    let mut root = command();
    root.build();
    let topic = root.find_subcommand_mut(name)?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    Some(
        match usage::show_long_help(topic.render_long_help(), &args) {
            Ok(()) => 0,
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(_) => 1,
        },
    )
}

/// An option given to a command that does not have it, but another does
/// (`stuck --since 1h`): which commands have it, instead of clap's guess
/// at a look-alike of this one's (`--schema`).
pub fn misplaced_option(err: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if err.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = err.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = given.split('=').next()?.strip_prefix("--")?.to_string();
    let root = command();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let this = args
        .iter()
        .find_map(|a| root.find_subcommand(a).map(|c| c.get_name().to_string()))?;
    let mut others: Vec<String> = Vec::new();
    for sub in root.get_subcommands().filter(|c| c.get_name() != this) {
        let nested: Vec<&clap::Command> =
            std::iter::once(sub).chain(sub.get_subcommands()).collect();
        for c in nested {
            if c.get_arguments()
                .any(|a| a.get_long() == Some(flag.as_str()))
            {
                let name = match c.get_name() == sub.get_name() {
                    true => sub.get_name().to_string(),
                    false => format!("{} {}", sub.get_name(), c.get_name()),
                };
                others.push(format!("`{name}`"));
            }
        }
    }
    (!others.is_empty()).then(|| {
        format!(
            "--{flag} is an option of {}, not of `{this}`; `pushleft-controller {this} -h` lists its options",
            others.join(" and ")
        )
    })
}
