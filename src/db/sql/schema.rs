//! The one identifier spliced into statements: the control plane's schema,
//! validated and quoted (see "The schema" in the registry's docs).

/// The schema that holds the control plane's tables, validated: a name as
/// the catalog spells it (case matters, no quotes needed), 1 to 63 bytes
/// (a longer one would be silently truncated by the server and name
/// another schema), no control characters, not a system schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema(String);

impl Schema {
    /// The default, as in the reference schema.
    pub const DEFAULT: &'static str = "public";

    /// Validates a schema name (for `--schema` / `PUSHLEFT_SCHEMA`).
    pub fn parse(name: &str) -> Result<Schema, String> {
        if name.is_empty() {
            return Err("the schema name is empty; the default is public".to_string());
        }
        if name.len() > 63 {
            return Err(format!(
                "the schema name is {} bytes long; PostgreSQL names are at most 63 bytes",
                name.len()
            ));
        }
        if name.chars().any(crate::model::text::is_control) {
            return Err("the schema name contains a control character".to_string());
        }
        if name.starts_with("pg_") || name == "information_schema" {
            return Err(format!(
                "`{name}` is a system schema; name the schema that holds the control plane's tables"
            ));
        }
        Ok(Schema(name.to_string()))
    }

    /// `public`.
    pub fn public() -> Schema {
        Schema(Schema::DEFAULT.to_string())
    }

    /// The name as the catalog spells it (for bound parameters such as
    /// `pg_namespace.nspname = $1`).
    pub fn name(&self) -> &str {
        &self.0
    }

    /// The name as an SQL string literal: single-quoted, quotes doubled
    /// (every transaction pins standard_conforming_strings, so a backslash
    /// is only a backslash).
    pub fn literal(&self) -> String {
        format!("'{}'", self.0.replace('\'', "''"))
    }

    /// The name as an SQL identifier: always double-quoted, quotes doubled.
    pub fn quoted(&self) -> String {
        format!("\"{}\"", self.0.replace('"', "\"\""))
    }
}

impl Default for Schema {
    fn default() -> Schema {
        Schema::public()
    }
}

impl std::fmt::Display for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
