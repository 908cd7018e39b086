//! A time as the JSON documents write it, fast: the same text as chrono's
//! own serialization (RFC 3339, UTC as `Z`, the fraction in 0, 3, 6 or 9
//! digits, whichever shows it exactly), written without the formatting
//! machinery. For the fields written once per row of a long trail
//! (`diagnose -o json` of a million events, README "Performance"); any time
//! outside the years 0–9999 or in a leap second is left to chrono.

use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::Serializer;

/// `#[serde(serialize_with = …)]` for an optional time: `null` for None.
pub fn serialize_opt<S: Serializer>(at: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match at {
        Some(at) => serialize(at, s),
        None => s.serialize_none(),
    }
}

/// `#[serde(serialize_with = …)]` for a time.
pub fn serialize<S: Serializer>(at: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    let mut buf = [0u8; 30];
    match write(at, &mut buf) {
        // Only ASCII digits and separators were written.
        Some(n) => {
            s.serialize_str(std::str::from_utf8(&buf[..n]).map_err(serde::ser::Error::custom)?)
        }
        None => serde::Serialize::serialize(at, s),
    }
}

/// The text into `buf`, its length; None when chrono must write it.
fn write(at: &DateTime<Utc>, buf: &mut [u8; 30]) -> Option<usize> {
    let year = u32::try_from(at.year()).ok().filter(|y| *y <= 9999)?;
    let nanos = at.nanosecond();
    if nanos >= 1_000_000_000 {
        return None;
    }
    buf[..20].copy_from_slice(b"0000-00-00T00:00:00.");
    digits(buf, 0, year, 4);
    digits(buf, 5, at.month(), 2);
    digits(buf, 8, at.day(), 2);
    digits(buf, 11, at.hour(), 2);
    digits(buf, 14, at.minute(), 2);
    digits(buf, 17, at.second(), 2);
    let (fraction, width) = if nanos == 0 {
        (0, 0)
    } else if nanos.is_multiple_of(1_000_000) {
        (nanos / 1_000_000, 3)
    } else if nanos.is_multiple_of(1_000) {
        (nanos / 1_000, 6)
    } else {
        (nanos, 9)
    };
    let end = if width == 0 {
        19
    } else {
        digits(buf, 20, fraction, width);
        20 + width
    };
    buf[end] = b'Z';
    Some(end + 1)
}

/// `value` in `width` decimal digits at `buf[at..]`, zero-padded.
fn digits(buf: &mut [u8], at: usize, mut value: u32, width: usize) {
    for i in (at..at + width).rev() {
        buf[i] = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

#[cfg(test)]
#[path = "timestamp_tests.rs"]
mod tests;
