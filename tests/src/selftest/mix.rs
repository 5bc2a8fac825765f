//! The benchmark mix: its shares and the added answer delay.

use std::time::{Duration, Instant};

use super::client::get;
use crate::mix::{self, Kind, Mix};
use crate::shapes::{self, MIX};
use crate::{Config, SimWeb};

#[test]
fn the_realistic_mix_has_its_shares() {
    let mut counts = [0u32; Kind::ALL.len()];
    for i in 0..10_000 {
        counts[mix::kind(Mix::Realistic, i) as usize] += 1;
    }
    // 97% plain, 2% MCP, 1% split over the four failing kinds.
    assert_eq!(counts, [9_700, 200, 25, 25, 25, 25]);
}

#[test]
fn the_single_kind_mixes_hold_one_kind() {
    for (name, only) in [("plain", Kind::Plain), ("servers", Kind::Mcp)] {
        let mix: Mix = name.parse().expect("a mix");
        assert!((0..1_000).all(|i| mix::kind(mix, i) == only), "{name}");
    }
    assert!("plains".parse::<Mix>().is_err());
}

#[test]
fn the_shape_mix_sums_to_a_thousand_and_deals_every_shape() {
    assert_eq!(MIX.iter().map(|(_, share)| share).sum::<u32>(), 1000);
    let sites = shapes::mix(20_000, 7);
    for (shape, share) in MIX {
        let dealt = sites.iter().filter(|s| s.shape == *shape).count() as u32;
        // Within half of the share either way, over 20,000 sites (20 per mille at 1‰).
        assert!(
            dealt * 2 >= share * 20 && dealt <= share * 20 * 2,
            "{shape:?}: {dealt} of 20000 for {share}‰"
        );
        let served = sites
            .iter()
            .filter(|s| s.shape == *shape && s.server.is_some())
            .count();
        assert_eq!(
            served > 0,
            shape.can_serve() || *shape == shapes::Shape::NewestOnly
        );
    }
}

#[tokio::test]
async fn every_answer_waits_the_added_delay_and_the_kinds_answer_as_named() {
    let delay = Duration::from_millis(150);
    let web = SimWeb::builder()
        .config(Config {
            answer_delay: delay,
            ..Config::default()
        })
        .start()
        .await
        .unwrap();
    let port = web.port();
    // Site 0 is MCP, 1 plain, 25 answers 401, 125 429, 225 503 and 325 redirects.
    for (i, kind) in [
        (0, Kind::Mcp),
        (1, Kind::Plain),
        (25, Kind::Unauthorized),
        (125, Kind::TooMany),
        (225, Kind::Unavailable),
        (325, Kind::Redirect),
    ] {
        assert_eq!(mix::kind(Mix::Realistic, i), kind);
        let name = format!("site{i}.bench.test");
        web.add_site(mix::site(
            Mix::Realistic,
            i,
            &name,
            [127, 0, 0, 1].into(),
            port,
        ))
        .unwrap();
    }
    let card = "/.well-known/mcp/server-card.json";
    for (host, path, status) in [
        ("site0.bench.test", card, 200),
        ("site1.bench.test", card, 404),
        ("site1.bench.test", "/", 200),
        ("site25.bench.test", "/", 401),
        ("site125.bench.test", "/", 429),
        ("site225.bench.test", "/", 503),
        ("site325.bench.test", "/", 301),
    ] {
        let started = Instant::now();
        let answer = get(&web, host, path).await.unwrap();
        assert_eq!(answer.status, status, "{host}{path}");
        assert!(
            started.elapsed() >= delay,
            "{host}{path} answered before the delay"
        );
    }
    let answer = get(&web, "site0.bench.test", card).await.unwrap();
    let card: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(
        card["remotes"][0]["url"],
        format!("https://site0.bench.test:{port}/mcp")
    );
}
