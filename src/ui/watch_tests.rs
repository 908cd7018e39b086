use super::*;

#[test]
fn a_frame_never_exceeds_the_screen() {
    let status = status_lines(80, None, None, "5s");
    assert!(status.iter().all(|l| super::super::text::width_of(l) <= 80));
    let body: Vec<String> = (1..=50).map(|n| format!("row {n}")).collect();
    let lines = frame(&status, &body.join("\n"), 24);
    assert_eq!(lines.len(), 24, "{lines:#?}");
    assert!(lines[0].starts_with("every 5s"), "pinned at the top");
    assert_eq!(lines[status.len() + 1], "row 1");
    assert!(
        lines[23].starts_with(&format!("… {} more lines", 50 - (24 - status.len() - 2))),
        "{}",
        lines[23]
    );
    // A short view is shown whole.
    assert_eq!(frame(&status, "a\nb", 24).len(), status.len() + 3);
}

#[test]
fn a_failed_read_is_shown_below_the_status() {
    let status = status_lines(
        60,
        None,
        Some("the last read failed: connection refused"),
        "5s",
    );
    assert!(
        status
            .iter()
            .any(|l| l.starts_with("! the last read failed"))
    );
    assert!(status.iter().all(|l| super::super::text::width_of(l) <= 60));
}
