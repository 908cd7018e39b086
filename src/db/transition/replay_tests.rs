use super::*;

#[test]
fn log_keys_are_dropped_at_every_depth() {
    let payload = serde_json::json!({
        "reason": "INC-1", "log": "secret",
        "audit": {"log": ["secret"], "host": "h"},
        "list": [{"log": 1, "keep": 2}]
    });
    assert_eq!(
        without_log(payload),
        serde_json::json!({"reason": "INC-1", "audit": {"host": "h"}, "list": [{"keep": 2}]})
    );
}
