//! The indexes the tool relies on: every `CREATE INDEX` of the reference
//! schema (`sql/schema.sql`, the one source), looked up by name in the
//! control plane's schema. A missing one is a warning, not a failure (the
//! control plane's schema is not ours to index), with what it is for and
//! the exact `CREATE INDEX CONCURRENTLY` that adds it without blocking
//! writes.

use anyhow::Result;

use super::facts::Facts;
use super::{Checks, Status};
use crate::db::sql::{self, Schema};

/// One index of the reference schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedIndex {
    pub name: String,
    /// `ON table (…) [WHERE …]`, as the reference schema writes it.
    pub definition: String,
    /// The comment above it, or what it indexes.
    pub purpose: String,
}

impl ExpectedIndex {
    /// The statement that adds it to `schema` without blocking writes.
    pub fn create_concurrently(&self, schema: &Schema) -> String {
        let on = self
            .definition
            .strip_prefix("ON ")
            .unwrap_or(&self.definition);
        format!(
            "CREATE INDEX CONCURRENTLY {} ON {}.{on};",
            self.name,
            schema.quoted()
        )
    }
}

/// Every `CREATE INDEX` of `schema_sql` (statements may span lines; the
/// `--` comment lines right above one say what it is for).
pub fn expected_indexes(schema_sql: &str) -> Vec<ExpectedIndex> {
    let lines: Vec<&str> = schema_sql.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(rest) = lines[i].trim().strip_prefix("CREATE INDEX ") else {
            i += 1;
            continue;
        };
        let mut statement = rest.to_string();
        let start = i;
        while !statement.trim_end().ends_with(';') && i + 1 < lines.len() {
            i += 1;
            statement.push(' ');
            statement.push_str(lines[i].trim());
        }
        let statement = statement.trim_end().trim_end_matches(';');
        if let Some((name, definition)) = statement.split_once(' ') {
            let comments: Vec<&str> = lines[..start]
                .iter()
                .rev()
                .take_while(|l| l.trim_start().starts_with("--"))
                .map(|l| l.trim_start().trim_start_matches('-').trim())
                .collect();
            let purpose = if comments.is_empty() {
                format!(
                    "lookups {}",
                    definition.split(" WHERE ").next().unwrap_or(definition)
                )
            } else {
                comments.into_iter().rev().collect::<Vec<_>>().join(" ")
            };
            found.push(ExpectedIndex {
                name: name.to_string(),
                definition: definition.to_string(),
                purpose,
            });
        }
        i += 1;
    }
    found
}

/// The `indexes` check.
pub(super) fn indexes(facts: &Facts, schema: &Schema, checks: &mut Checks) -> Result<()> {
    let expected = expected_indexes(sql::scripts::SCHEMA.text);
    let mut missing = Vec::new();
    for index in &expected {
        let present = facts
            .value("indexes", &index.name)
            .and_then(serde_json::Value::as_bool)
            .ok_or_else(|| anyhow::anyhow!("sql/doctor/facts.sql: no index {}", index.name))?;
        if !present {
            missing.push(index);
        }
    }
    if missing.is_empty() {
        checks.push(
            "indexes",
            Status::Ok,
            format!(
                "the {} indexes the tool relies on are there",
                expected.len()
            ),
        );
        return Ok(());
    }
    let each: Vec<String> = missing
        .iter()
        .map(|index| {
            format!(
                "{} ({}): {}",
                index.name,
                index.purpose,
                index.create_concurrently(schema)
            )
        })
        .collect();
    checks.push(
        "indexes",
        Status::Warn,
        format!(
            "{} of {} indexes the tool relies on are missing (or named differently), so \
             some commands read whole tables: {}",
            missing.len(),
            expected.len(),
            each.join("; ")
        ),
    );
    Ok(())
}

#[cfg(test)]
#[path = "indexes_tests.rs"]
mod tests;
