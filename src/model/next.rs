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
mod tests {
    use super::*;

    #[test]
    fn the_quoter_makes_one_word_of_anything() {
        assert_eq!(shell_quote("edge-07"), "edge-07");
        assert_eq!(
            shell_quote("d0000001-0000-4000-8000-000000000001"),
            "d0000001-0000-4000-8000-000000000001"
        );
        assert_eq!(shell_quote("a=b,c:d/e@f%g+h.i_j"), "a=b,c:d/e@f%g+h.i_j");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("edge 07"), "'edge 07'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("\"x\""), "'\"x\"'");
        assert_eq!(shell_quote("$HOME `id` $(id)"), "'$HOME `id` $(id)'");
        assert_eq!(shell_quote("a\nb"), "'a\nb'");
        assert_eq!(shell_quote("a;rm -rf /"), "'a;rm -rf /'");
        assert_eq!(shell_quote("*?[~!#&|<>"), "'*?[~!#&|<>'");
        assert_eq!(shell_quote("nœud-é"), "'nœud-é'");
        assert_eq!(shell_quote("''"), r"''\'''\'''");
    }

    #[test]
    fn a_next_command_renders_as_the_tool_prints_it() {
        let id = "d0000001-0000-4000-8000-000000000001";
        assert_eq!(
            NextCommand::fail_safely(id).to_string(),
            format!("pushleft-controller fail-safely {id} --reason \"<ticket and reason>\"")
        );
        assert_eq!(
            NextCommand::wait(id).to_string(),
            format!("pushleft-controller wait {id}")
        );
        assert_eq!(
            NextCommand::new(Subcommand::Wait)
                .placeholder("deployment")
                .to_string(),
            "pushleft-controller wait <deployment>"
        );
        assert_eq!(
            NextCommand::new(Subcommand::FleetList).to_string(),
            "pushleft-controller fleet list"
        );
        assert_eq!(
            NextCommand::new(Subcommand::Stuck)
                .option("--node", "edge 07; reboot")
                .to_string(),
            "pushleft-controller stuck --node 'edge 07; reboot'"
        );
        assert_eq!(
            NextCommand::new(Subcommand::FailSafely)
                .arg(id)
                .option("--reason", "INC-1 it's $5")
                .arg("--yes")
                .to_string(),
            format!("pushleft-controller fail-safely {id} --reason 'INC-1 it'\\''s $5' --yes")
        );
    }

    #[test]
    fn json_carries_the_same_text() {
        let command = NextCommand::diagnose("d0000001");
        assert_eq!(
            serde_json::to_value(&command).ok(),
            Some(serde_json::Value::from(
                "pushleft-controller diagnose d0000001"
            ))
        );
    }
}
