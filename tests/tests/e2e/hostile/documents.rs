//! Hostile documents: compressed bodies and catalogs of 100,000 entries, nested to the
//! limit, or heavy enough to cost a crawler hundreds of MB.

use mcpcensus_simweb::hostile;
use mcpcensus_store::Outcome;

use super::{crawl_one, why};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_compressed_bodies_though_identity_asked() {
    let r = &crawl_one(hostile::compressed_bodies()).await;
    // Compressed bytes are not read as the documents they hide.
    assert_eq!(r.outcome, Outcome::OutOfScope, "{}", why(r));
    let card = r
        .documents
        .iter()
        .find(|d| d.url.ends_with("/server-card.json"))
        .unwrap();
    assert!(!card.parsed, "{card:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_catalog_of_100000_entries() {
    let r = &crawl_one(hostile::huge_catalog()).await;
    assert_eq!(r.outcome, Outcome::OutOfScope, "{}", why(r));
    assert!(
        r.documents.len() < 40,
        "{} documents logged",
        r.documents.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_nested_catalogs_with_inline_cards() {
    let r = &crawl_one(hostile::nested_catalogs()).await;
    assert_eq!(r.outcome, Outcome::OutOfScope, "{}", why(r));
    assert!(
        r.documents.len() < 40,
        "{} documents logged",
        r.documents.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_heavy_catalogs_with_inline_cards() {
    let r = &crawl_one(hostile::heavy_catalogs()).await;
    assert_eq!(r.outcome, Outcome::OutOfScope, "{}", why(r));
    let catalogs = r
        .documents
        .iter()
        .filter(|d| d.parsed && (d.url.contains("/heavy") || d.url.ends_with("/ai-catalog.json")));
    assert!(catalogs.count() >= 5, "{:?}", r.documents);
    // What the inline-card cap cut is said on the catalogs' logs.
    assert!(
        r.documents.iter().any(|d| d
            .note
            .as_deref()
            .is_some_and(|n| n.contains("inline card(s) not read (at most 50 a site)"))),
        "{:?}",
        r.documents
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_catalogs_of_incomplete_entries_cost_a_bounded_record() {
    let r = &crawl_one(hostile::incomplete_catalogs("incomplete.hostile.test")).await;
    assert_eq!(r.outcome, Outcome::OutOfScope, "{}", why(r));
    // Read: at most 1,000 entries a catalog, the rest counted on its log.
    let cut: Vec<&str> = r
        .documents
        .iter()
        .filter_map(|d| d.note.as_deref())
        .filter(|n| n.contains("entries not read (at most 5000 a catalog)"))
        .collect();
    assert!(cut.len() >= 2, "{:?}", r.documents);
    // Audited up to the record's bound, the rest counted.
    assert!(r.findings.len() <= 2_500, "{} findings", r.findings.len());
    let truncated = r.truncated.as_deref().unwrap_or_default();
    assert!(
        truncated.contains("the discovery audit stopped at 2500"),
        "{truncated}"
    );
}
