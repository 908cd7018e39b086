//! The command an operator runs next, as the tool suggests it (README,
//! "Output and exit codes": a suggested command stands alone on its line).
//! It is built as words and rendered in one place, [`NextCommand`]'s
//! `Display`, through the one shell quoter, [`shell_quote`]: a word from
//! the database or the command line (a node's name, a reason, an id as
//! typed) reaches the shell as that one word, never as code.

use std::borrow::Cow;
use std::fmt;

/// The tool, as every suggested command starts.
pub const TOOL: &str = "pushleft-controller";

/// The subcommand a suggestion runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subcommand {
    Diagnose,
    Doctor,
    FailSafely,
    FleetList,
    History,
    Stuck,
    Wait,
}

impl Subcommand {
    pub fn as_str(self) -> &'static str {
        match self {
            Subcommand::Diagnose => "diagnose",
            Subcommand::Doctor => "doctor",
            Subcommand::FailSafely => "fail-safely",
            Subcommand::FleetList => "fleet list",
            Subcommand::History => "history",
            Subcommand::Stuck => "stuck",
            Subcommand::Wait => "wait",
        }
    }
}

/// One argument of a suggested command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A word the shell is to pass on as it is: quoted when it must be.
    Word(String),
    /// What the operator fills in (`<deployment>`); several words are
    /// shown in double quotes (`"<ticket and reason>"`), so the shape of
    /// the command is right once it is filled in.
    Placeholder(&'static str),
}

/// A command to run next: `pushleft-controller <subcommand> <args…>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextCommand {
    pub subcommand: Subcommand,
    pub args: Vec<Arg>,
}

impl NextCommand {
    pub fn new(subcommand: Subcommand) -> NextCommand {
        NextCommand {
            subcommand,
            args: Vec::new(),
        }
    }

    /// With one more word.
    pub fn arg(mut self, word: impl fmt::Display) -> NextCommand {
        self.args.push(Arg::Word(word.to_string()));
        self
    }

    /// With `flag` and its value.
    pub fn option(self, flag: &str, value: impl fmt::Display) -> NextCommand {
        self.arg(flag).arg(value)
    }

    /// With a placeholder for the operator to fill in.
    pub fn placeholder(mut self, what: &'static str) -> NextCommand {
        self.args.push(Arg::Placeholder(what));
        self
    }

    /// `diagnose <deployment>`.
    pub fn diagnose(deployment: impl fmt::Display) -> NextCommand {
        NextCommand::new(Subcommand::Diagnose).arg(deployment)
    }

    /// `wait <deployment>`.
    pub fn wait(deployment: impl fmt::Display) -> NextCommand {
        NextCommand::new(Subcommand::Wait).arg(deployment)
    }

    /// `fail-safely <deployment> --reason "<ticket and reason>"`.
    pub fn fail_safely(deployment: impl fmt::Display) -> NextCommand {
        NextCommand::new(Subcommand::FailSafely)
            .arg(deployment)
            .arg("--reason")
            .placeholder("ticket and reason")
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Word(word) => f.write_str(&shell_quote(word)),
            Arg::Placeholder(what) if what.contains(' ') => write!(f, "\"<{what}>\""),
            Arg::Placeholder(what) => write!(f, "<{what}>"),
        }
    }
}

impl fmt::Display for NextCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{TOOL} {}", self.subcommand.as_str())?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// In JSON, the command as the screen shows it.
impl serde::Serialize for NextCommand {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Characters a POSIX shell takes literally in an unquoted word.
fn is_safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c)
}

/// `word` as one word for a POSIX shell: as it is when every character is
/// plain, otherwise in single quotes (inside which nothing is special),
/// each `'` written as `'\''`. The empty word is `''`.
pub fn shell_quote(word: &str) -> Cow<'_, str> {
    if !word.is_empty() && word.chars().all(is_safe) {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
    }
}

#[cfg(test)]
#[path = "next_tests.rs"]
mod tests;
