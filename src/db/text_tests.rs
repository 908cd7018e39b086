use super::*;

/// What a joiner hands on for `pieces`, piece by piece, then at the end.
fn joined(pieces: &[&[u8]]) -> (Vec<String>, String) {
    let mut joiner = Utf8Joiner::default();
    let mut handed = Vec::new();
    for piece in pieces {
        joiner
            .push(piece, &mut |text| {
                handed.push(text.to_string());
                Ok(())
            })
            .unwrap();
    }
    joiner
        .finish(&mut |text| {
            handed.push(text.to_string());
            Ok(())
        })
        .unwrap();
    let whole = handed.concat();
    (handed, whole)
}

#[test]
fn a_character_cut_between_pieces_is_joined_whole() {
    let text = "aé€😀z";
    let bytes = text.as_bytes();
    // Every way of cutting the bytes in two, and into single bytes.
    for at in 0..=bytes.len() {
        let (handed, whole) = joined(&[&bytes[..at], &bytes[at..]]);
        assert_eq!(whole, text, "cut at {at}");
        assert!(handed.iter().all(|piece| !piece.contains('\u{fffd}')));
    }
    let singles: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(joined(&singles).1, text);
}

#[test]
fn bytes_that_are_no_utf8_are_shown_as_replacement_characters() {
    assert_eq!(joined(&[b"a\xffb"]).1, "a\u{fffd}b");
    // A character that never ends: at the end of the value.
    assert_eq!(joined(&[b"ab\xe2\x82"]).1, "ab\u{fffd}");
    // One cut off by another: both are shown, nothing is lost silently.
    assert_eq!(joined(&[b"\xe2", b"\x82A"]).1, "\u{fffd}A");
}

#[test]
fn a_cut_payload_stays_text_and_a_whole_one_is_json() {
    assert_eq!(
        json_text(Some("{\"a\": 1}".into()), false).unwrap(),
        serde_json::json!({"a": 1})
    );
    assert_eq!(
        json_text(Some("{\"a\": \"xx".into()), true).unwrap(),
        Value::String("{\"a\": \"xx".into())
    );
    assert_eq!(json_text(None, false).unwrap(), Value::Null);
    assert!(json_text(Some("{\"a\": ".into()), false).is_err());
}
