//! Helpers shared by the connect module's unit tests.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::Result;

use super::{Settings, Timeouts};

/// 30 s statements, 60 s idle in a transaction, the connect timeout left
/// to the URL and the environment.
pub(super) fn timeouts() -> Timeouts {
    Timeouts {
        statement: Duration::from_secs(30),
        idle_in_transaction: Duration::from_secs(60),
        connect: None,
    }
}

/// [`Settings::resolve`] with exactly these variables, a `HOME` that
/// does not exist (no `~/.pgpass` or `~/.postgresql/root.crt` of the
/// machine running the tests) and no system service file.
pub(super) fn resolve(url: Option<&str>, vars: &[(&str, &str)]) -> Result<Settings> {
    let map: HashMap<String, String> = [
        ("HOME".to_string(), "/nonexistent".to_string()),
        ("PGSYSCONFDIR".to_string(), "/nonexistent".to_string()),
    ]
    .into_iter()
    .chain(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())))
    .collect();
    Settings::resolve(url, &move |k| map.get(k).cloned(), timeouts())
}
