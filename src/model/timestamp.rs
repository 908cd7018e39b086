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
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn ours(at: &DateTime<Utc>) -> String {
        let mut out = Vec::new();
        serialize(at, &mut serde_json::Serializer::new(&mut out)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_same_text_as_chrono() {
        let base = Utc.with_ymd_and_hms(2026, 12, 1, 7, 4, 51).unwrap();
        let mut times = vec![
            base,
            Utc.with_ymd_and_hms(0, 1, 1, 0, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap(),
            Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(-1, 1, 1, 0, 0, 0).unwrap(),
        ];
        for nanos in [
            1,
            10,
            999,
            1_000,
            378_285_000,
            378_000_000,
            5,
            999_999_999,
            120_000,
        ] {
            times.push(base + chrono::Duration::nanoseconds(nanos));
        }
        let mut x: i64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let secs = x.rem_euclid(253_402_300_799);
            let nanos = (x >> 3).rem_euclid(1_000_000_000) as u32;
            let nanos = match x & 3 {
                0 => 0,
                1 => nanos / 1_000_000 * 1_000_000,
                2 => nanos / 1_000 * 1_000,
                _ => nanos,
            };
            times.push(Utc.timestamp_opt(secs, nanos).unwrap());
        }
        for at in &times {
            assert_eq!(ours(at), serde_json::to_string(at).unwrap(), "{at:?}");
        }
        let none: Option<DateTime<Utc>> = None;
        let mut out = Vec::new();
        serialize_opt(&none, &mut serde_json::Serializer::new(&mut out)).unwrap();
        assert_eq!(out, b"null");
    }
}
