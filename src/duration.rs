//! Durations on the command line: `500ms`, `90s`, `30m`, `2h`, `1d`.

use std::time::Duration;

/// Parses a positive duration such as `90s`, `30m` or `2h`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if let Some(positive) = text.strip_prefix('-') {
        return Err(format!(
            "`{text}`: a duration cannot be negative; write a positive one such as {positive}"
        ));
    }
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("`{text}` has no unit; write e.g. 90s, 30m or 2h"))?;
    let (number, unit) = text.split_at(split);
    if !number.is_empty() && (unit.starts_with('.') || unit.starts_with(',')) {
        return Err(format!(
            "`{text}`: durations take whole numbers, no fractions; write e.g. 90m for 1.5h or 1500ms for 1.5s"
        ));
    }
    let value: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration; write e.g. 90s, 30m or 2h"))?;
    let millis_per_unit: u64 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => {
            return Err(format!(
                "`{text}` has an unknown unit `{unit}`; use ms, s, m, h or d"
            ));
        }
    };
    if value == 0 {
        return Err(format!("`{text}`: the duration must be greater than zero"));
    }
    value
        .checked_mul(millis_per_unit)
        .map(Duration::from_millis)
        .ok_or_else(|| format!("`{text}` is too long"))
}

/// Milliseconds as a bigint parameter (saturating).
pub fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// "41m", "3h12m", "2d4h", "12s": the relative ages tables show.
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
