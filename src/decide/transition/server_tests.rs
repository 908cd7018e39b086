//! Steps 1, 2, 4 and 5's refusals on hand-made settings and findings.

use super::*;
use crate::exit::{ExitCode, code_for};

fn setting<'a>(value: &'a str, source: &'a str) -> Setting<'a> {
    Setting {
        value,
        source,
        set: format!("by {source}"),
    }
}

#[test]
fn a_read_only_default_set_on_purpose_is_refused() {
    let settings = Settings {
        default_transaction_read_only: Some(setting("on", "database")),
        track_counts: Some(setting("on", "default")),
    };
    let err = fit_to_write(&settings).expect_err("refused");
    assert_eq!(code_for(&err), ExitCode::Refused);
    let message = err.to_string();
    assert!(message.contains("read-only by default"), "{message}");
    assert!(message.contains("set by database"), "{message}");
}

#[test]
fn a_read_only_default_left_by_a_session_is_nobodys_intent() {
    let settings = Settings {
        default_transaction_read_only: Some(setting("on", "session")),
        track_counts: Some(setting("on", "default")),
    };
    assert!(fit_to_write(&settings).is_ok());
    // Nothing reported: nothing to refuse.
    assert!(fit_to_write(&Settings::default()).is_ok());
}

#[test]
fn no_tuple_counters_no_proof_of_the_write() {
    let settings = Settings {
        default_transaction_read_only: Some(setting("off", "default")),
        track_counts: Some(setting("off", "configuration file")),
    };
    let err = fit_to_write(&settings).expect_err("refused");
    assert_eq!(code_for(&err), ExitCode::Refused);
    assert!(err.to_string().contains("track_counts is off"), "{err}");
}

#[test]
fn a_standby_is_refused_naming_its_primary_when_known() {
    let err = on_standby(Some("db1:5432"));
    assert_eq!(code_for(&err), ExitCode::Refused);
    assert!(
        err.to_string()
            .contains("the primary (db1:5432, from this standby's primary_conninfo)"),
        "{err}"
    );
    assert!(
        on_standby(None)
            .to_string()
            .contains("against the primary. ")
    );
}

#[test]
fn a_standby_refusal_says_standby_first_and_is_found_inside_a_context() {
    let err = on_standby(Some("db1:5432"));
    let text = err.to_string();
    assert!(
        text.starts_with("this is a standby (read-only replica) of the primary"),
        "{text}"
    );
    assert!(text.contains("writes go to the primary"), "{text}");
    assert!(text.contains("target_session_attrs=read-write"), "{text}");
    let wrapped = err.context("the plan no longer holds for deployment d1");
    assert!(is_on_standby(&wrapped));
    assert!(!is_on_standby(&anyhow::anyhow!("the plan no longer holds")));
}

#[test]
fn a_database_the_check_found_anything_in_is_refused_naming_each() {
    let id = Uuid::from_u128(0xD1);
    assert!(safe_to_write(id, &SchemaFound::default()).is_ok());
    let unvouched = ["trigger audit_copy on public.deployments".to_string()];
    let found = SchemaFound {
        problems: vec!["column jobs.status is missing"],
        unvouched: &unvouched,
    };
    let err = safe_to_write(id, &found).expect_err("refused");
    assert_eq!(code_for(&err), ExitCode::Refused);
    let message = err.to_string();
    assert!(
        message.contains("\n  column jobs.status is missing\n"),
        "{message}"
    );
    assert!(
        message.contains("audit_copy on public.deployments: fail-safely cannot vouch for it"),
        "{message}"
    );
    let only_unvouched = SchemaFound {
        problems: Vec::new(),
        unvouched: &unvouched,
    };
    assert!(safe_to_write(id, &only_unvouched).is_err());
}

#[test]
fn a_write_set_without_both_tables_is_refused() {
    let mut set = WriteSet::default();
    set.deployments.insert(100);
    let err = write_set_complete(&set).expect_err("refused");
    assert_eq!(code_for(&err), ExitCode::Refused);
    set.events.insert(200);
    assert!(write_set_complete(&set).is_ok());
}
