use super::*;
use chrono::TimeZone;

fn ours(at: &DateTime<Utc>) -> String {
    let mut out = Vec::new();
    serialize(at, &mut serde_json::Serializer::new(&mut out)).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_same_text_as_chrono() {
    let base = Utc.with_ymd_and_hms(2026, 12, 1, 7, 4, 51).unwrap();
    let mut times = vec![
        base,
        Utc.with_ymd_and_hms(0, 1, 1, 0, 0, 0).unwrap(),
        Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap(),
        Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap(),
        Utc.with_ymd_and_hms(-1, 1, 1, 0, 0, 0).unwrap(),
    ];
    for nanos in [
        1,
        10,
        999,
        1_000,
        378_285_000,
        378_000_000,
        5,
        999_999_999,
        120_000,
    ] {
        times.push(base + chrono::Duration::nanoseconds(nanos));
    }
    let mut x: i64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let secs = x.rem_euclid(253_402_300_799);
        let nanos = (x >> 3).rem_euclid(1_000_000_000) as u32;
        let nanos = match x & 3 {
            0 => 0,
            1 => nanos / 1_000_000 * 1_000_000,
            2 => nanos / 1_000 * 1_000,
            _ => nanos,
        };
        times.push(Utc.timestamp_opt(secs, nanos).unwrap());
    }
    for at in &times {
        assert_eq!(ours(at), serde_json::to_string(at).unwrap(), "{at:?}");
    }
    let none: Option<DateTime<Utc>> = None;
    let mut out = Vec::new();
    serialize_opt(&none, &mut serde_json::Serializer::new(&mut out)).unwrap();
    assert_eq!(out, b"null");
}
