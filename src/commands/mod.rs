//! One module per command.

pub mod diagnose;
pub mod doctor;
pub mod fail_safely;
pub mod fleet;
pub mod generate;
pub mod stuck;
pub mod wait;

use std::time::Duration;

use anyhow::Result;
use postgres::Client;

use crate::connect::Settings;

/// Shows the warnings of `settings` on stderr (`warning: …`, e.g. a password
/// file others can read), then opens a session with `lock_timeout`. The
/// connect module does not print: that is the user interface's job, done
/// here once for every command.
pub fn connect(settings: &Settings, lock_timeout: Duration) -> Result<Client> {
    for warning in settings.warnings() {
        crate::output::note(&format!("warning: {warning}"));
    }
    settings.connect(lock_timeout)
}
