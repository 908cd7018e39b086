//! A value a read found that the model cannot take as it is: NULL where
//! the reference schema says NOT NULL (a live schema may differ), or a
//! status or kind this tool does not know. A fleet-wide view shows the row
//! anyway and says so in a warning; the decision refuses to rest on it.

use serde::Serialize;

/// One odd value, naming where it is. In the `warnings` array of the JSON
/// documents of `stuck`, `fleet list` and `history`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub table: String,
    pub column: String,
    /// The row's id (its primary key, as text).
    pub row: String,
    /// The value as read; null for NULL.
    pub value: Option<String>,
    /// One sentence, for the operator.
    pub message: String,
}

impl Warning {
    /// NULL in a column the reference schema says is NOT NULL.
    pub fn null(table: &str, column: &str, row: &str) -> Warning {
        Warning {
            table: table.to_string(),
            column: column.to_string(),
            row: row.to_string(),
            value: None,
            message: format!(
                "{table}.{column} is NULL in row {row}, where the reference schema says NOT \
                 NULL; it is shown as unknown"
            ),
        }
    }

    /// A value of a status or kind this tool does not know.
    pub fn unknown(table: &str, column: &str, row: &str, value: &str) -> Warning {
        Warning {
            table: table.to_string(),
            column: column.to_string(),
            row: row.to_string(),
            value: Some(value.to_string()),
            message: format!(
                "{table} row {row} has {column} `{}`, which pushleft-controller does not know; \
                 it is shown as read",
                value.escape_debug()
            ),
        }
    }

    /// The warning for a status or kind as read: none when it is known.
    pub fn of_status(table: &str, column: &str, row: &str, status: &impl Status) -> Option<Self> {
        if status.is_null() {
            Some(Warning::null(table, column, row))
        } else if status.is_unknown() {
            Some(Warning::unknown(table, column, row, status.as_str()))
        } else {
            None
        }
    }

    /// The same warning with another sentence (what a view did with it).
    pub fn saying(mut self, message: String) -> Warning {
        self.message = message;
        self
    }
}

/// What every status enum answers (see `status.rs`).
pub trait Status {
    fn as_str(&self) -> &str;
    fn is_unknown(&self) -> bool;
    fn is_null(&self) -> bool;
}

/// Adds `found` to `warnings` unless it is there already (one row read
/// twice, e.g. a node several jobs target, is one warning).
pub fn push_unique(warnings: &mut Vec<Warning>, found: Warning) {
    if !warnings.contains(&found) {
        warnings.push(found);
    }
}
