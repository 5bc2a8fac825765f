//! Hostile MCP servers: endless and crowded event streams, oversized and reset answers,
//! invalid UTF-8, deep JSON, duplicate keys, wrong content types, huge tool lists.

use mcpcensus_simweb::hostile;
use mcpcensus_store::{Outcome, Record};

use super::{crawl_one, why};

fn assert_over_cap(r: &Record, method: &str) {
    assert_eq!(r.outcome, Outcome::Fail, "{}", why(r));
    let text = format!("{method} answered 200 (ok) with an answer over 64 KB");
    assert!(r.outcome_reason.contains(&text), "{}", why(r));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_endless_event_stream() {
    let r = &crawl_one(hostile::endless_stream()).await;
    assert_eq!(r.outcome, Outcome::NotMeasured, "{}", why(r));
    assert!(
        r.outcome_reason
            .contains("limit ran out waiting for initialize"),
        "{}",
        why(r)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_ten_thousand_events_before_the_answer() {
    assert_over_cap(&crawl_one(hostile::many_events()).await, "initialize");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_answer_one_byte_over_the_cap() {
    assert_over_cap(&crawl_one(hostile::answer_over_cap()).await, "initialize");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_invalid_utf8_everywhere() {
    let r = &crawl_one(hostile::invalid_utf8()).await;
    assert_eq!(r.outcome, Outcome::Fail, "{}", why(r));
    assert!(
        r.outcome_reason
            .contains("neither JSON nor an event stream"),
        "{}",
        why(r)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_json_nested_ten_thousand_deep() {
    let r = &crawl_one(hostile::deep_json()).await;
    assert_eq!(r.outcome, Outcome::Fail, "{}", why(r));
    assert!(
        r.outcome_reason
            .contains("JSON nested deeper than 64 levels"),
        "{}",
        why(r)
    );
    let card = r
        .documents
        .iter()
        .find(|d| d.url.ends_with("/server-card.json"))
        .unwrap();
    assert!(!card.parsed, "{card:?}");
    let note = card.note.as_deref().unwrap_or_default();
    assert!(
        note.contains("JSON nested deeper than 64 levels"),
        "{card:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_duplicate_keys_last_one_wins() {
    let r = &crawl_one(hostile::duplicate_keys()).await;
    // serde_json keeps the last of duplicate keys: the second `result`, without tools.
    assert_eq!(r.outcome, Outcome::Partial, "{}", why(r));
    assert_eq!(
        r.protocol_version.as_deref(),
        Some("2025-03-26"),
        "{}",
        why(r)
    );
    assert_eq!(r.server_name.as_deref(), Some("c"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_wrong_and_missing_content_types() {
    let r = &crawl_one(hostile::wrong_content_types()).await;
    // A JSON answer labelled text/html is still read as JSON (the survey's leniency).
    assert_eq!(r.outcome, Outcome::Pass, "{}", why(r));
    let card = r
        .documents
        .iter()
        .find(|d| d.url.ends_with("/server-card.json"))
        .unwrap();
    assert_eq!(card.content_type.as_deref(), Some("image/png"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_hundred_thousand_tools() {
    let r = &crawl_one(hostile::many_tools()).await;
    assert_over_cap(r, "tools/list");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_megabyte_descriptions() {
    assert_over_cap(&crawl_one(hostile::huge_descriptions()).await, "tools/list");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_answer_in_one_byte_chunks() {
    let r = &crawl_one(hostile::byte_chunks()).await;
    // Read as it arrives and parsed once: the session completes (tools/list is normal).
    assert_eq!(r.outcome, Outcome::Pass, "{}", why(r));
    assert_eq!(r.server_name.as_deref(), Some("hostile"), "{}", why(r));
}
