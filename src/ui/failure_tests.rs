use super::*;

#[test]
fn the_next_step_is_its_own_field() {
    let err = crate::exit::connection_lost(
        "lost the connection (gone). Next step: rerun `pushleft-controller stuck`",
    );
    let b = body(&err, ExitCode::Unexpected, ErrorKind::ConnectionLost);
    assert_eq!(b.message, "lost the connection (gone).");
    assert_eq!(b.next.as_deref(), Some("rerun `pushleft-controller stuck`"));
    assert_eq!(b.exit_code, 1);
}

#[test]
fn the_human_text_is_safe_and_fits() {
    let err = anyhow::anyhow!("job error \u{1b}[2J{}", "word ".repeat(40));
    let text = human_text(&err, 80);
    assert!(!text.contains('\u{1b}'));
    assert!(
        text.lines().all(|l| super::super::text::width_of(l) <= 80),
        "{text}"
    );
}
