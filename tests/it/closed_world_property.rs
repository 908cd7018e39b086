//! The closed world as a property: random decorations of the classes
//! fail-safely must inspect (inheritance children, row-level security,
//! code in defaults, CHECK and domain constraints and indexes, and harmless
//! look-alikes of each) on random tables of the schema. For every
//! generated schema, fail-safely run as a login that is not the owner
//! either refuses with nothing written and none of the planted code run,
//! or writes exactly the runbook's change; and doctor's verdict agrees.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use crate::guard::{dump_diff, full_dump, run_with};
use crate::support::{TestDb, scenario};

/// The tables the decision reads; the first two are the written ones.
const TABLES: &[&str] = &[
    "deployments",
    "deployment_events",
    "jobs",
    "application_instances",
    "agent_job_results",
    "fleet_allocations",
    "fleet_nodes",
];

/// A decoration: the SQL planting it on `{t}` (a table of [`TABLES`]),
/// and whether fail-safely must refuse because of it.
#[derive(Debug, Clone, Copy)]
enum Decoration {
    /// An inheritance child without the foreign keys.
    Child,
    /// An inheritance child with the parent's foreign keys and triggers.
    ChildWithKeys,
    /// Row-level security, with a policy that hides nothing.
    RowSecurity,
    /// A column default calling a user function.
    UserDefault,
    /// A column default of built-ins only.
    BuiltinDefault,
    /// A CHECK constraint calling a user function.
    UserCheck,
    /// An expression index over a user function.
    UserIndex,
    /// An index over a built-in expression.
    BuiltinIndex,
}

impl Decoration {
    fn sql(self, table: &str) -> String {
        let t = format!("public.{table}");
        match self {
            Decoration::Child => format!("CREATE TABLE {t}_kid () INHERITS ({t})"),
            Decoration::ChildWithKeys => child_with_keys(table),
            Decoration::RowSecurity => format!(
                "ALTER TABLE {t} ENABLE ROW LEVEL SECURITY;
                 CREATE POLICY everything ON {t} USING (true) WITH CHECK (true)"
            ),
            Decoration::UserDefault => format!(
                "ALTER TABLE {t} ADD COLUMN decorated boolean DEFAULT public.mark('{table} default')"
            ),
            Decoration::BuiltinDefault => format!(
                "ALTER TABLE {t} ADD COLUMN decorated timestamptz DEFAULT now() + interval '1 s'"
            ),
            Decoration::UserCheck => format!(
                "ALTER TABLE {t} ADD CONSTRAINT decorated CHECK (public.mark('{table} check')) NOT VALID"
            ),
            Decoration::UserIndex => {
                format!("CREATE INDEX {table}_decorated ON {t} (public.same(id::text))")
            }
            Decoration::BuiltinIndex => {
                format!("CREATE INDEX {table}_decorated ON {t} (lower(id::text))")
            }
        }
    }

    /// Whether fail-safely must refuse a database decorated so on `table`.
    fn refused_on(self, table: &str) -> bool {
        let written = TABLES[..2].contains(&table);
        let locking = matches!(
            table,
            "jobs" | "application_instances" | "deployment_events" | "agent_job_results"
        );
        match self {
            Decoration::Child => locking || table == "deployment_events",
            // A child of a protected table needs the protecting triggers:
            // given. A child of deployments is vouched for like the table.
            Decoration::ChildWithKeys => false,
            Decoration::RowSecurity => true,
            Decoration::UserDefault | Decoration::UserCheck | Decoration::UserIndex => written,
            Decoration::BuiltinDefault | Decoration::BuiltinIndex => false,
        }
    }
}

/// A child carrying what its parent has: the locking foreign keys and the
/// protecting triggers (as in sql/schema.sql).
fn child_with_keys(table: &str) -> String {
    let t = format!("public.{table}");
    let mut sql = format!("CREATE TABLE {t}_kid () INHERITS ({t});");
    let key = match table {
        "jobs" | "application_instances" | "deployment_events" => {
            Some(("deployment_id", "deployments"))
        }
        "agent_job_results" => Some(("job_id", "jobs")),
        _ => None,
    };
    if let Some((column, parent)) = key {
        sql.push_str(&format!(
            "ALTER TABLE {t}_kid ADD FOREIGN KEY ({column}) REFERENCES public.{parent} (id);"
        ));
    }
    for (op, protected) in [
        (
            "DELETE",
            ["deployment_events", "jobs", "agent_job_results"].as_slice(),
        ),
        (
            "UPDATE",
            ["deployment_events", "agent_job_results"].as_slice(),
        ),
    ] {
        if protected.contains(&table) {
            // The reference schema's own names: the ones vouched for.
            let name = format!("{table}_refuse_{}", op.to_lowercase());
            sql.push_str(&format!(
                "CREATE TRIGGER {name} BEFORE {op} ON {t}_kid
                 FOR EACH ROW EXECUTE FUNCTION public.refuse_audit_change('{table}');"
            ));
        }
    }
    sql
}

