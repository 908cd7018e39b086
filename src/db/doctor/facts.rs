//! What doctor reads besides the schema check, in one statement
//! (`sql/doctor/facts.sql`, sent in doctor's one flight): one JSON
//! document, read before the checks judge it one by one.

use anyhow::{Context, Result, anyhow};
use postgres::Row;
use serde_json::{Map, Value};

use crate::db::columns::JsonRow;
use crate::db::schema_check;
use crate::db::session::{Arg, Step};
use crate::db::sql::{self, Schema};

/// The document.
pub(super) struct Facts(Value);

impl Facts {
    /// The statement for all of it, as a step of doctor's flight. `role`:
    /// `--role`, whose write privileges are read too; `indexes` and
    /// `settings`: the names to look for.
    pub(super) fn step(
        schema: &Schema,
        role: Option<&str>,
        indexes: Vec<String>,
        settings: &[&str],
    ) -> Step {
        let tables: Vec<String> = schema_check::tables().map(str::to_string).collect();
        let settings: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
        let values: Vec<Arg> = vec![
            Box::new(schema.name().to_string()),
            Box::new(tables),
            Box::new(role.map(str::to_string)),
            Box::new(indexes),
            Box::new(settings),
        ];
        Step::catalog(&sql::doctor::FACTS, values)
    }

    /// The document in the step's rows.
    pub(super) fn from_rows(rows: Vec<Row>) -> Result<Facts> {
        let row = rows
            .into_iter()
            .next()
            .context("sql/doctor/facts.sql returned no row")?;
        let doc: Value = row.try_get(0).context("reading sql/doctor/facts.sql")?;
        Ok(Facts(doc))
    }

    /// The section `name`, an object.
    pub(super) fn row(&self, name: &str) -> Result<JsonRow<'_>> {
        object(self.0.get(name)).with_context(|| format!("sql/doctor/facts.sql: {name}"))
    }

    /// The entry `key` of the section `name` (an object of objects).
    pub(super) fn entry(&self, name: &str, key: &str) -> Result<JsonRow<'_>> {
        object(self.0.get(name).and_then(|section| section.get(key)))
            .with_context(|| format!("sql/doctor/facts.sql: {name}.{key}"))
    }

    /// The entry `key` of the section `name`, a value.
    pub(super) fn value(&self, name: &str, key: &str) -> Option<&Value> {
        self.0.get(name).and_then(|section| section.get(key))
    }
}

fn object(value: Option<&Value>) -> Result<JsonRow<'_>> {
    match value {
        Some(Value::Object(map)) => Ok(JsonRow(map)),
        other => Err(anyhow!("expected an object, got {other:?}")),
    }
}

/// An empty row, for a section that is not there (NULL).
pub(super) fn empty() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}
