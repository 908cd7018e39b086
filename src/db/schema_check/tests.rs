use serde_json::json;

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
fn the_document_reads_into_facts_grouped_by_table() {
    let doc = json!({
        "tables": [
            {"table_name": "jobs", "oid": 7, "column_name": "id", "type": "uuid"},
            {"table_name": "jobs", "oid": 7, "column_name": "kind", "type": "text"},
            {"table_name": "deployments", "oid": 3, "column_name": null, "type": null}
        ],
        "unique_key": true,
        "foreign_keys": [{"child": "jobs", "column": "deployment_id",
                          "parent": "deployments", "name": "jobs_fk", "disabled": false}],
        "tree": [{"root": "jobs", "relation": "jobs", "relkind": "r"}],
        "rules": null,
        "inventory": [{"what": "code", "root": "deployments", "relation": "deployments",
                       "detail": "default of id", "schema_name": null, "name": null}]
    });
    let facts = read(&doc).expect("a well-formed document");
    assert_eq!(facts.tables.len(), 2);
    let jobs = facts.table("jobs").expect("jobs read");
    assert_eq!((jobs.oid, jobs.columns.len()), (7, 2));
    assert_eq!(jobs.columns[1].server_type, "text");
    assert!(facts.table("deployments").expect("read").columns.is_empty());
    assert!(facts.unique_key);
    assert_eq!(facts.foreign_keys[0].name, "jobs_fk");
    assert_eq!(facts.relations[0].relkind, "r");
    assert!(facts.triggers.is_empty() && facts.rules.is_empty());
    assert_eq!(facts.inventory[0].schema, None);
    assert!(!facts.enforce_body.is_empty());
    let absent = read(&json!({"unique_key": "yes"})).expect("empty sections");
    assert!(!absent.unique_key && absent.tables.is_empty());
}

#[test]
fn a_malformed_document_is_an_error_naming_the_column() {
    let missing = json!({"foreign_keys": [{"child": "jobs"}]});
    let err = format!(
        "{:#}",
        read(&missing).expect_err("a row without its columns")
    );
    assert!(err.contains("reading column column"), "{err}");
    let not_rows = json!({"tables": {"table_name": "jobs"}});
    let err = format!("{:#}", read(&not_rows).expect_err("not an array"));
    assert!(err.contains("expected an array of rows"), "{err}");
}