fn decoration() -> impl Strategy<Value = (Decoration, usize)> {
    (
        prop_oneof![
            Just(Decoration::Child),
            Just(Decoration::ChildWithKeys),
            Just(Decoration::RowSecurity),
            Just(Decoration::UserDefault),
            Just(Decoration::BuiltinDefault),
            Just(Decoration::UserCheck),
            Just(Decoration::UserIndex),
            Just(Decoration::BuiltinIndex),
        ],
        0..TABLES.len(),
    )
}

/// Plants the marker, the operator login and the decorations; returns the
/// login's conninfo and whether fail-safely must refuse.
fn plant(db: &TestDb, decorations: &[(Decoration, usize)]) -> (String, bool) {
    let role = format!("prop_{}", db.name);
    let mut sql = format!(
        "CREATE TABLE public.ran (what text);
         GRANT INSERT, SELECT ON public.ran TO PUBLIC;
         CREATE FUNCTION public.mark(what text) RETURNS boolean LANGUAGE plpgsql AS $$
         BEGIN INSERT INTO public.ran VALUES (what); RETURN true; END $$;
         CREATE FUNCTION public.same(t text) RETURNS text LANGUAGE sql IMMUTABLE
         AS $$ SELECT t $$;
         CREATE ROLE {role} LOGIN;"
    );
    let mut refused = false;
    for (i, (decoration, table)) in decorations.iter().enumerate() {
        let table = TABLES[*table];
        // One child and one decorated column or index per table.
        if decorations[..i].iter().any(|(_, t)| TABLES[*t] == table) {
            continue;
        }
        sql.push_str(&decoration.sql(table));
        sql.push(';');
        refused |= decoration.refused_on(table);
    }
    sql.push_str(&format!(
        "GRANT USAGE ON SCHEMA public TO {role};
         GRANT SELECT, UPDATE, INSERT ON ALL TABLES IN SCHEMA public TO {role};"
    ));
    db.client()
        .batch_execute(&sql)
        .unwrap_or_else(|e| panic!("planting {decorations:?}: {e:?}"));
    (format!("{} user={role}", db.conninfo), refused)
}

fn marked(db: &TestDb) -> i64 {
    db.client()
        .query_one("SELECT count(*) FROM public.ran", &[])
        .unwrap()
        .get(0)
}

fn drop_role(db: &TestDb) {
    let role = format!("prop_{}", db.name);
    let _ = db.client().batch_execute(&format!(
        "DROP OWNED BY {role} CASCADE; DROP ROLE IF EXISTS {role}"
    ));
}

/// One generated schema; `Ok(true)` when fail-safely refused it.
fn check_case(decorations: &[(Decoration, usize)]) -> Result<bool, TestCaseError> {
    let db = TestDb::scenarios();
    let (url, must_refuse) = plant(&db, decorations);
    // A volatile default runs once per existing row when it is added.
    let marked_before = marked(&db);
    let before = full_dump(&db, None);
    let env = [("DATABASE_URL", url.as_str())];
    let id = scenario(1);
    let run = run_with(
        &db,
        &env,
        &["fail-safely", &id, "--reason", "INC-22 property", "--yes"],
    );
    let doctor = run_with(&db, &env, &["doctor", "-o", "json"]);
    let after = full_dump(&db, None);
    let ran = marked(&db) - marked_before;
    drop_role(&db);
    prop_assert_eq!(
        ran,
        0,
        "{:?}: planted code ran\n{}",
        decorations,
        run.stderr
    );
    if must_refuse {
        prop_assert_eq!(run.code, 4, "{:?}: {}", decorations, run.stderr);
        prop_assert!(
            after == before,
            "{:?}: {}",
            decorations,
            dump_diff(&before, &after)
        );
        prop_assert_eq!(doctor.code, 4, "{:?}: doctor passed", decorations);
    } else {
        prop_assert_eq!(run.code, 0, "{:?}: {}", decorations, run.stderr);
        let diff = dump_diff(&before, &after);
        let changed: Vec<&str> = diff.lines().filter_map(|l| l.split(':').next()).collect();
        prop_assert!(
            changed
                .iter()
                .all(|t| t.contains("deployments") || t.contains("deployment_events")),
            "{:?}: changed {:?}",
            decorations,
            changed
        );
        prop_assert_eq!(doctor.code, 0, "{:?}: {}", decorations, doctor.stdout);
    }
    Ok(must_refuse)
}

#[test]
fn every_decorated_schema_is_refused_whole_or_written_exactly() {
    let mut runner = TestRunner::new(Config {
        // Each case clones a database and runs the binary twice: kept
        // modest for 2 cores.
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let seen = std::cell::Cell::new((0usize, 0usize));
    runner
        .run(&prop::collection::vec(decoration(), 1..4), |decorations| {
            let refused = check_case(&decorations)?;
            let (r, w) = seen.get();
            seen.set(if refused { (r + 1, w) } else { (r, w + 1) });
            Ok(())
        })
        .unwrap();
    let (refused, written) = seen.get();
    println!("closed-world property: {refused} schemas refused, {written} written exactly");
    assert!(
        refused > 0 && written > 0,
        "both outcomes: {refused} / {written}"
    );
}
