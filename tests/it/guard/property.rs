//! The guard's property (pushleft-controller-fail-safely(1), WHAT FAIL-SAFELY CHECKS BEFORE IT WRITES): whatever a trigger on the written tables does
//! (a write to any table, a TRUNCATE, DDL; before, after or deferred to
//! COMMIT), and whether or not a team vouched for it, fail-safely never
//! commits a forbidden change: it refuses, and every row of every table,
//! and every table, trigger and superuser, is as it was.

use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use pushleft_controller::db::schema_check::AllowedTriggers;
use pushleft_controller::db::session::Session;
use pushleft_controller::db::transition::{self, Request};

use super::{dump_diff, full_dump};
use crate::support::{TestDb, scenario};

/// Writes a trigger body may make; `{dep}` is the deployment of the row
/// that fired it. Each changes at least one row (or one catalog) of the
/// scenarios.
const WRITES: &[&str] = &[
    "UPDATE public.jobs SET updated_at = now() WHERE deployment_id = {dep}",
    "INSERT INTO public.jobs (id, deployment_id, kind, status) VALUES (gen_random_uuid(), {dep}, 'teardown', 'queued')",
    "UPDATE public.application_instances SET active_node_id = NULL WHERE active_node_id IS NOT NULL",
    "UPDATE public.fleet_allocations SET status = 'released', released_at = now() WHERE status <> 'released'",
    "DELETE FROM public.network_attachments",
    "DELETE FROM public.ingress_analytics_routes",
    "INSERT INTO public.deployment_events (sequence, id, org_id, deployment_id, kind) SELECT 100, gen_random_uuid(), org_id, id, 'sneaked' FROM public.deployments WHERE id = 'd0000009-0000-4000-8000-000000000009'",
    "UPDATE public.deployments SET updated_at = now() WHERE id <> {dep}",
    "UPDATE public.fleet_nodes SET schedulable = NOT schedulable",
    "UPDATE public.source_snapshots SET verified_at = NULL",
    "INSERT INTO public.release_artifacts VALUES (gen_random_uuid(), {dep}, 'evil/image')",
    "DELETE FROM public.agent_job_results",
    "UPDATE public.deployment_events SET kind = kind WHERE deployment_id = {dep}",
    "TRUNCATE public.fleet_allocations",
    "TRUNCATE public.network_attachments",
    "ALTER TABLE public.jobs DISABLE TRIGGER jobs_refuse_delete",
    "CREATE TABLE public.sneaked (x int)",
    "ALTER TABLE public.fleet_nodes ADD COLUMN sneaked int",
];

/// Where the trigger sits and when it fires.
#[derive(Debug, Clone, Copy)]
enum Firing {
    Before,
    After,
    /// A constraint trigger, DEFERRABLE INITIALLY DEFERRED: at COMMIT.
    Deferred,
}

#[derive(Debug, Clone)]
struct Case {
    write: usize,
    on_events: bool,
    firing: Firing,
    vouched_for: bool,
    deployment: u8,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..WRITES.len(),
        any::<bool>(),
        prop_oneof![
            Just(Firing::Before),
            Just(Firing::After),
            Just(Firing::Deferred)
        ],
        // Mostly vouched for: then it fires, and the guard must catch it.
        prop::bool::weighted(0.75),
        prop_oneof![Just(1u8), Just(3u8)],
    )
        .prop_map(|(write, on_events, firing, vouched_for, deployment)| Case {
            write,
            on_events,
            firing,
            vouched_for,
            deployment,
        })
}

fn plant(db: &TestDb, case: &Case) {
    let (table, event, dep) = if case.on_events {
        ("deployment_events", "INSERT", "NEW.deployment_id")
    } else {
        ("deployments", "UPDATE", "NEW.id")
    };
    let body = WRITES[case.write].replace("{dep}", dep);
    let create = match case.firing {
        Firing::Before => format!("CREATE TRIGGER sneaky BEFORE {event} ON public.{table}"),
        Firing::After => format!("CREATE TRIGGER sneaky AFTER {event} ON public.{table}"),
        Firing::Deferred => format!(
            "CREATE CONSTRAINT TRIGGER sneaky AFTER {event} ON public.{table}
             DEFERRABLE INITIALLY DEFERRED"
        ),
    };
    db.client()
        .batch_execute(&format!(
            "CREATE FUNCTION public.sneaky() RETURNS trigger LANGUAGE plpgsql AS $f$
             BEGIN
                 IF pg_trigger_depth() = 1 THEN {body}; END IF;
                 RETURN NEW;
             END $f$;
             {create} FOR EACH ROW EXECUTE FUNCTION public.sneaky();"
        ))
        .expect("planting the trigger");
}

/// fail-safely's request as its own tests make it, with a longer lock
/// timeout and, `vouched_for`, the planted trigger listed.
fn request(deployment: &str, vouched_for: bool) -> Request {
    Request {
        lock_timeout: Duration::from_secs(10),
        allowed_triggers: if vouched_for {
            AllowedTriggers::parse(&["sneaky".to_string()])
        } else {
            AllowedTriggers::default()
        },
        ..crate::fail_safely::request(deployment, "INC-12 property")
    }
}

#[test]
fn no_trigger_body_gets_a_forbidden_change_committed() {
    let seen = std::cell::RefCell::new((0usize, 0usize));
    let mut runner = TestRunner::new(Config {
        // Each case clones a database and runs the whole transaction: kept
        // modest for 2 cores.
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&case(), |case| {
            let db = TestDb::scenarios();
            plant(&db, &case);
            let before = full_dump(&db, None);
            let mut client = Session::from(db.client());
            let result = transition::execute(
                &mut client,
                &request(&scenario(case.deployment), case.vouched_for),
                &mut |_| {},
            );
            let after = full_dump(&db, None);
            prop_assert!(
                after == before,
                "{case:?} ({}) committed a change:\n{}",
                WRITES[case.write],
                dump_diff(&before, &after)
            );
            let err = match result {
                Ok(outcome) => {
                    return Err(TestCaseError::fail(format!(
                        "{case:?} ({}) was applied: {outcome:?}",
                        WRITES[case.write]
                    )));
                }
                Err(err) => format!("{err:#}"),
            };
            let mut seen = seen.borrow_mut();
            if case.vouched_for {
                seen.0 += 1;
            } else {
                seen.1 += 1;
                prop_assert!(err.contains("cannot vouch for it"), "{case:?}: {err}");
            }
            Ok(())
        })
        .unwrap_or_else(|err| panic!("{err}"));
    let (vouched, refused) = seen.into_inner();
    eprintln!("trigger property: {vouched} vouched-for cases, {refused} refused ones");
    assert!(vouched > 0, "the guard itself was never exercised");
}
