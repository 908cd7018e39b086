//! Case 3: a search path hijack finds nothing to hijack.

use super::*;

/// Case 3: with `public` first on the search path, an attacker's `||` on
/// names, a `jsonb_build_object` overload and `-` / `?` on (jsonb, jsonb)
/// would run as the tool's user or break its queries. The search path is
/// pinned (even against a URL that asks for public first) and every table
/// is named with its schema: none of it is ever called.
#[test]
fn case_3_a_search_path_hijack_finds_nothing_to_hijack() {
    let db = TestDb::scenarios();
    let attacker = Attacker::new(&db).with_trace_table();
    attacker.plant(
        "CREATE FUNCTION public.evil_concat(name, name) RETURNS text LANGUAGE plpgsql AS $f$
           BEGIN INSERT INTO public.pwned VALUES ('||'); RETURN $1::text || $2::text; END $f$;
         CREATE OPERATOR public.|| (LEFTARG = name, RIGHTARG = name, FUNCTION = public.evil_concat);
         CREATE FUNCTION public.jsonb_build_object(text, text, text, boolean, text, text, text, jsonb)
           RETURNS jsonb LANGUAGE plpgsql AS $f$
           BEGIN INSERT INTO public.pwned VALUES ('jsonb_build_object');
                 RETURN '{\"reason\": \"replaced\"}'::jsonb; END $f$;
         CREATE FUNCTION public.jsonb_strip_nulls(jsonb) RETURNS jsonb LANGUAGE plpgsql AS $f$
           BEGIN INSERT INTO public.pwned VALUES ('jsonb_strip_nulls'); RETURN $1; END $f$;
         CREATE FUNCTION public.evil_minus(jsonb, jsonb) RETURNS jsonb LANGUAGE sql AS 'SELECT $1';
         CREATE OPERATOR public.- (LEFTARG = jsonb, RIGHTARG = jsonb, FUNCTION = public.evil_minus);
         CREATE FUNCTION public.evil_exists(jsonb, jsonb) RETURNS boolean LANGUAGE sql AS 'SELECT true';
         CREATE OPERATOR public.? (LEFTARG = jsonb, RIGHTARG = jsonb, FUNCTION = public.evil_exists)",
    );
    // The attack is real for a session that searches public first.
    let mut victim = db.client();
    victim
        .batch_execute("SET search_path = public, pg_catalog")
        .unwrap();
    let mut tx = victim.transaction().unwrap();
    tx.query_one("SELECT 'a'::name || 'b'::name", &[]).unwrap();
    let ran: i64 = tx
        .query_one("SELECT count(*) FROM public.pwned", &[])
        .unwrap()
        .get(0);
    assert_eq!(ran, 1, "the hijacked operator ran");
    tx.rollback().unwrap();
    assert!(
        victim
            .query("SELECT payload - 'log' FROM deployment_events", &[])
            .is_err(),
        "the planted `-` breaks the runbook's `- 'log'`"
    );

    // Connections that ask for public first, as a careless URL would.
    let hijacking = format!("{} options='-c search_path=public,pg_catalog'", db.conninfo);
    let run_hijacked = |args: &[&str]| {
        crate::support::Run::from(
            crate::support::bin()
                .env("DATABASE_URL", &hijacking)
                .args(args)
                .output()
                .unwrap(),
        )
    };
    let diagnosis = run_hijacked(&["diagnose", "d0000008", "-o", "json"]);
    diagnosis.assert_code(0);
    assert!(
        !diagnosis.stdout.contains("FAKE-SECRET"),
        "log keys stay in"
    );
    let stuck = run_hijacked(&["stuck", "-o", "json"]);
    stuck.assert_code(0);

    let id = scenario(1);
    // Every row but the deployment's own (the event does not exist yet).
    let before = full_dump(&db, Some((&id, "00000000-0000-0000-0000-000000000000")));
    let run = run_hijacked(&[
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-12 hijack",
        "--yes",
        "-o",
        "json",
    ]);
    run.assert_code(0);
    let (event, kind, payload) = last_event(&db, &id);
    assert_eq!(kind, "operator_failed");
    assert_eq!(payload["reason"], "INC-12 hijack");
    assert_eq!(payload["audit"]["session_user"], "postgres");
    assert_eq!(run.json()["event"]["payload"], payload);
    // Exactly the runbook's change: every other row is as it was, and the
    // attacker's code never ran (its table is empty).
    let after = full_dump(&db, Some((&id, &event)));
    assert!(after == before, "{}", dump_diff(&before, &after));
    let ran: i64 = db
        .client()
        .query_one("SELECT count(*) FROM public.pwned", &[])
        .unwrap()
        .get(0);
    assert_eq!(ran, 0, "the attacker's code ran");
    drop(attacker);
}
