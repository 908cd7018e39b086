//! The command line as it is parsed, shown and documented: the derive
//! definition ([`Cli`]) plus what it cannot say itself (README, "Shell
//! completions and man pages"):
//!
//! - each command's `-o` offers only its report's formats (the table is
//!   in `formats`);
//! - `-h` is short: the command's own options, each with its first
//!   sentence, and one line pointing at `help connection` and `help
//!   output`, where the shared options are shown once; `--help` has all
//!   (a command whose `-h` hides rarer options of its own ends it with a
//!   line that says so, the pointer folded into it);
//! - environment variables by name only (`[env: PUSHLEFT_SCHEMA]`), never
//!   the value this shell happens to have;
//! - values completed from the database (`complete`).

use clap::builder::{PossibleValue, PossibleValuesParser, StyledStr, TypedValueParser};
use clap::{Arg, Command, CommandFactory, ValueEnum};

use super::{CONNECTION, Cli, OUTPUT, OutputFormat, formats};

/// The help topics for the shared options: `help connection`, `help output`.
pub const TOPICS: &[(&str, &str)] = &[("connection", CONNECTION), ("output", OUTPUT)];

/// The line every command's help starts its epilogue with.
const POINTER: &str =
    "Connection and output options: pushleft-controller help connection (or output)";

/// The pointer's words, at the end of `-h`, for a command whose `-h`
/// hides rarer options of its own.
const RARER_POINTER: &str =
    "Rarer options: --help. Shared: pushleft-controller help connection (or output)";

/// The whole command line (parsing, help, man pages, completions).
pub fn command() -> Command {
    let root = Cli::command()
        .mut_args(shared)
        .arg(version_flag())
        .mut_subcommands(|sub| own(sub, ""));
    let topics: Vec<Command> = TOPICS
        .iter()
        .map(|(name, heading)| topic(&root, name, heading))
        .collect();
    super::complete::attach(root.subcommands(topics))
}

/// `-V, --version`, in `--help` only: without its line the top level's
/// `-h` fits a 24-line terminal.
fn version_flag() -> Arg {
    Arg::new("version")
        .short('V')
        .long("version")
        .action(clap::ArgAction::Version)
        .help("Print version")
        .long_help("Print version: the commit and the build date too (-o json: a document)")
        .help_heading(None::<&str>)
        .hide_short_help(true)
}

/// A shared option: in `--help` and its topic, not in `-h`; its variable by
/// name only.
fn shared(arg: Arg) -> Arg {
    arg.hide_env_values(true).hide_short_help(true)
}

/// A command (`parent` names the one above it): its own options' short
/// help, its own `-o`, the pointer; then the same for what is under it.
fn own(sub: Command, parent: &str) -> Command {
    let name = if parent.is_empty() {
        sub.get_name().to_string()
    } else {
        format!("{parent} {}", sub.get_name())
    };
    let mut sub = sub.mut_args(|arg| first_sentence(arg.hide_env_values(true)));
    if sub.get_subcommands().next().is_none() {
        sub = sub.arg(output_of(formats::of(&name)));
    }
    let after = sub.get_after_help().map(ToString::to_string);
    let long = match &after {
        Some(after) => format!("{POINTER}\n\n{after}"),
        None => POINTER.to_string(),
    };
    // Rarer options hidden from `-h`: its last line says `--help` has them.
    let hides_options = sub
        .get_arguments()
        .any(|a| a.is_hide_short_help_set() && !a.is_hide_set());
    sub = match (hides_options, after) {
        (true, Some(after)) => sub
            .after_help(format!("{after}\n\n{RARER_POINTER}"))
            .after_long_help(long),
        (true, None) => sub.after_help(RARER_POINTER).after_long_help(long),
        (false, _) => sub.after_help(long),
    };
    sub.mut_subcommands(|nested| own(nested, &name))
}

/// `-h` shows the first sentence of an option's help; `--help` all of it.
fn first_sentence(arg: Arg) -> Arg {
    let Some(help) = arg.get_help().map(ToString::to_string) else {
        return arg;
    };
    let Some(end) = sentence_end(&help) else {
        return arg;
    };
    let long = arg
        .get_long_help()
        .map(ToString::to_string)
        .unwrap_or_else(|| help.clone());
    let short = help[..end].to_string();
    arg.help(short).long_help(long)
}

/// Where the first sentence ends (`. ` or `; `, not after "e.g").
fn sentence_end(help: &str) -> Option<usize> {
    help.match_indices(['.', ';'])
        .map(|(at, _)| at)
        .find(|&at| {
            help[at + 1..].starts_with(' ')
                && !help[..at].ends_with("e.g")
                && !help[..at].ends_with("i.e")
        })
}

/// `-o` for a command whose report has `formats`: only those are shown
/// and completed; the value is the same `OutputFormat` the shared option
/// gives, so the global option reads it.
fn output_of(formats: &'static [OutputFormat]) -> Arg {
    Arg::new("output")
        .long("output")
        .short('o')
        .value_name("FORMAT")
        .value_parser(FormatParser(formats))
        .help("Output format [default: table, piped too]")
}

/// Parses any format (one another command has is refused later, by
/// `cli::formats`, with the commands that have it) but offers only
/// the command's own: in help, completion and the error for a value that
/// is no format at all.
#[derive(Clone)]
struct FormatParser(&'static [OutputFormat]);

impl FormatParser {
    fn own(&self) -> Vec<PossibleValue> {
        self.0
            .iter()
            .filter_map(ValueEnum::to_possible_value)
            .collect()
    }
}

impl TypedValueParser for FormatParser {
    type Value = OutputFormat;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<OutputFormat, clap::Error> {
        if let Some(format) = value
            .to_str()
            .and_then(|v| OutputFormat::from_str(v, false).ok())
        {
            return Ok(format);
        }
        // No format at all: clap's own error, naming this command's formats.
        let name = PossibleValuesParser::new(self.own()).parse_ref(cmd, arg, value)?;
        OutputFormat::from_str(&name, false)
            .map_err(|_| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.own().into_iter()))
    }
}

/// A help topic: the root's shared options under `heading`, the others
/// hidden (own copies, so the global ones are not propagated to it).
fn topic(root: &Command, name: &str, heading: &str) -> Command {
    let args = root
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|arg| {
            let shown = arg.get_help_heading() == Some(heading);
            arg.clone()
                .global(false)
                .hide(!shown)
                .hide_short_help(false)
                .help_heading(None::<&str>)
        });
    let (about, long) = match name {
        "connection" => (
            "The options every command shares for connecting",
            super::CONNECTING_HELP,
        ),
        _ => (
            "The options every command shares for its output",
            super::OUTPUT_HELP,
        ),
    };
    Command::new(name.to_string())
        .hide(true)
        .about(about)
        .long_about(StyledStr::from(format!("{about}.\n\n{long}")))
        .override_usage(format!(
            "pushleft-controller <COMMAND> [{} OPTIONS]",
            name.to_uppercase()
        ))
        .disable_version_flag(true)
        .args(args)
}
