use super::*;
use serde_json::json;

#[test]
fn json_rows_read_like_server_rows() {
    let array = json!([
        {"id": "d0000001-0000-4000-8000-000000000001", "at": "2026-11-29T23:30:20.123456+01:00",
         "n": 7, "gone": null, "status": "queued", "odd": "frobbing", "payload": {"a": 1}}
    ]);
    let rows = json_rows(Some(&array), |row| {
        Ok((
            row.col::<Uuid>("id")?,
            row.col::<DateTime<Utc>>("at")?,
            row.col::<i32>("n")?,
            row.col::<Option<String>>("gone")?,
            row.col::<DeploymentStatus>("status")?,
            row.col::<DeploymentStatus>("odd")?,
            row.col::<Value>("payload")?,
        ))
    })
    .unwrap();
    let (id, at, n, gone, status, odd, payload) = &rows[0];
    assert_eq!(id.to_string(), "d0000001-0000-4000-8000-000000000001");
    assert_eq!(at.to_rfc3339(), "2026-11-29T22:30:20.123456+00:00");
    assert_eq!((*n, gone.clone()), (7, None));
    assert_eq!(*status, DeploymentStatus::Queued);
    assert_eq!(*odd, DeploymentStatus::Unknown("frobbing".into()));
    assert_eq!(payload["a"], 1);
    assert!(
        json_rows(None, |row| row.col::<i64>("n"))
            .unwrap()
            .is_empty()
    );
    let wrong = json_rows(Some(&json!([{"n": "x"}])), |row| row.col::<i64>("n"));
    assert!(format!("{:#}", wrong.unwrap_err()).contains("column n"));
}

#[test]
fn a_null_in_a_not_null_column_is_a_placeholder_and_a_warning() {
    let array = json!([{"id": "b0000001-0000-4000-8000-000000000001", "kind": null,
                        "pool": null, "attempt": null, "status": "blocked"}]);
    let mut warnings = Vec::new();
    let rows = json_rows(Some(&array), |row| {
        let mut r = RowReader::new(row, "jobs", "id", &mut warnings)?;
        Ok((
            r.required::<JobKind>("kind")?,
            r.or_unknown::<String>("pool")?,
            r.required::<i32>("attempt")?,
            r.required::<JobStatus>("status")?,
        ))
    })
    .unwrap();
    assert_eq!(
        rows[0],
        (JobKind::Null, None, 0, JobStatus::Unknown("blocked".into()))
    );
    let named: Vec<(&str, &str, &str)> = warnings
        .iter()
        .map(|w| (w.table.as_str(), w.column.as_str(), w.row.as_str()))
        .collect();
    let row = "b0000001-0000-4000-8000-000000000001";
    assert_eq!(
        named,
        [
            ("jobs", "kind", row),
            ("jobs", "pool", row),
            ("jobs", "attempt", row)
        ]
    );
    assert!(
        warnings[0]
            .message
            .contains("jobs.kind is NULL in row b0000001")
    );
}
