use super::super::tests::{complete, judged};
use super::*;

#[test]
fn the_locking_keys_are_the_four_of_decide_under_locks() {
    assert_eq!(LOCKING_FOREIGN_KEYS.len(), 4);
}

#[test]
fn a_missing_foreign_key_says_how_to_add_it() {
    let mut facts = complete();
    facts
        .foreign_keys
        .retain(|k| k.child != "agent_job_results");
    let report = judged(&facts);
    assert_eq!(
        report.foreign_key_problems,
        [
            "no foreign key from agent_job_results.job_id to jobs.id: without it a row of \
             agent_job_results can be inserted for a job fail-safely holds locked, between its \
             decision and its write. Next step: ALTER TABLE public.agent_job_results ADD \
             FOREIGN KEY (job_id) REFERENCES public.jobs (id) NOT VALID"
        ]
    );
    assert_eq!(report.foreign_keys.len(), 3);
    assert!(!report.ok());
}

#[test]
fn an_unenforced_foreign_key_says_how_to_enforce_it() {
    let mut facts = complete();
    for key in &mut facts.foreign_keys {
        if key.child == "deployment_events" {
            key.disabled = true;
        }
    }
    let report = judged(&facts);
    assert_eq!(
        report.foreign_key_problems,
        ["the foreign key deployment_events_deployment_id_fkey from \
             deployment_events.deployment_id to deployments.id is not enforced (its triggers \
             are disabled): without it a row of deployment_events can be inserted or \
             re-pointed for a deployment fail-safely holds locked, between its decision and \
             its write. Next step: ALTER TABLE public.deployment_events ENABLE TRIGGER ALL"]
    );
}

#[test]
fn one_enforced_key_among_disabled_ones_is_enough() {
    let mut facts = complete();
    let mut disabled = facts.foreign_keys[0].clone();
    disabled.name = "jobs_old_fkey".into();
    disabled.disabled = true;
    facts.foreign_keys.insert(0, disabled);
    let report = judged(&facts);
    assert!(report.foreign_key_problems.is_empty());
    assert_eq!(
        report.foreign_keys[0],
        "jobs.deployment_id → deployments (jobs_deployment_id_fkey)"
    );
}

#[test]
fn a_key_to_another_table_is_no_locking_key() {
    let mut facts = complete();
    for key in &mut facts.foreign_keys {
        if key.child == "jobs" {
            key.parent = "releases".into();
        }
    }
    let report = judged(&facts);
    assert_eq!(report.foreign_key_problems.len(), 1);
    assert!(report.foreign_key_problems[0].starts_with("no foreign key from jobs.deployment_id"));
}
