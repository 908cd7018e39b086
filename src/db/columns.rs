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
    ResultOutcome, RouteStatus,
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
    from: impl Fn(&JsonRow<'v>) -> Result<T>,
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
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_rows_read_like_server_rows() {
        let array = json!([
            {"id": "d0000001-0000-4000-8000-000000000001", "at": "2026-11-29T23:30:20.123456+01:00",
             "n": 7, "gone": null, "status": "queued", "odd": "frobbing", "payload": {"a": 1}}
        ]);
        let rows = json_rows(Some(&array), |row| {
            Ok((
                row.col::<Uuid>("id")?,
                row.col::<DateTime<Utc>>("at")?,
                row.col::<i32>("n")?,
                row.col::<Option<String>>("gone")?,
                row.col::<DeploymentStatus>("status")?,
                row.col::<DeploymentStatus>("odd")?,
                row.col::<Value>("payload")?,
            ))
        })
        .unwrap();
        let (id, at, n, gone, status, odd, payload) = &rows[0];
        assert_eq!(id.to_string(), "d0000001-0000-4000-8000-000000000001");
        assert_eq!(at.to_rfc3339(), "2026-11-29T22:30:20.123456+00:00");
        assert_eq!((*n, gone.clone()), (7, None));
        assert_eq!(*status, DeploymentStatus::Queued);
        assert_eq!(*odd, DeploymentStatus::Unknown("frobbing".into()));
        assert_eq!(payload["a"], 1);
        assert!(
            json_rows(None, |row| row.col::<i64>("n"))
                .unwrap()
                .is_empty()
        );
        let wrong = json_rows(Some(&json!([{"n": "x"}])), |row| row.col::<i64>("n"));
        assert!(format!("{:#}", wrong.unwrap_err()).contains("column n"));
    }
}
