//! The libpq parameters of one connection, each from the first of: the
//! connection string, the service file's section, the `PG*` variable, the
//! compiled-in default (libpq's `conninfo_add_defaults`). Where each value
//! came from is kept for the messages.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Result;

use super::conninfo::{KEYWORDS, parse_connection_string};
use super::env::{Env, os_user};
use super::service;

/// Where a parameter's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Origin {
    /// `--database-url` / `DATABASE_URL`.
    Url,
    /// `--service`.
    ServiceFlag,
    /// The service's section of this file.
    Service(PathBuf),
    /// This environment variable.
    Env(&'static str),
    /// libpq's compiled-in default.
    Default,
}

/// Every libpq parameter that has a value.
#[derive(Debug, Default)]
pub(super) struct Options {
    values: HashMap<&'static str, (String, Origin)>,
}

impl Options {
    /// The connection string, then the service, the environment and the
    /// defaults, as libpq 15 fills them in.
    /// `service` is `--service`, as if the connection string said
    /// `service=` (the caller refuses it together with a URL).
    pub(super) fn collect(text: Option<&str>, service: Option<&str>, env: Env) -> Result<Options> {
        let mut options = Options::default();
        if let Some(text) = text {
            for (key, value) in parse_connection_string(text)? {
                options.values.insert(key, (value, Origin::Url));
            }
        }
        if let Some(name) = service {
            options.set("service", name.to_string(), Origin::ServiceFlag);
        }
        if let Some((path, lines)) = service::section(options.get("service"), env)? {
            for (key, value) in lines {
                options.set_if_unset(key, value, Origin::Service(path.clone()));
            }
        }
        for keyword in KEYWORDS {
            if options.values.contains_key(keyword.name) {
                continue;
            }
            if let Some(var) = keyword.env
                && let Some(value) = env(var)
            {
                options.set(keyword.name, value, Origin::Env(var));
            } else if keyword.name == "sslmode"
                && env("PGREQUIRESSL").is_some_and(|v| v.starts_with('1'))
            {
                options.set("sslmode", "require".into(), Origin::Env("PGREQUIRESSL"));
            } else if let Some(default) = keyword.default {
                options.set(keyword.name, default.into(), Origin::Default);
            } else if keyword.name == "user" {
                options.set("user", os_user(), Origin::Default);
            }
        }
        Ok(options)
    }

    /// Sets `key` unless it has a value already (the service file's rule).
    pub(super) fn set_if_unset(&mut self, key: &'static str, value: String, origin: Origin) {
        self.values.entry(key).or_insert((value, origin));
    }

    fn set(&mut self, key: &'static str, value: String, origin: Origin) {
        self.values.insert(key, (value, origin));
    }

    /// The value, empty or not.
    pub(super) fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(|(v, _)| v.as_str())
    }

    /// The value when it is not empty (libpq treats most empty values as
    /// unset).
    pub(super) fn nonempty(&self, key: &str) -> Option<&str> {
        self.get(key).filter(|v| !v.is_empty())
    }

    pub(super) fn origin(&self, key: &str) -> Option<&Origin> {
        self.values.get(key).map(|(_, o)| o)
    }

    /// Set by the operator (not a compiled-in default) and not empty.
    pub(super) fn explicit(&self, key: &str) -> Option<&str> {
        match self.values.get(key) {
            Some((value, origin)) if *origin != Origin::Default && !value.is_empty() => Some(value),
            _ => None,
        }
    }

    /// Where `key` was set, for a message: "in the database URL", "by
    /// PGSSLMODE", "in the service file …".
    pub(super) fn where_set(&self, key: &str) -> String {
        match self.origin(key) {
            Some(Origin::Url) | None => "in the database URL".to_string(),
            Some(Origin::ServiceFlag) => "by --service".to_string(),
            Some(Origin::Service(path)) => format!("in the service file {}", path.display()),
            Some(Origin::Env(var)) => format!("by {var}"),
            Some(Origin::Default) => "by libpq's default".to_string(),
        }
    }
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
