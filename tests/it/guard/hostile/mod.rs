//! Cases 1-4 and 7 of the guard's suite: code planted in the database that would
//! run inside fail-safely's transaction, as its user.

use super::{Attacker, assert_refused, dump_diff, full_dump, last_event, run_with};
use crate::support::{TestDb, scenario};

mod deferred;
mod invisible;
mod protecting;
mod search_path;
mod values;

/// `AFTER UPDATE` on deployments (or `AFTER INSERT` on deployment_events),
/// planted by the attacker, running `body` (PL/pgSQL statements).
fn plant_trigger(attacker: &Attacker, create: &str, body: &str) {
    attacker.plant(&format!(
        "CREATE FUNCTION public.evil() RETURNS trigger LANGUAGE plpgsql AS $f$
         BEGIN {body}; RETURN NEW; END $f$;
         {create}"
    ));
}

const AFTER_UPDATE: &str = "CREATE TRIGGER evil AFTER UPDATE ON public.deployments FOR EACH ROW EXECUTE FUNCTION public.evil()";

/// The attack is real: a plain UPDATE of the deployment, as any other
/// session would make it, fires the planted code (then rolled back).
/// `check` is a query returning true once the code has run.
fn fires_for_a_plain_update(db: &TestDb, deployment: &str, check: &str) {
    let mut client = db.client();
    let mut tx = client.transaction().unwrap();
    tx.execute(
        "UPDATE public.deployments SET updated_at = updated_at WHERE id = $1::text::uuid",
        &[&deployment],
    )
    .expect("the planted trigger runs");
    tx.batch_execute("SET CONSTRAINTS ALL IMMEDIATE").unwrap();
    let fired: bool = tx.query_one(check, &[]).unwrap().get(0);
    assert!(
        fired,
        "the planted code did not run: the test would prove nothing"
    );
    tx.rollback().unwrap();
}

const TEARDOWN: [&str; 4] = [
    "fail-safely",
    "d0000003",
    "--reason",
    "INC-12 hostile database",
];

fn fail_safely(db: &TestDb, env: &[(&str, &str)], extra: &[&str]) -> crate::support::Run {
    let mut args = TEARDOWN.to_vec();
    args.extend_from_slice(extra);
    run_with(db, env, &args)
}
