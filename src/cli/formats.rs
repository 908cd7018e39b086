//! Which `--output` formats each command accepts: its report's
//! (`ui::report::Report::FORMATS`), checked before anything is read.

use anyhow::Result;

use super::{Cli, Command};
use crate::exit;
use crate::model::doctor::Report as DoctorReport;
use crate::model::fleet::FleetList;
use crate::model::history::History;
use crate::model::outcome::Outcome;
use crate::model::stuck::StuckReport;
use crate::model::wait::WaitReport;
use crate::ui::OutputFormat;
use crate::ui::diagnose::Diagnosis;
use crate::ui::report::{PLAIN, Report};

/// Each command (as `--help` names it) and the formats of its report.
const COMMANDS: &[(&str, &[OutputFormat])] = &[
    ("diagnose", Diagnosis::FORMATS),
    ("stuck", StuckReport::FORMATS),
    ("fail-safely", Outcome::FORMATS),
    ("history", History::FORMATS),
    ("fleet list", FleetList::FORMATS),
    ("doctor", DoctorReport::FORMATS),
    ("wait", WaitReport::FORMATS),
    ("sandbox", PLAIN),
    ("generate", PLAIN),
    ("approvals install", PLAIN),
];

/// The formats of the command `--help` names `name` (`fleet list`); a
/// command not in the table (a help topic) has the plain ones.
pub fn of(name: &str) -> &'static [OutputFormat] {
    COMMANDS
        .iter()
        .find(|(c, _)| *c == name)
        .map_or(PLAIN, |(_, formats)| formats)
}

fn name(command: &Command) -> &'static str {
    match command {
        Command::Diagnose(_) => "diagnose",
        Command::Stuck(_) => "stuck",
        Command::FailSafely(_) => "fail-safely",
        Command::History(_) => "history",
        Command::Fleet(_) => "fleet list",
        Command::Doctor(_) => "doctor",
        Command::Wait(_) => "wait",
        Command::Sandbox(_) => "sandbox",
        Command::Generate(_) => "generate",
        Command::Approvals(_) => "approvals install",
    }
}

/// Refuses (usage, exit 2) an `--output` the line's command has not (the
/// default, a table, every command has).
pub fn check_line(cli: &Cli) -> Result<()> {
    match (&cli.command, cli.global.output) {
        (Some(command), Some(format)) => check(command, format),
        _ => Ok(()),
    }
}

/// Refuses (usage, exit 2) a format the command's report does not have,
/// naming the commands that do.
pub fn check(command: &Command, format: OutputFormat) -> Result<()> {
    let accepts = |formats: &[OutputFormat]| formats.contains(&format);
    let this = name(command);
    if COMMANDS.iter().any(|(c, f)| *c == this && accepts(f)) {
        return Ok(());
    }
    let those: Vec<String> = COMMANDS
        .iter()
        .filter(|(_, f)| accepts(f))
        .map(|(c, _)| format!("`{c}`"))
        .collect();
    let value = clap::ValueEnum::to_possible_value(&format)
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    Err(exit::usage(format!(
        "--output {value} is for {}; use table or json here",
        in_words(&those)
    )))
}

/// `a`, `a and b`, `a, b and c`.
fn in_words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
#[path = "formats_tests.rs"]
mod tests;
