//! The operator's input to `fail-safely`, checked before any database is
//! touched: the reason the audit keeps, and the idempotency key.

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::exit;
use crate::model::text::{code_point, is_bidi_control, is_control, is_invisible};

/// Longest reason accepted (characters).
pub const MAX_REASON: usize = 2000;

/// Shortest reason accepted (characters): room for a ticket at least.
pub const MIN_REASON: usize = 4;

/// An example of a good reason, for the messages.
const EXAMPLE: &str = "--reason \"INC-4711 stuck queued since 02:10\"";

/// A placeholder left in place of the reason: the runbook's (and the
/// `next:` line's) `<ticket and reason>`, anything in angle brackets, or
/// shell variables that were never expanded (`'$TICKET: $WHY'`).
fn is_placeholder(reason: &str) -> bool {
    let lower = reason.to_lowercase();
    if (reason.starts_with('<') && reason.ends_with('>'))
        || lower.contains("<ticket")
        || lower.contains("<reason")
    {
        return true;
    }
    // Without its $NAME / ${NAME} words, is anything left but punctuation?
    let mut rest = String::new();
    let mut variables = 0;
    let mut chars = reason.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$'
            && chars
                .peek()
                .is_some_and(|n| *n == '{' || n.is_alphabetic() || *n == '_')
        {
            variables += 1;
            if chars.peek() == Some(&'{') {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            } else {
                while chars
                    .peek()
                    .is_some_and(|n| n.is_alphanumeric() || *n == '_')
                {
                    chars.next();
                }
            }
        } else {
            rest.push(c);
        }
    }
    variables > 0 && !rest.chars().any(char::is_alphanumeric)
}

/// Validates the reason the audit keeps (README, "When things go wrong",
/// the `--reason` rows): trimmed; 4 to 2,000 characters; no control
/// characters but newlines; no bidirectional or invisible characters
/// ([`check_characters`]); not a placeholder; and, when the team requires one
/// (`PUSHLEFT_REASON_PATTERN`), matching `pattern`. Anything else is exit
/// 2, naming the rule that was broken.
pub fn validate_reason(raw: &str, pattern: Option<&regex::Regex>) -> anyhow::Result<String> {
    let reason = raw.trim();
    if reason.is_empty() {
        return Err(exit::usage(format!(
            "--reason is empty: give the ticket and the reason, e.g. {EXAMPLE}"
        )));
    }
    if reason.contains('\0') {
        return Err(exit::usage(
            "--reason contains a NUL byte, which cannot be stored; remove it",
        ));
    }
    check_characters("--reason", reason, true)?;
    let chars = reason.chars().count();
    if chars < MIN_REASON {
        return Err(exit::usage(format!(
            "--reason is {chars} character{} long; give at least {MIN_REASON}: the ticket and \
             the reason, e.g. {EXAMPLE}",
            if chars == 1 { "" } else { "s" }
        )));
    }
    if chars > MAX_REASON {
        return Err(exit::usage(format!(
            "--reason is {chars} characters long; at most {MAX_REASON} are allowed (link the details from the ticket)"
        )));
    }
    if is_placeholder(reason) {
        return Err(exit::usage(format!(
            "--reason `{}` is a placeholder: replace it with the ticket and the reason, e.g. {EXAMPLE}",
            reason.escape_debug()
        )));
    }
    if let Some(pattern) = pattern
        && !pattern.is_match(reason)
    {
        return Err(exit::usage(format!(
            "--reason does not match the pattern this team requires (PUSHLEFT_REASON_PATTERN \
             or --reason-pattern: `{}`); write it in that shape, e.g. the ticket first",
            pattern.as_str().escape_debug()
        )));
    }
    Ok(reason.to_string())
}

/// Compiles `PUSHLEFT_REASON_PATTERN` / `--reason-pattern` (for clap: an
/// invalid one is a usage error naming the problem).
pub fn reason_pattern(text: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(text)
        .size_limit(1 << 20)
        .build()
        .map_err(|err| format!("not a valid regular expression: {err}"))
}

/// The character rules of an argument the audit keeps (README, "Output
/// and exit codes": the character rules): no control character (newlines
/// only where `newlines`), no bidirectional formatting character, nothing
/// invisible. Exit 2 naming `option`, the character and where it is.
fn check_characters(option: &str, text: &str, newlines: bool) -> anyhow::Result<()> {
    for (at, c) in text.chars().enumerate() {
        let why = if is_control(c) && !(newlines && c == '\n') {
            if newlines {
                ": only newlines are allowed (an escape sequence or a carriage return would be \
                 stored and replayed to every terminal that shows the audit)"
            } else {
                ": an escape sequence or a line break would be stored and replayed to every \
                 terminal that shows the audit"
            }
        } else if is_bidi_control(c) {
            ", a bidirectional formatting character that makes text display in another order \
             than it is stored"
        } else if is_invisible(c) {
            ", an invisible character that makes two different texts look the same"
        } else {
            continue;
        };
        let what = if is_control(c) {
            "the control character "
        } else {
            ""
        };
        return Err(exit::usage(format!(
            "{option} contains {what}{} at character {}{why}; remove it",
            code_point(c),
            at + 1
        )));
    }
    Ok(())
}

/// Validates an explicit `--idempotency-key`: 1 to 200 characters, by the
/// same character rules as `--reason` but without newlines.
pub fn validate_key(raw: &str) -> anyhow::Result<String> {
    let key = raw.trim();
    if key.is_empty() || key.len() > 200 || key.contains('\0') {
        return Err(exit::usage(
            "--idempotency-key must be 1 to 200 characters without NUL bytes",
        ));
    }
    check_characters("--idempotency-key", key, false)?;
    Ok(key.to_string())
}

/// Validates `--expect-fingerprint`: what `diagnose` prints, 16 hex
/// digits. Anything else is bad input (exit 2), not a changed state.
pub fn validate_fingerprint(raw: &str) -> anyhow::Result<String> {
    let fingerprint = raw.trim().to_ascii_lowercase();
    if fingerprint.len() != 16 || !fingerprint.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(exit::usage(format!(
            "--expect-fingerprint `{}` is not a fingerprint: give the 16 hex digits that \
             `pushleft-controller diagnose <id> -o json` prints as .fingerprint",
            raw.trim()
        )));
    }
    Ok(fingerprint)
}

/// The default idempotency key: the same deployment and reason give the same
/// key, so rerunning a pasted command is a replay, not a second event.
pub fn default_key(deployment: Uuid, reason: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"pushleft-controller/fail-safely\0");
    h.update(deployment.as_bytes());
    h.update(b"\0");
    h.update(reason.as_bytes());
    format!("pl1-{}", hex::encode(&h.finalize()[..16]))
}

/// The class of the advisory locks the tool takes on idempotency keys
/// (`plk1` in ASCII): the first half of a two-key advisory lock, so that
/// they cannot collide with a control plane's own single-key locks.
pub const KEY_LOCK_CLASS: i32 = 0x706c_6b31;

/// The advisory lock that serializes the runs with one idempotency key:
/// the class and the first 32 bits of the key's SHA-256.
pub fn key_lock(key: &str) -> (i32, i32) {
    let digest = Sha256::digest(key.as_bytes());
    let hash = i32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
    (KEY_LOCK_CLASS, hash)
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
