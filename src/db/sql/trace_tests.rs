use super::*;

#[test]
fn parameters_read_as_sql_literals() {
    let id = uuid::Uuid::from_u128(0xd0000002_0000_4000_8000_000000000002);
    assert_eq!(
        literal(&id, &Type::UUID),
        "'d0000002-0000-4000-8000-000000000002'"
    );
    assert_eq!(literal(&"it's".to_string(), &Type::TEXT), "'it''s'");
    assert_eq!(literal(&Some("a\"b".to_string()), &Type::TEXT), "'a\"b'");
    assert_eq!(literal(&None::<String>, &Type::TEXT), "NULL");
    assert_eq!(literal(&42_i64, &Type::INT8), "42");
    assert_eq!(literal(&true, &Type::BOOL), "true");
    assert_eq!(
        literal(
            &vec!["jobs".to_string(), "o'k".to_string()],
            &Type::TEXT_ARRAY
        ),
        "ARRAY['jobs', 'o''k']"
    );
    assert_eq!(literal(&vec![1_i64, 2], &Type::INT8_ARRAY), "ARRAY[1, 2]");
}

#[test]
fn json_parameters_are_their_text() {
    let payload = serde_json::json!({"reason": "INC-1 it's stuck"});
    assert_eq!(
        literal(&payload, &Type::JSONB),
        "'{\"reason\":\"INC-1 it''s stuck\"}'"
    );
}
