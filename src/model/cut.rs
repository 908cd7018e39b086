//! Database text read cut (pushleft-controller-diagnose(1), HUGE TEXT). The control plane stores
//! some text without any bound — a job's `last_error`, an event's
//! payload, an agent's output, an operator's reason — and a single value
//! of 50 MB must not make the tool hold 150 MB. Every such column is read
//! as its first [`TEXT_CUT_CHARS`] characters together with its full
//! length, computed by the server, so the rest never crosses the wire;
//! each report says where a value was cut, and `diagnose --full-text`
//! streams the whole of it.

/// The most characters of one database text value the tool reads
/// (PostgreSQL's `left()` counts characters, so a cut never splits one):
/// a screen of it and then some, and no more than a ticket takes. The SQL
/// files name it `:text_cut` (`db::sql` renders it from this constant).
pub const TEXT_CUT_CHARS: usize = 4096;

/// What a report says after a cut value:
/// `cut: 52,428,800 bytes in all; diagnose --full-text shows it`.
pub fn cut_note(length: Option<i64>) -> String {
    match length {
        Some(bytes) => format!(
            "cut: {} bytes in all; diagnose --full-text shows it",
            grouped(bytes)
        ),
        None => "cut; diagnose --full-text shows it".to_string(),
    }
}

/// `52428800` as `52,428,800`: a length read at a glance (and never
/// broken across lines where prose wraps at spaces).
pub fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Which value `diagnose --full-text` is writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FullTextOf {
    /// A job's `last_error`.
    JobLastError,
    /// An agent result's output, without its `log` key.
    ResultOutput,
    /// An event's payload (event `sequence`), without its `log` key.
    EventPayload { sequence: i64 },
}

/// The head of one whole value `diagnose --full-text` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullTextHead {
    pub of: FullTextOf,
    /// The job's, the result's or the event's id.
    pub id: uuid::Uuid,
    /// Its length in bytes of UTF-8.
    pub bytes: i64,
}

/// What `diagnose --full-text` hands its writer as the values arrive:
/// a head, then the value in pieces (each whole characters), then its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FullTextPiece<'a> {
    Begin(FullTextHead),
    Text(&'a str),
    End,
}

#[cfg(test)]
#[path = "cut_tests.rs"]
mod tests;
