use super::*;

#[test]
fn finds_a_flag_on_the_line_completed() {
    let line: Vec<String> = [
        "pushleft-controller",
        "--",
        "pushleft-controller",
        "--schema=ops",
    ]
    .iter()
    .chain(&["diagnose", "--database-url", "postgresql://db/x", "d0"])
    .map(|s| s.to_string())
    .collect();
    assert_eq!(flag(&line, "--schema").as_deref(), Some("ops"));
    assert_eq!(
        flag(&line, "--database-url").as_deref(),
        Some("postgresql://db/x")
    );
    assert_eq!(flag(&line, "--service"), None);
}
