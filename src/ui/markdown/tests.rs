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
