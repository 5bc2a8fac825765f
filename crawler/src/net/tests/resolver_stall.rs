//! A lookup that stalls in the resolver (neither an answer nor hickory's own timeout) is asked
//! again once on a resolver built afresh, and its time past hickory's bounds is the crawler's
//! own wait. The stand-in lookups never touch the network; time is paused, so the deadlines
//! are exact.

use std::collections::{BTreeSet, HashMap};
use std::future::pending;
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hickory_proto::rr::Name;
use tokio::time::Instant;

use crate::net::resolver::{LookupFuture, Lookups, LookupsFactory};
use crate::net::{NetOptions, OwnWaits, ResolveError, Resolver};

const ANSWER: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));

/// Lookups of one generation: each answers after `delay`, or never.
struct StandIn {
    delay: Option<Duration>,
    asked: Arc<AtomicU64>,
}

impl Lookups for StandIn {
    fn lookup(&self, _name: Name) -> LookupFuture {
        self.asked.fetch_add(1, Ordering::Relaxed);
        let delay = self.delay;
        Box::pin(async move {
            match delay {
                Some(delay) => {
                    tokio::time::sleep(delay).await;
                    Ok(vec![ANSWER])
                }
                None => pending().await,
            }
        })
    }
}

/// A resolver of one shard whose generation N behaves as `generations[N]` (the last one
/// repeats), with the default timeout and tries (3 s × 3: budget 10 s, stall deadline 19 s).
/// Returns how many resolvers were built and how many lookups each generation was asked.
fn resolver(generations: Vec<Option<Duration>>) -> (Resolver, Arc<AtomicU64>, Vec<Arc<AtomicU64>>) {
    let built = Arc::new(AtomicU64::new(0));
    let asked: Vec<Arc<AtomicU64>> = generations.iter().map(|_| Arc::default()).collect();
    let (count, per_gen) = (built.clone(), asked.clone());
    let factory: LookupsFactory = Box::new(move || {
        let n = usize::try_from(count.fetch_add(1, Ordering::Relaxed)).expect("small");
        let g = n.min(generations.len() - 1);
        Ok(Arc::new(StandIn {
            delay: generations[g],
            asked: per_gen[g].clone(),
        }) as Arc<dyn Lookups>)
    });
    let opts = NetOptions {
        resolver_shards: NonZeroUsize::MIN,
        ..NetOptions::default()
    };
    let resolver = Resolver::with_lookups(&opts, factory).expect("resolver");
    (resolver, built, asked)
}

#[tokio::test(start_paused = true)]
async fn a_stalled_lookup_is_asked_again_on_a_fresh_resolver() {
    let (resolver, built, asked) = resolver(vec![None, Some(Duration::from_secs(2))]);
    let waits = OwnWaits::default();
    let started = Instant::now();
    let found = resolver.resolve_for("stalls.test", &waits).await;
    assert_eq!(
        found.expect("answered on the fresh resolver").as_ref(),
        [ANSWER]
    );
    assert_eq!(
        built.load(Ordering::Relaxed),
        2,
        "one resolver built afresh"
    );
    assert_eq!(asked[0].load(Ordering::Relaxed), 1);
    assert_eq!(asked[1].load(Ordering::Relaxed), 1);
    assert_eq!(resolver.stalls(), 1);
    // 19 s stalled, then 2 s on the fresh one.
    assert_eq!(started.elapsed(), Duration::from_secs(21));
    // Past the 10 s budget (9 s) and the whole second try (2 s) are the crawler's own.
    assert_eq!(waits.total(), Duration::from_secs(11));
}

#[tokio::test(start_paused = true)]
async fn a_lookup_that_stalls_on_a_fresh_resolver_too_is_a_timeout() {
    let (resolver, built, _) = resolver(vec![None]);
    let waits = OwnWaits::default();
    let started = Instant::now();
    assert_eq!(
        resolver.resolve_for("never.test", &waits).await,
        Err(ResolveError::Timeout)
    );
    assert_eq!(built.load(Ordering::Relaxed), 2);
    assert_eq!(started.elapsed(), Duration::from_secs(38));
    assert_eq!(
        waits.total(),
        Duration::from_secs(28),
        "9 s of the first try, all 19 of the second"
    );
}

