//! `--show-sql` (README, "Output and exit codes"): every statement the
//! tool sends, in order, as sent (the schema rendered in; the file's
//! comment lines left out, the file named instead), with its bound
//! parameters, handed to the sink the command installed (the
//! `ui` prints it on stderr, each line prefixed). Only statements and
//! parameters are shown, never a result row and never the connection
//! string, so no password can pass through here.

use std::sync::OnceLock;

use postgres::types::{IsNull, ToSql, Type};

/// Where traced statements go: one block of lines per statement.
pub type Sink = fn(&[String]);

static SINK: OnceLock<Sink> = OnceLock::new();

/// Shows every statement from now on (`--show-sql`); the first sink
/// installed stays.
pub fn install(sink: Sink) {
    let _ = SINK.set(sink);
}

/// Whether statements are being shown.
pub fn enabled() -> bool {
    SINK.get().is_some()
}

/// A statement of the registry (`sql/<path>`) and its parameters, `$1`
/// first, each with the type it is sent as.
pub fn statement(path: &str, text: &str, values: &[(&(dyn ToSql + Sync), Type)]) {
    let Some(sink) = SINK.get() else {
        return;
    };
    let mut lines = shown(Some(path), text);
    if !values.is_empty() {
        let params: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, (value, ty))| format!("${} = {} ({ty})", i + 1, literal(*value, ty)))
            .collect();
        lines.push(format!("-- parameters: {}", params.join(", ")));
    }
    sink(&lines);
}

/// A script sent as it is (transaction control; `sql/<path>` when it is
/// a file of the registry, rendered).
pub fn script(path: Option<&str>, text: &str) {
    let Some(sink) = SINK.get() else {
        return;
    };
    if !text.trim().is_empty() {
        sink(&shown(path, text));
    }
}

/// The statement as sent, without its comment lines and blank lines (the
/// file's comments are in the file it names), headed by that file.
fn shown(path: Option<&str>, text: &str) -> Vec<String> {
    let code = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with("--"))
        .map(|line| line.trim_end().to_string());
    path.map(|p| format!("-- sql/{p}"))
        .into_iter()
        .chain(code)
        .collect()
}

/// A parameter as an operator would type it into psql: `NULL`, a number
/// or a boolean as it is, an array as `ARRAY[…]`, JSON as its text,
/// anything else as a quoted literal.
pub fn literal(value: &(dyn ToSql + Sync), ty: &Type) -> String {
    if *ty == Type::JSONB || *ty == Type::JSON {
        return json_text(value, ty).map_or_else(|| "NULL".to_string(), |t| quoted(&t));
    }
    let debug = format!("{value:?}");
    let inner = match debug
        .strip_prefix("Some(")
        .and_then(|d| d.strip_suffix(')'))
    {
        Some(inner) => inner.to_string(),
        None if debug == "None" => return "NULL".to_string(),
        None => debug,
    };
    scalar(&inner)
}

/// One value's Debug text as a literal.
fn scalar(debug: &str) -> String {
    if let Some(items) = debug
        .starts_with('[')
        .then(|| serde_json::from_str::<Vec<serde_json::Value>>(debug).ok())
        .flatten()
    {
        let items: Vec<String> = items
            .iter()
            .map(|item| match item {
                serde_json::Value::String(text) => quoted(text),
                other => other.to_string(),
            })
            .collect();
        return format!("ARRAY[{}]", items.join(", "));
    }
    if debug.starts_with('"') {
        // A Rust string's Debug: unquote, then quote as SQL does.
        let text = serde_json::from_str::<String>(debug).unwrap_or_else(|_| debug.to_string());
        return quoted(&text);
    }
    if debug.parse::<f64>().is_ok() || debug == "true" || debug == "false" {
        return debug.to_string();
    }
    quoted(debug)
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A JSON parameter's text, as it goes over the wire (jsonb's binary form
/// is a version byte and the text); `None` for NULL.
fn json_text(value: &(dyn ToSql + Sync), ty: &Type) -> Option<String> {
    let mut out = bytes::BytesMut::new();
    match value.to_sql_checked(ty, &mut out) {
        Ok(IsNull::No) => {}
        _ => return None,
    }
    let text = if *ty == Type::JSONB {
        out.get(1..)?
    } else {
        &out[..]
    };
    Some(String::from_utf8_lossy(text).into_owned())
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
