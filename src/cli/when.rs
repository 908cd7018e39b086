//! Times on the command line (README, "Durations and times"): what the
//! tool prints reads back — RFC 3339 (`2026-12-01T20:05:00Z`, JSON's
//! form), the screen's `2026-12-01 20:05:00Z` and `2026-12-01 20:05Z`,
//! `… UTC` — and a time without a zone (`2026-12-01 20:05`,
//! `2026-12-01 20:05:30`, `2026-12-01`) is read in the operator's time
//! zone: TZ, else the system's (chrono's `Local`). A local time the clocks
//! skip or show twice (daylight saving) is refused, never guessed. Or how
//! long ago: `12h`, `2h30m`, `3h15m ago`.

use std::time::Duration;

use chrono::{DateTime, FixedOffset, Local, LocalResult, NaiveDate, NaiveDateTime, TimeZone, Utc};

use crate::duration::parse_duration;

/// A point in time: a moment, or how long ago.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenArg {
    At(DateTime<Utc>),
    Ago(Duration),
}

/// The forms of a date and time without a zone, longest first.
const NAIVE: [&str; 6] = [
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
];

/// A time (with a zone, or local) or how long ago (see above).
pub fn parse_when(text: &str) -> Result<WhenArg, String> {
    let text = text.trim();
    if let Some(ago) = text.strip_suffix(" ago") {
        return parse_duration(ago).map(WhenArg::Ago);
    }
    if let Some(at) = with_zone(text) {
        return Ok(WhenArg::At(at));
    }
    if let Some(naive) = naive(text) {
        return local(text, naive).map(WhenArg::At);
    }
    if text.contains(['-', ':']) {
        return Err(expected(text));
    }
    parse_duration(text)
        .map(WhenArg::Ago)
        .map_err(|err| format!("{err}; or {}", expected_forms()))
}

fn expected_forms() -> &'static str {
    "a time (2026-11-29T03:12:00Z, 2026-11-29 03:12Z, or 2026-11-29 03:12 and 2026-11-29 \
     in the local time zone: TZ, else the system's) or how long ago (12h, 2h30m)"
}

fn expected(text: &str) -> String {
    format!(
        "`{}`: expected {}",
        crate::ui::sanitize::visible(text),
        expected_forms()
    )
}

/// A time that names its zone: RFC 3339, `Z` or ` UTC` after the screen's
/// forms, or an offset (`+02:00`).
fn with_zone(text: &str) -> Option<DateTime<Utc>> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Some(at.with_timezone(&Utc));
    }
    let utc = text
        .strip_suffix('Z')
        .or_else(|| text.strip_suffix('z'))
        .or_else(|| text.strip_suffix(" UTC"))
        .or_else(|| text.strip_suffix("UTC"));
    if let Some(naive) = utc.and_then(|t| self::naive(t.trim_end())) {
        return Some(naive.and_utc());
    }
    NAIVE.iter().find_map(|form| {
        DateTime::<FixedOffset>::parse_from_str(text, &format!("{form}%:z"))
            .ok()
            .map(|at| at.with_timezone(&Utc))
    })
}

/// A date and time without a zone; a date alone is its midnight.
fn naive(text: &str) -> Option<NaiveDateTime> {
    NAIVE
        .iter()
        .find_map(|form| NaiveDateTime::parse_from_str(text, form).ok())
        .or_else(|| {
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .ok()
                .and_then(|day| day.and_hms_opt(0, 0, 0))
        })
}

/// The operator's time zone as the messages name it.
fn zone_name() -> String {
    match std::env::var("TZ") {
        Ok(tz) if !tz.is_empty() => format!("the local time zone (TZ={tz})"),
        _ => "the local time zone".to_string(),
    }
}

/// `naive` in the operator's time zone; refused when the clocks skip it
/// or show it twice.
fn local(text: &str, naive: NaiveDateTime) -> Result<DateTime<Utc>, String> {
    in_zone(text, Local.from_local_datetime(&naive), &zone_name())
}

/// One reading of a local time, or the sentence that refuses it.
fn in_zone<Tz: TimeZone>(
    text: &str,
    reading: LocalResult<DateTime<Tz>>,
    zone: &str,
) -> Result<DateTime<Utc>, String> {
    let text = crate::ui::sanitize::visible(text);
    match reading {
        LocalResult::Single(at) => Ok(at.with_timezone(&Utc)),
        LocalResult::Ambiguous(one, other) => {
            let (one, other) = (one.with_timezone(&Utc), other.with_timezone(&Utc));
            let (first, second) = (one.min(other), one.max(other));
            Err(format!(
                "`{text}` happens twice in {zone} (the clocks go back): give it in UTC, {} \
                 (the first time) or {} (the second)",
                first.format("%Y-%m-%d %H:%M:%SZ"),
                second.format("%Y-%m-%d %H:%M:%SZ")
            ))
        }
        LocalResult::None => Err(format!(
            "`{text}` does not exist in {zone} (the clocks skip it): give a time that does, or \
             one with its zone (e.g. …Z for UTC)"
        )),
    }
}

#[cfg(test)]
#[path = "when_tests.rs"]
mod tests;
