//! The JSON end finder and the depth-limited parse.

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::net::json::{
    check_depth, parse_json, JsonEnd, JsonEndFinder, JsonError, MAX_JSON_DEPTH,
};

/// Feeds `bytes` one growing prefix at a time, split at `splits`; the first decision.
fn find(bytes: &[u8], splits: &[usize]) -> (JsonEnd, usize) {
    let mut finder = JsonEndFinder::new();
    let mut cuts: Vec<usize> = splits
        .iter()
        .copied()
        .filter(|&s| s < bytes.len())
        .collect();
    cuts.sort_unstable();
    cuts.push(bytes.len());
    for cut in cuts {
        let end = finder.feed(&bytes[..cut]);
        if end != JsonEnd::Incomplete {
            return (end, cut);
        }
    }
    (JsonEnd::Incomplete, bytes.len())
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

const TRICKY: &str = r#"{"a":"}\"]\\","b":["{[",{"c":"\\\""}],"d":"\u005d"}"#;

#[test]
fn finds_the_end_split_at_every_byte() {
    let body = format!("\u{feff} \n{TRICKY}  ");
    let bytes = body.as_bytes();
    let end = bytes.len() - 2;
    let (whole, _) = find(bytes, &[]);
    assert_eq!(whole, JsonEnd::Complete(end));
    // Every single split, and one byte at a time.
    for split in 0..bytes.len() {
        assert_eq!(
            find(bytes, &[split]).0,
            JsonEnd::Complete(end),
            "split at {split}"
        );
    }
    let every: Vec<usize> = (1..bytes.len()).collect();
    let (got, at) = find(bytes, &every);
    assert_eq!(got, JsonEnd::Complete(end));
    assert_eq!(at, end, "decided on the value's last byte");
    let value: Value = parse_json(&bytes[..end]).unwrap();
    assert_eq!(value["a"], json!("}\"]\\"));
    assert_eq!(value["d"], json!("]"));
}

#[test]
fn escaped_quotes_and_brackets_inside_strings_do_not_count() {
    assert_eq!(find(br#"["\"]"]"#, &[]).0, JsonEnd::Complete(7));
    assert_eq!(find(br#"["\\"]"#, &[]).0, JsonEnd::Complete(6));
    assert_eq!(find(br#"{"k":"{{{{"}"#, &[]).0, JsonEnd::Complete(12));
    assert_eq!(find(br#"["\"]"#, &[]).0, JsonEnd::Incomplete);
}

#[test]
fn nesting_at_the_limit_passes_one_more_does_not() {
    let at = nested(MAX_JSON_DEPTH);
    assert_eq!(find(at.as_bytes(), &[]).0, JsonEnd::Complete(at.len()));
    assert!(parse_json(at.as_bytes()).is_ok());
    let over = nested(MAX_JSON_DEPTH + 1);
    assert_eq!(find(over.as_bytes(), &[]).0, JsonEnd::TooDeep);
    assert_eq!(parse_json(over.as_bytes()), Err(JsonError::TooDeep));
    // Brackets in a string are not nesting.
    let quoted = format!("[\"{}\"]", "[".repeat(10 * MAX_JSON_DEPTH));
    assert!(check_depth(quoted.as_bytes()).is_ok());
    assert_eq!(
        JsonError::TooDeep.to_string(),
        format!("JSON nested deeper than {MAX_JSON_DEPTH} levels")
    );
}

#[test]
fn ten_thousand_deep_is_refused_before_serde_sees_it() {
    let deep = nested(10_000);
    assert_eq!(parse_json(deep.as_bytes()), Err(JsonError::TooDeep));
    assert_eq!(find(deep.as_bytes(), &[]).0, JsonEnd::TooDeep);
}

#[test]
fn garbage_is_invalid_and_stays_decided() {
    assert_eq!(find(b"hello", &[]).0, JsonEnd::Invalid);
    assert_eq!(find(b"]", &[]).0, JsonEnd::Invalid);
    assert_eq!(find(b"42", &[]).0, JsonEnd::Invalid);
    assert_eq!(find(b"", &[]).0, JsonEnd::Incomplete);
    assert_eq!(find(b"\xEF\xBB", &[]).0, JsonEnd::Incomplete);
    let mut finder = JsonEndFinder::new();
    assert_eq!(finder.feed(b"x{"), JsonEnd::Invalid);
    assert_eq!(finder.feed(b"x{}"), JsonEnd::Invalid);
    // Counted, not matched: the one parse judges a mismatched close.
    assert_eq!(find(b"{]", &[]).0, JsonEnd::Complete(2));
    assert!(matches!(parse_json(b"{]"), Err(JsonError::Invalid(_))));
    assert!(matches!(
        parse_json(b"\xff\xfe"),
        Err(JsonError::Invalid(_))
    ));
}

/// JSON values of every shape, strings holding quotes, backslashes and brackets.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[\"\\\\\\[\\]{}a-z ]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map("[\"\\]a-z]{0,4}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// However a value's bytes are split, the end found is the value's end, and the bytes up
    /// to it parse to the value.
    #[test]
    fn any_split_finds_the_same_end(
        v in value(),
        splits in prop::collection::vec(0usize..400, 0..8),
        trail in "[ \n]{0,3}",
    ) {
        let container = match v {
            Value::Array(_) | Value::Object(_) => v,
            other => json!([other]),
        };
        let text = container.to_string();
        let body = format!("{text}{trail}");
        let (end, _) = find(body.as_bytes(), &splits);
        prop_assert_eq!(end, JsonEnd::Complete(text.len()));
        prop_assert_eq!(parse_json(&body.as_bytes()[..text.len()]).unwrap(), container);
    }

    /// Arbitrary bytes never panic, and a found end is within the bytes.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), split in 0usize..200) {
        let (end, _) = find(&bytes, &[split]);
        if let JsonEnd::Complete(at) = end {
            prop_assert!(at <= bytes.len());
        }
        let _ = parse_json(&bytes);
    }
}
