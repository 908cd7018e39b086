//! Reading a column by name, from a row the server sent or from one object
//! of a JSON array a statement built (`json_agg`): the one-round-trip
//! statements (`sql/diagnose/snapshot.sql`) return each section as JSON, and
//! the same mapping code reads both, with the same errors.

use anyhow::{Context, Result, anyhow};
use chrono::{DateTime, Utc};
use postgres::Row;
use postgres::types::FromSql;
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::model::{
    AllocationStatus, DeploymentStatus, InstanceStatus, JobKind, JobStatus, NodeStatus,
    ResultOutcome, RouteStatus, Warning,
};

/// A row whose columns can be read by name.
pub trait Columns {
    fn col<T: Column>(&self, name: &str) -> Result<T>;
}

/// A type a column can hold, in both encodings.
pub trait Column: for<'a> FromSql<'a> + FromJson {}
impl<T: for<'a> FromSql<'a> + FromJson> Column for T {}

impl Columns for Row {
    fn col<T: Column>(&self, name: &str) -> Result<T> {
        self.try_get(name)
            .with_context(|| format!("reading column {name}"))
    }
}

/// One object of a `json_agg` array: a row.
pub struct JsonRow<'a>(pub &'a Map<String, Value>);

impl Columns for JsonRow<'_> {
    fn col<T: Column>(&self, name: &str) -> Result<T> {
        T::from_json(self.0.get(name).unwrap_or(&Value::Null))
            .with_context(|| format!("reading column {name}"))
    }
}

/// The rows of a JSON array column (`json_agg`, NULL when there were none),
/// each made into `T`.
pub fn json_rows<'v, T>(
    array: Option<&'v Value>,
    mut from: impl FnMut(&JsonRow<'v>) -> Result<T>,
) -> Result<Vec<T>> {
    match array {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::Object(map) => from(&JsonRow(map)),
                other => Err(anyhow!("expected a row object, got {other}")),
            })
            .collect(),
        Some(other) => Err(anyhow!("expected an array of rows, got {other}")),
    }
}

/// What a column the reference schema says is NOT NULL holds in the model
/// when the database has NULL there: a placeholder the read notes in a
/// [`Warning`], so the row is still shown and the decision refuses it.
pub trait Unread: Sized {
    fn unread() -> Self;
}

macro_rules! unread {
    ($($t:ty => $v:expr),+ $(,)?) => {$(
        impl Unread for $t {
            fn unread() -> Self {
                $v
            }
        }
    )+};
}

unread!(
    String => "NULL".to_string(),
    Uuid => Uuid::nil(),
    i32 => 0,
    i64 => 0,
    bool => false,
    Value => Value::Null,
    DateTime<Utc> => DateTime::<Utc>::UNIX_EPOCH,
    AllocationStatus => AllocationStatus::Null,
    DeploymentStatus => DeploymentStatus::Null,
    InstanceStatus => InstanceStatus::Null,
    JobKind => JobKind::Null,
    JobStatus => JobStatus::Null,
    NodeStatus => NodeStatus::Null,
    ResultOutcome => ResultOutcome::Null,
    RouteStatus => RouteStatus::Null,
);

impl<T> Unread for Vec<T> {
    fn unread() -> Self {
        Vec::new()
    }
}

/// Reads one row of `table`, noting every NULL in a column the reference
/// schema says is NOT NULL as a [`Warning`] that names the table, the
/// column and the row, instead of failing the whole read with the
/// driver's words. A view then shows the row; `decide` refuses to decide
/// on it.
pub struct RowReader<'r, 'w, R: Columns> {
    row: &'r R,
    table: &'static str,
    id: String,
    warnings: &'w mut Vec<Warning>,
}

impl<'r, 'w, R: Columns> RowReader<'r, 'w, R> {
    /// The row's id is read from `id_column` (a primary key).
    pub fn new(
        row: &'r R,
        table: &'static str,
        id_column: &str,
        warnings: &'w mut Vec<Warning>,
    ) -> Result<Self> {
        let id = row
            .col::<Option<Uuid>>(id_column)?
            .map_or_else(|| "(no id)".to_string(), |id| id.to_string());
        Ok(RowReader::with_id(row, table, id, warnings))
    }

    /// A row whose id is not one uuid column (e.g. a composite key).
    pub fn with_id(
        row: &'r R,
        table: &'static str,
        id: String,
        warnings: &'w mut Vec<Warning>,
    ) -> Self {
        RowReader {
            row,
            table,
            id,
            warnings,
        }
    }

