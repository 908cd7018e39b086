use super::*;

#[test]
fn database_text_cannot_break_a_table_or_open_a_span() {
    assert_eq!(escape("a|b `x` <img> *y*"), r"a\|b \`x\` &lt;img&gt; \*y\*");
    assert_eq!(escape("line\nnext\u{1b}[2J"), r"line\\nnext\\u{1b}\[2J");
    let t = table(
        &["a", "b"],
        &[vec!["x|y".to_string().into(), "`z`".to_string().into()]],
    );
    assert_eq!(t.lines().nth(2), Some(r"| x\|y | \`z\` |"));
}

#[test]
fn the_command_line_shows_no_database_url() {
    let args: Vec<String> = [
        "/usr/bin/pushleft-controller",
        "--database-url",
        "postgresql://ops:s3cret@db1/control",
        "fail-safely",
        "d0000001",
        "--reason",
        "INC-1 it's stuck",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let line = command_line(&args);
    assert!(!line.contains("s3cret"), "{line}");
    assert_eq!(
        line,
        r"pushleft-controller --database-url <redacted> fail-safely d0000001 --reason 'INC-1 it'\''s stuck'"
    );
}

#[test]
fn a_code_span_stays_on_its_line() {
    assert_eq!(
        code("--reason 'x\n## heading\r\n| a |`'"),
        r"`--reason 'x\n## heading\r\n| a |''`"
    );
    assert_eq!(Md::code("a|b\nc").render(), r"`a\|b\nc`");
}

#[test]
fn a_code_in_a_sentence_is_a_code_span_and_the_rest_is_escaped() {
    assert_eq!(
        prose("lease expired (job_lease_orphaned) for *edge-07*"),
        r"lease expired (`job_lease_orphaned`) for \*edge-07\*"
    );
    assert_eq!(
        prose("teardown_requested: the same as `pl down`"),
        r"`teardown_requested`: the same as \`pl down\`"
    );
    // Not codes: one part, upper case, a leading or doubled underscore.
    assert_eq!(
        prose("INC_4711 _x a__b stuck"),
        r"INC\_4711 \_x a\_\_b stuck"
    );
    assert_eq!(prose("line\nnext"), r"line\\nnext");
    assert!(is_code("out_of_attempts") && is_code("v2_at"));
    assert!(!is_code("stuck") && !is_code("2_x") && !is_code("a_"));
}
