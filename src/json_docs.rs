//! The documented JSON output of each command, rendered into its man page.

/// roff text for the JSON OUTPUT section of a man page, if the page has one.
pub fn for_page(_page: &str) -> Option<&'static str> {
    None
}
