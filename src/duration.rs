//! Durations on the command line: `500ms`, `90s`, `30m`, `2h`, `1d`, and
//! compounds of them from the largest unit down (`1h30m`, `29d8h`,
//! `1d2h3m4s`, `1s500ms`): every duration the tool prints reads back
//! (README, "Durations and times").

use std::time::Duration;

/// The units, largest first, with their length in milliseconds.
const UNITS: [(&str, u64); 5] = [
    ("d", 86_400_000),
    ("h", 3_600_000),
    ("m", 60_000),
    ("s", 1_000),
    ("ms", 1),
];

/// Parses a positive duration such as `90s`, `30m`, `2h` or `1h30m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if let Some(positive) = text.strip_prefix('-') {
        return Err(format!(
            "`{text}`: a duration cannot be negative; write a positive one such as {positive}"
        ));
    }
    if text.is_empty() {
        return Err("an empty duration; write e.g. 90s, 30m, 2h or 1h30m".to_string());
    }
    let mut total: u64 = 0;
    let mut rest = text;
    let mut smallest: Option<usize> = None;
    while !rest.is_empty() {
        let (millis, rank, after) = part(text, rest, smallest)?;
        total = total
            .checked_add(millis)
            .ok_or_else(|| format!("`{text}` is too long"))?;
        smallest = Some(rank);
        rest = after.trim_start();
    }
    if total == 0 {
        return Err(format!("`{text}`: the duration must be greater than zero"));
    }
    Ok(Duration::from_millis(total))
}

/// The first part of `rest` (a number and its unit, as in `30m`): its
/// length in milliseconds, its unit's rank in [`UNITS`], and what follows.
/// `smallest` is the rank of the unit before it: units go from the largest
/// down, each once.
fn part<'a>(
    text: &str,
    rest: &'a str,
    smallest: Option<usize>,
) -> Result<(u64, usize, &'a str), String> {
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (number, after) = rest.split_at(digits);
    if number.is_empty() {
        return Err(format!(
            "`{text}`: `{rest}` does not start with a number; write e.g. 90s, 30m, 2h or 1h30m"
        ));
    }
    if after.starts_with('.') || after.starts_with(',') {
        return Err(format!(
            "`{text}`: durations take whole numbers, no fractions; write e.g. 90m for 1.5h or 1500ms for 1.5s"
        ));
    }
    let unit_end = after
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(after.len());
    let (unit, next) = after.split_at(unit_end);
    let unit = unit.trim();
    let whole = &rest[..digits + unit_end];
    let named = if whole.trim() == text {
        format!("`{text}`")
    } else {
        format!("`{text}`: `{}`", whole.trim())
    };
    if unit.is_empty() {
        return Err(format!(
            "{named} has no unit; write e.g. 90s, 30m, 2h or 1h30m"
        ));
    }
    let Some(rank) = UNITS.iter().position(|(name, _)| *name == unit) else {
        return Err(format!(
            "{named} has an unknown unit `{unit}`; use ms, s, m, h or d, as in 1h30m or 500ms"
        ));
    };
    if smallest.is_some_and(|before| rank <= before) {
        return Err(format!(
            "{named} comes after a unit as small or smaller; write the units from the largest down, each once, as in 1d2h3m4s"
        ));
    }
    let value: u64 = number.parse().map_err(|_| {
        format!("`{text}` is not a duration: `{number}` is too large; write e.g. 90s, 30m or 2h")
    })?;
    let millis = value
        .checked_mul(UNITS[rank].1)
        .ok_or_else(|| format!("`{text}` is too long"))?;
    Ok((millis, rank, next))
}

/// Milliseconds as a bigint parameter (saturating).
pub fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// A setting's duration exactly, in the form `parse_duration` reads:
/// "90s" is "1m30s", not "1m" (a threshold echoed back must be the one in
/// force); "0s" for zero.
pub fn exact(duration: Duration) -> String {
    let mut left = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
    if left == 0 {
        return "0s".to_string();
    }
    let mut text = String::new();
    for (unit, length) in UNITS {
        if left >= length {
            text.push_str(&format!("{}{unit}", left / length));
            left %= length;
        }
    }
    text
}

/// "41m", "3h12m", "2d4h", "12s": the relative ages tables show (the two
/// largest units, the rest left out; each reads back as a duration).
pub fn human(seconds: i64) -> String {
    let s = seconds.unsigned_abs();
    let text = if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m", s / 60)
    } else if s < 86_400 {
        let m = (s % 3600) / 60;
        if m == 0 {
            format!("{}h", s / 3600)
        } else {
            format!("{}h{}m", s / 3600, m)
        }
    } else {
        let h = (s % 86_400) / 3600;
        if h == 0 {
            format!("{}d", s / 86_400)
        } else {
            format!("{}d{}h", s / 86_400, h)
        }
    };
    if seconds < 0 {
        format!("in {text}")
    } else {
        text
    }
}

/// "41m ago" / "in 20m".
pub fn ago(seconds: i64) -> String {
    if seconds < 0 {
        human(seconds)
    } else {
        format!("{} ago", human(seconds))
    }
}

#[cfg(test)]
#[path = "duration_tests.rs"]
mod tests;
