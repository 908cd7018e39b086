use super::*;

// PL/pgSQL as the reference schema writes it (in lower case here:
// tests/it/layers.rs takes upper-case SQL in a Rust string for a
// statement written outside sql/).
const REFUSE: &str = "\nbegin\n    raise exception '% on % is refused', tg_op, tg_table_name\n        using errcode = 'insufficient_privilege';\nend;\n";

fn trigger(name: &str, tgtype: i32, enabled: &str, source: &str) -> Trigger {
    Trigger {
        relation: "deployment_events".into(),
        name: name.into(),
        enabled: enabled.into(),
        tgtype,
        internal: false,
        constraint: false,
        function: "public.refuse_audit_change()".into(),
        builtin: false,
        language: "plpgsql".into(),
        source: source.into(),
    }
}

// tgtype: 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate.
const BEFORE_ROW_DELETE: i32 = 1 | 2 | 8;

#[test]
fn a_protecting_trigger_must_be_enabled_before_and_refusing() {
    let good = trigger("t", BEFORE_ROW_DELETE, "O", REFUSE);
    assert_eq!(protects(&good, Operation::Delete), Ok(()));
    assert!(protects(&good, Operation::Update).is_err());
    let after = trigger("t", 1 | 8, "O", REFUSE);
    assert!(
        protects(&after, Operation::Delete)
            .unwrap_err()
            .contains("AFTER DELETE")
    );
    for (state, says) in [("D", "disabled"), ("R", "replica")] {
        let t = trigger("t", BEFORE_ROW_DELETE, state, REFUSE);
        assert!(protects(&t, Operation::Delete).unwrap_err().contains(says));
    }
    let noop = trigger("t", BEFORE_ROW_DELETE, "O", "begin return old; end");
    assert!(
        protects(&noop, Operation::Delete)
            .unwrap_err()
            .contains("does not refuse")
    );
}

#[test]
fn refusing_means_raise_first_and_nothing_catching_it() {
    assert_eq!(refuses("plpgsql", REFUSE), Ok(()));
    assert_eq!(refuses("plpgsql", "begin raise 'no'; end"), Ok(()));
    assert_eq!(
        refuses(
            "plpgsql",
            "-- audit\n/* x */ begin raise sqlstate '42501'; end"
        ),
        Ok(())
    );
    for bad in [
        "begin return old; end",
        "begin raise notice 'deleting'; return old; end",
        "begin if tg_op = 'delete' then raise exception 'x'; end if; return old; end",
        "begin raise exception 'x'; exception when others then return old; end",
        "declare n int; begin raise exception 'x'; end",
        "",
    ] {
        assert!(refuses("plpgsql", bad).is_err(), "{bad}");
    }
    assert!(refuses("sql", "select 1").unwrap_err().contains("sql"));
}

#[test]
fn only_the_systems_the_references_and_the_listed_are_vouched_for() {
    let reference = [("deployment_events_refuse_delete", Operation::Delete)];
    let own = trigger(
        "deployment_events_refuse_delete",
        BEFORE_ROW_DELETE,
        "O",
        REFUSE,
    );
    let mut fk = trigger("RI_ConstraintTrigger_c_1", 1 | 4 | 16, "O", "");
    fk.internal = true;
    fk.builtin = true;
    fk.language = "internal".into();
    let sneaky = trigger("sneaky", 1 | 16, "O", "begin truncate x; return new; end");
    let mut disabled = sneaky.clone();
    disabled.name = "later".into();
    disabled.enabled = "D".into();
    let mut fake_own = trigger(
        "deployment_events_refuse_delete",
        BEFORE_ROW_DELETE,
        "O",
        "begin return old; end",
    );
    fake_own.relation = "deployment_events_p1".into();
    let rule = Rule {
        relation: "deployment_events".into(),
        name: "r\u{1b}x".into(),
    };
    let all = [own, fk, sneaky, disabled, fake_own];
    let v = vouch(
        "deployment_events",
        &reference,
        &AllowedTriggers::default(),
        &all,
        std::slice::from_ref(&rule),
    );
    assert_eq!(v.unvouched.len(), 4, "{v:?}");
    assert!(v.unvouched[0].contains("`sneaky` on deployment_events (AFTER UPDATE, FOR EACH ROW"));
    assert!(v.unvouched[1].contains("disabled"));
    assert!(v.unvouched[2].contains("deployment_events_p1"));
    assert!(
        v.unvouched[3].contains("rule `r\\u{1b}x`"),
        "{}",
        v.unvouched[3]
    );

    let allowed = AllowedTriggers::parse(&["deployment_events.sneaky, later".into(), "".into()]);
    let v = vouch("deployment_events", &reference, &allowed, &all, &[]);
    assert_eq!(v.allowed.len(), 2, "{v:?}");
    assert_eq!(v.unvouched.len(), 1, "{v:?}");
    assert!(
        !AllowedTriggers::parse(&["deployments.sneaky".into()]).allows(
            "deployment_events",
            "deployment_events",
            "sneaky"
        )
    );
}