    /// The row's id, as the warnings name it.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A column that may be NULL (read as an `Option`).
    pub fn col<T: Column>(&self, name: &str) -> Result<T> {
        self.row.col(name)
    }

    /// A NOT NULL column: NULL becomes the placeholder and a warning.
    pub fn required<T: Column + Unread>(&mut self, name: &'static str) -> Result<T> {
        Ok(self.or_unknown(name)?.unwrap_or_else(T::unread))
    }

    /// [`Self::required`] for a result column named `name` that holds the
    /// table's `column`.
    pub fn required_as<T: Column + Unread>(
        &mut self,
        name: &str,
        column: &'static str,
    ) -> Result<T> {
        Ok(self.or_unknown_as(name, column)?.unwrap_or_else(T::unread))
    }

    /// Notes a NULL found in another way (e.g. inside a JSON value).
    pub fn null(&mut self, table: &str, column: &str, id: &str) {
        crate::model::warning::push_unique(self.warnings, Warning::null(table, column, id));
    }

    /// A NOT NULL column the model keeps optional: NULL is `None` and a
    /// warning.
    pub fn or_unknown<T: Column>(&mut self, name: &'static str) -> Result<Option<T>> {
        self.or_unknown_as(name, name)
    }

    /// [`Self::or_unknown`] for a result column named `name` that holds
    /// the table's `column` (e.g. `org_id` read as `deployment_org_id`).
    pub fn or_unknown_as<T: Column>(
        &mut self,
        name: &str,
        column: &'static str,
    ) -> Result<Option<T>> {
        let value = self.row.col::<Option<T>>(name)?;
        if value.is_none() {
            crate::model::warning::push_unique(
                self.warnings,
                Warning::null(self.table, column, &self.id),
            );
        }
        Ok(value)
    }
}

/// A value as `to_json` writes it.
pub trait FromJson: Sized {
    fn from_json(value: &Value) -> Result<Self>;
}

fn text(value: &Value) -> Result<&str> {
    value
        .as_str()
        .ok_or_else(|| anyhow!("expected text, got {value}"))
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: &Value) -> Result<Self> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: &Value) -> Result<Self> {
        value
            .as_array()
            .ok_or_else(|| anyhow!("expected an array, got {value}"))?
            .iter()
            .map(T::from_json)
            .collect()
    }
}

impl FromJson for String {
    fn from_json(value: &Value) -> Result<Self> {
        text(value).map(str::to_string)
    }
}

impl FromJson for Uuid {
    fn from_json(value: &Value) -> Result<Self> {
        Ok(Uuid::parse_str(text(value)?)?)
    }
}

/// `to_json(timestamptz)` is ISO 8601 with the session's offset, always.
impl FromJson for DateTime<Utc> {
    fn from_json(value: &Value) -> Result<Self> {
        Ok(DateTime::parse_from_rfc3339(text(value)?)?.with_timezone(&Utc))
    }
}

impl FromJson for bool {
    fn from_json(value: &Value) -> Result<Self> {
        value
            .as_bool()
            .ok_or_else(|| anyhow!("expected a boolean, got {value}"))
    }
}

impl FromJson for i64 {
    fn from_json(value: &Value) -> Result<Self> {
        value
            .as_i64()
            .ok_or_else(|| anyhow!("expected an integer, got {value}"))
    }
}

impl FromJson for i32 {
    fn from_json(value: &Value) -> Result<Self> {
        Ok(i32::try_from(i64::from_json(value)?)?)
    }
}

impl FromJson for f64 {
    fn from_json(value: &Value) -> Result<Self> {
        value
            .as_f64()
            .ok_or_else(|| anyhow!("expected a number, got {value}"))
    }
}

/// A `json`/`jsonb` column: the value itself.
impl FromJson for Value {
    fn from_json(value: &Value) -> Result<Self> {
        Ok(value.clone())
    }
}

macro_rules! statuses_from_json {
    ($($status:ty),+) => {$(
        impl FromJson for $status {
            fn from_json(value: &Value) -> Result<Self> {
                Ok(<$status>::parse(text(value)?))
            }
        }
    )+};
}

statuses_from_json!(
    AllocationStatus,
    DeploymentStatus,
    InstanceStatus,
    JobKind,
    JobStatus,
    NodeStatus,
    ResultOutcome,
    RouteStatus
);

#[cfg(test)]
#[path = "columns_tests.rs"]
mod tests;
