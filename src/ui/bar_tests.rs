use super::*;

#[test]
fn the_bar_gives_way_before_the_line_wraps() {
    let after = "{pos}/{len} · {msg}";
    // 41/41 · and a full id: 8 + 36.
    assert_eq!(
        template(120, after, 44, 30),
        "{spinner} [{elapsed}] {bar:30} {pos}/{len} · {msg}"
    );
    assert_eq!(
        template(80, after, 44, 30),
        "{spinner} [{elapsed}] {bar:21} {pos}/{len} · {msg}"
    );
    assert_eq!(
        template(60, after, 44, 30),
        "{spinner} [{elapsed}] {pos}/{len} · {msg}"
    );
}
