//! The index against the plain search it replaced: for every tool of the labelled corpus and
//! a few made-up ones, every row of the table matches the same way both ways.

use serde_json::{json, Value};

use super::corpus_tests::corpus;
use super::table::{Place, Signal, SIGNALS};
use super::tag::found;
use super::words::{name_words, positions, property_names, summary, text_words};

/// The row's match by searching each entry in the words (the reference).
fn by_scan(row: &Signal, words: &[String]) -> bool {
    let hits: Vec<usize> = row.words.iter().flat_map(|e| positions(words, e)).collect();
    if hits.is_empty()
        || row
            .unless
            .iter()
            .any(|e| positions(words, e).next().is_some())
    {
        return false;
    }
    row.with.is_empty()
        || row
            .with
            .iter()
            .flat_map(|e| positions(words, e))
            .any(|at| hits.iter().any(|&hit| hit != at))
}

fn check(name: &str, description: Option<&str>, schema: Option<&Value>) {
    let text = description.unwrap_or_default();
    let indexed = found(name, description, schema);
    for (k, row) in SIGNALS.iter().enumerate() {
        let words = match row.place {
            Place::Annotation => continue,
            Place::Name => name_words(name),
            Place::Summary => text_words(summary(text)),
            Place::Description => text_words(text),
            Place::Schema => property_names(schema),
        };
        assert_eq!(
            indexed[k].matches(!row.with.is_empty()),
            by_scan(row, &words),
            "row {} on {name:?} / {description:?}",
            row.id
        );
    }
}

#[test]
fn the_index_matches_as_the_plain_search_does() {
    let tools = corpus();
    for t in &tools {
        check(
            t["name"].as_str().unwrap(),
            t["description"].as_str(),
            Some(&t["input_schema"]),
        );
    }
    // Pairs at one position or two, phrases cut at the end, repeated words.
    let schema = json!({"properties": {"url": {}, "path": {}, "sql": {}}});
    for (name, description) in [
        ("post", "Post."),
        ("post_post", "Send a message. Send a message."),
        ("send_message_send", "Run code and run code"),
        (
            "get_file_contents",
            "Delete the file, or remove it; cannot be",
        ),
        (
            "create_refund_refund",
            "Capture a payment link for an order.",
        ),
        ("", ""),
    ] {
        check(name, Some(description), Some(&schema));
        check(name, None, None);
    }
}