#[tokio::test(start_paused = true)]
async fn an_answer_within_the_budget_is_the_servers_time() {
    let (resolver, built, _) = resolver(vec![Some(Duration::from_secs(8))]);
    let waits = OwnWaits::default();
    let found = resolver.resolve_for("slow.test", &waits).await;
    assert_eq!(found.expect("answered").as_ref(), [ANSWER]);
    assert_eq!(built.load(Ordering::Relaxed), 1);
    assert_eq!(resolver.stalls(), 0);
    assert_eq!(waits.total(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn an_answer_past_the_budget_counts_the_overrun_as_own_wait() {
    let (resolver, built, _) = resolver(vec![Some(Duration::from_secs(15))]);
    let waits = OwnWaits::default();
    let found = resolver.resolve_for("late.test", &waits).await;
    assert_eq!(found.expect("answered").as_ref(), [ANSWER]);
    assert_eq!(
        built.load(Ordering::Relaxed),
        1,
        "not a stall: no fresh resolver"
    );
    assert_eq!(waits.total(), Duration::from_secs(5));
}

#[tokio::test(start_paused = true)]
async fn lookups_that_stall_together_renew_the_resolver_once() {
    let (resolver, built, asked) = resolver(vec![None, Some(Duration::from_millis(50))]);
    let resolver = Arc::new(resolver);
    let mut lookups = tokio::task::JoinSet::new();
    for i in 0..20 {
        let resolver = resolver.clone();
        lookups.spawn(async move { resolver.resolve(&format!("site{i}.test")).await });
    }
    while let Some(done) = lookups.join_next().await {
        assert_eq!(done.expect("task").expect("answered").as_ref(), [ANSWER]);
    }
    assert_eq!(
        built.load(Ordering::Relaxed),
        2,
        "the stalled resolver replaced once"
    );
    assert_eq!(asked[1].load(Ordering::Relaxed), 20);
    assert_eq!(resolver.stalls(), 20);
}

/// Lookups of the resolver built `nth`, noting which names it was asked; the first one built
/// never answers.
struct Noting {
    nth: usize,
    seen: Arc<Mutex<Vec<(usize, String)>>>,
}

impl Lookups for Noting {
    fn lookup(&self, name: Name) -> LookupFuture {
        let nth = self.nth;
        self.seen.lock().expect("lock").push((nth, name.to_ascii()));
        Box::pin(async move {
            if nth == 0 {
                pending::<()>().await;
            }
            Ok(vec![ANSWER])
        })
    }
}

#[tokio::test(start_paused = true)]
async fn a_name_keeps_its_shard_and_a_stall_renews_only_that_shard() {
    let seen: Arc<Mutex<Vec<(usize, String)>>> = Arc::default();
    let built = Arc::new(AtomicU64::new(0));
    let (noted, count) = (seen.clone(), built.clone());
    let factory: LookupsFactory = Box::new(move || {
        let nth = usize::try_from(count.fetch_add(1, Ordering::Relaxed)).expect("small");
        Ok(Arc::new(Noting {
            nth,
            seen: noted.clone(),
        }) as Arc<dyn Lookups>)
    });
    let opts = NetOptions {
        resolver_shards: NonZeroUsize::new(4).expect("non-zero"),
        ..NetOptions::default()
    };
    let resolver = Arc::new(Resolver::with_lookups(&opts, factory).expect("resolver"));
    let names: Vec<String> = (0..40).map(|i| format!("site{i}.test")).collect();
    for _ in 0..2 {
        let mut lookups = tokio::task::JoinSet::new();
        for name in &names {
            let (resolver, name) = (resolver.clone(), name.clone());
            lookups.spawn(async move { resolver.resolve(&name).await });
        }
        while let Some(done) = lookups.join_next().await {
            assert_eq!(done.expect("task").expect("answered").as_ref(), [ANSWER]);
        }
    }
    let seen = seen.lock().expect("lock").clone();
    let mut shards_of: HashMap<String, BTreeSet<usize>> = HashMap::new();
    for (nth, name) in &seen {
        shards_of.entry(name.clone()).or_default().insert(*nth);
    }
    // The first shard's resolver (built first) stalled; its names moved to the one built in
    // its place (the fifth), every other name stayed on its own shard's resolver.
    let stalled: Vec<&String> = shards_of
        .iter()
        .filter(|(_, on)| on.contains(&0))
        .map(|(name, _)| name)
        .collect();
    assert!(
        !stalled.is_empty() && stalled.len() < names.len(),
        "{shards_of:?}"
    );
    for (name, on) in &shards_of {
        let want: BTreeSet<usize> = if on.contains(&0) {
            [0, 4].into()
        } else {
            on.iter().take(1).copied().collect()
        };
        assert_eq!(on, &want, "{name} went to {on:?}");
    }
    assert!(shards_of.values().flatten().collect::<BTreeSet<_>>().len() >= 3);
    assert_eq!(
        built.load(Ordering::Relaxed),
        5,
        "four shards and one renewal"
    );
    assert_eq!(resolver.stalls(), stalled.len() as u64);
}
