use crate::bound::*;
use crate::record::{Finding, Outcome, Record};

fn finding(i: usize) -> Finding {
    Finding {
        rule_id: "MCP-CAT-002".into(),
        severity: crate::Severity::Medium,
        evidence: format!("entry {i} lacks an identifier; a type; a url or data"),
        url: Some("https://hostile.test/.well-known/ai-catalog.json".into()),
        tool: None,
    }
}

#[test]
fn a_record_within_the_caps_is_untouched() {
    let mut r = Record::new("run", 1, "a.test", 1, Outcome::Fail, "x");
    r.findings = (0..2_000).map(finding).collect();
    let before = r.clone();
    assert!(!bound(&mut r));
    assert_eq!(r, before);
}

#[test]
fn long_lists_and_texts_are_cut_and_marked() {
    let mut r = Record::new("run", 1, "a.test", 1, Outcome::Fail, "r".repeat(100_000));
    r.findings = (0..300_000).map(finding).collect();
    r.addresses = vec!["192.0.2.1".into(); 1_000];
    assert!(bound(&mut r));
    assert_eq!(r.findings.len(), MAX_FINDINGS);
    assert_eq!(r.addresses.len(), MAX_ADDRESSES);
    assert_eq!(r.outcome_reason.len(), MAX_TEXT_BYTES);
    let marker = r.truncated.as_deref().unwrap();
    assert!(marker.contains("findings: 2500 of 300000 kept"), "{marker}");
    assert!(
        marker.contains("outcome_reason: 1 cut to length"),
        "{marker}"
    );
    assert!(serde_json::to_vec(&r).unwrap().len() < 2 * 1024 * 1024);
}

#[test]
fn texts_are_cut_on_a_character_boundary() {
    let mut r = Record::new("run", 1, "a.test", 1, Outcome::Fail, "é".repeat(5_000));
    bound(&mut r);
    assert!(r.outcome_reason.len() <= MAX_TEXT_BYTES);
    assert!(r.outcome_reason.chars().all(|c| c == 'é'));
}

#[test]
fn many_long_findings_under_the_count_cap_still_fit_the_byte_budget() {
    let mut r = Record::new("run", 1, "a.test", 1, Outcome::Fail, "x");
    r.findings = (0..MAX_FINDINGS)
        .map(|i| Finding {
            evidence: "e".repeat(MAX_TEXT_BYTES),
            ..finding(i)
        })
        .collect();
    assert!(bound(&mut r));
    assert!(r.findings.len() < MAX_FINDINGS);
    assert!(serde_json::to_vec(&r).unwrap().len() < 2 * 1024 * 1024);
}

#[test]
fn refused_urls_and_robots_skips_are_capped() {
    let mut r = Record::new("run", 1, "a.test", 1, Outcome::Pass, "x");
    r.refused_urls = vec!["https://a.test/x: bad port; not requested".into(); 10_000];
    r.robots = Some(crate::record::RobotsInfo {
        url: "https://a.test/robots.txt".into(),
        status: Some(200),
        verdict: "rules".into(),
        crawl_delay_ms: None,
        skipped: vec![format!("https://a.test/{}", "p".repeat(10_000)); 1_000],
    });
    assert!(bound(&mut r));
    assert_eq!(r.refused_urls.len(), MAX_SHORT_LIST);
    let robots = r.robots.as_ref().unwrap();
    assert_eq!(robots.skipped.len(), MAX_SHORT_LIST);
    assert!(robots.skipped.iter().all(|u| u.len() <= MAX_URL_BYTES));
    let marker = r.truncated.as_deref().unwrap();
    assert!(
        marker.contains("refused_urls: 128 of 10000 kept"),
        "{marker}"
    );
    assert!(
        marker.contains("robots_skipped: 128 of 1000 kept"),
        "{marker}"
    );
}
