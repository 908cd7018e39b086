//! How ids are shown to people.

use uuid::Uuid;

/// The first 8 hex digits of an id: enough to tell rows apart in a table
/// and to type back at a prompt; commands to copy carry the full id.
pub fn short_id(id: Uuid) -> String {
    let mut text = id.simple().to_string();
    text.truncate(8);
    text
}
