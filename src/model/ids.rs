//! How ids are shown to people.

use uuid::Uuid;

/// The first 8 hex digits of an id: enough to tell rows apart in a table
/// and to type back at a prompt; commands to copy carry the full id.
pub fn short_id(id: Uuid) -> String {
    let mut text = id.simple().to_string();
    text.truncate(8);
    text
}

/// [`short_id`] of an id the database may hold NULL for: `NULL` then.
pub fn short_or_null(id: Option<Uuid>) -> String {
    id.map_or_else(|| "NULL".to_string(), short_id)
}
