use super::tables::Kind;
use super::*;

#[test]
fn the_statement_names_every_table_and_key_the_check_expects() {
    let text = sql::schema_check::CHECK.text;
    for table in tables() {
        assert!(text.contains(&format!("('{table}')")), "{table}");
    }
    for (n, (child, column, parent)) in LOCKING_FOREIGN_KEYS.iter().enumerate() {
        let row = format!("({}, '{child}', '{column}', '{parent}')", n + 1);
        assert!(text.contains(&row), "{row}");
    }
    let checked: Vec<&str> = PROTECTING_TRIGGERS
        .iter()
        .map(|(t, _)| *t)
        .chain(WRITTEN_TABLES.iter().map(|(t, _)| *t))
        .collect();
    let roots =
        "WHERE tree.root IN ('deployments', 'deployment_events', 'jobs', 'agent_job_results')";
    assert!(text.contains(roots));
    for table in checked {
        assert!(roots.contains(&format!("'{table}'")), "{table}");
    }
    assert!(text.contains("WHERE tree.root IN ('deployments', 'deployment_events')"));
    assert_eq!(WRITTEN_TABLES.len(), 2);
}

#[test]
fn types_the_tool_can_read() {
    assert!(Kind::Text.accepts("character varying(40)"));
    assert!(!Kind::Int4.accepts("bigint"));
    assert!(!Kind::Timestamptz.accepts("timestamp without time zone"));
    assert!(!Kind::Jsonb.accepts("json"));
}

#[test]
fn protecting_triggers_are_the_five_of_the_spec() {
    assert_eq!(PROTECTING_TRIGGERS.len(), 5);
    let report = SchemaReport {
        trigger_problems: vec!["no BEFORE DELETE trigger on jobs".into()],
        ..SchemaReport::default()
    };
    assert!(report.schema_ok());
    assert!(!report.protecting_triggers_ok());
    assert_eq!(report.problems().len(), 1);
}

#[test]
fn foreign_keys_and_unvouched_triggers_are_problems_too() {
    let report = SchemaReport {
        foreign_key_problems: vec!["no foreign key from agent_job_results.job_id".into()],
        unvouched: vec!["trigger `x` on deployments".into()],
        ..SchemaReport::default()
    };
    assert!(!report.ok());
    assert_eq!(report.problems().len(), 2);
}
