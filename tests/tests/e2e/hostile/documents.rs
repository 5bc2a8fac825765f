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
