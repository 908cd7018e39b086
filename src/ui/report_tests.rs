use super::*;

#[test]
fn a_watch_screen_shows_every_line_in_order() {
    let lines = [Line::Out("table".into()), Line::Note("summary".into())];
    assert_eq!(joined(&lines), "table\nsummary");
}
