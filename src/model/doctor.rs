//! The `doctor --output json` document (see the man page): where it
//! connected, what it reached, and one line per check.

use serde::Serialize;

use super::connection::{Reached, SslMode, Target};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Fail,
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

/// The JSON document (see the man page).
#[derive(Debug, Serialize)]
pub struct Report {
    pub target: Target,
    /// Where the connection goes, as the settings describe it (hosts,
    /// database, user; never the password): the screen's first line.
    #[serde(skip)]
    pub described: String,
    pub sslmode: SslMode,
    /// The server really reached (`None`: no connection).
    pub reached: Option<Reached>,
    pub checks: Vec<Check>,
    pub ok: bool,
}

impl Report {
    pub fn failed(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.status == Status::Fail)
            .count()
    }
}
