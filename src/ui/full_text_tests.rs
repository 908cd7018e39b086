use super::*;

fn written(pieces: Vec<FullTextPiece<'_>>) -> String {
    let mut out = Vec::new();
    let mut writer = Writer::new(&mut out);
    for piece in pieces {
        writer.write(piece).unwrap();
    }
    writer.finish().unwrap();
    String::from_utf8(out).unwrap()
}

fn head(of: FullTextOf, bytes: i64) -> FullTextPiece<'static> {
    FullTextPiece::Begin(FullTextHead {
        of,
        id: uuid::Uuid::from_u128(0xB2),
        bytes,
    })
}

#[test]
fn each_value_has_its_head_and_its_lines_indented() {
    let text = written(vec![
        head(FullTextOf::JobLastError, 52_428_800),
        FullTextPiece::Text("first li"),
        FullTextPiece::Text("ne\nsecond"),
        FullTextPiece::End,
        head(FullTextOf::EventPayload { sequence: 4 }, 2),
        FullTextPiece::Text("{}"),
        FullTextPiece::End,
    ]);
    assert_eq!(
        text,
        "==> job 00000000-0000-0000-0000-0000000000b2 last_error, 52,428,800 bytes <==\n\
         \x20 first line\n\
         \x20 second\n\
         \n\
         ==> event #4 00000000-0000-0000-0000-0000000000b2 payload (without log), 2 bytes <==\n\
         \x20 {}\n"
    );
}

#[test]
fn a_value_cannot_reach_the_terminal_raw_nor_pass_for_a_head() {
    let text = written(vec![
        head(FullTextOf::ResultOutput, 40),
        FullTextPiece::Text("x\u{1b}[2J\r\n==> job 1 last_error, 1 bytes <==\n"),
        FullTextPiece::End,
    ]);
    assert!(!text.contains('\u{1b}') && !text.contains('\r'), "{text}");
    assert!(text.contains("x\\u{1b}[2J\\r\n  ==> job 1"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("==>")).count(), 1);
}
