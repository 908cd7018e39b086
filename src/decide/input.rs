//! The operator's input to `fail-safely`, checked before any database is
//! touched: the reason the audit keeps, and the idempotency key.

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::exit;

/// Longest reason accepted (characters).
pub const MAX_REASON: usize = 2000;

/// Validates the reason: trimmed; not empty, not over 2,000 characters, no
/// NUL byte (PostgreSQL text cannot hold one).
pub fn validate_reason(raw: &str) -> anyhow::Result<String> {
    let reason = raw.trim();
    if reason.is_empty() {
        return Err(exit::usage(
            "--reason is empty: give the ticket and the reason, e.g. --reason \"INC-4711 stuck queued since 02:10\"",
        ));
    }
    if reason.contains('\0') {
        return Err(exit::usage(
            "--reason contains a NUL byte, which cannot be stored; remove it",
        ));
    }
    let chars = reason.chars().count();
    if chars > MAX_REASON {
        return Err(exit::usage(format!(
            "--reason is {chars} characters long; at most {MAX_REASON} are allowed (link the details from the ticket)"
        )));
    }
    Ok(reason.to_string())
}

/// Validates an explicit `--idempotency-key`.
pub fn validate_key(raw: &str) -> anyhow::Result<String> {
    let key = raw.trim();
    if key.is_empty() || key.len() > 200 || key.contains('\0') {
        return Err(exit::usage(
            "--idempotency-key must be 1 to 200 characters without NUL bytes",
        ));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::ExitCode;

    #[test]
    fn reasons_are_trimmed_and_bounded() {
        assert_eq!(validate_reason("  INC-1 stuck \n").unwrap(), "INC-1 stuck");
        for bad in ["", "   \t\n", "a\0b"] {
            let err = validate_reason(bad).unwrap_err();
            assert_eq!(exit::code_for(&err), ExitCode::Usage, "{bad:?}");
        }
        assert!(validate_reason(&"x".repeat(MAX_REASON)).is_ok());
        assert!(validate_reason(&"x".repeat(MAX_REASON + 1)).is_err());
        // Quotes and SQL are just text.
        assert_eq!(
            validate_reason("'; DROP TABLE jobs; --").unwrap(),
            "'; DROP TABLE jobs; --"
        );
    }

    #[test]
    fn the_default_key_depends_on_deployment_and_reason() {
        let a = Uuid::from_u128(1);
        let b = Uuid::from_u128(2);
        assert_eq!(default_key(a, "r"), default_key(a, "r"));
        assert_ne!(default_key(a, "r"), default_key(b, "r"));
        assert_ne!(default_key(a, "r"), default_key(a, "r2"));
    }
}
