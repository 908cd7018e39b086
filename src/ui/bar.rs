//! Progress bars that fit the screen: the bar itself gives way (down to
//! nothing) so that the line, with its message, never wraps — a wrapped
//! bar redraws on the wrong line and splits the id it shows.

use indicatif::ProgressStyle;

/// The spinner and the elapsed time before the bar: `⠁ [00:00:01] `.
const BEFORE: usize = 13;
/// A bar narrower than this says nothing: it is left out.
const NARROWEST: usize = 6;

/// The template `{spinner} [{elapsed}] {bar:N} {after}` for a screen of
/// `width`, where `after` takes at most `after_width` columns; the bar is
/// at most `widest` and left out when there is no room for it. One column
/// stays free: a line that fills the last one leaves the cursor waiting
/// to wrap, and the next redraw lands a line lower.
pub fn template(width: usize, after: &str, after_width: usize, widest: usize) -> String {
    let room = width.saturating_sub(1 + BEFORE + 1 + after_width);
    match room.min(widest) {
        bar if bar >= NARROWEST => format!("{{spinner}} [{{elapsed}}] {{bar:{bar}}} {after}"),
        _ => format!("{{spinner}} [{{elapsed}}] {after}"),
    }
}

/// [`template`] as indicatif's style.
pub fn style(width: usize, after: &str, after_width: usize, widest: usize) -> ProgressStyle {
    ProgressStyle::with_template(&template(width, after, after_width, widest))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

#[cfg(test)]
#[path = "bar_tests.rs"]
mod tests;
