//! robots.txt answers the run has read, by origin, so an origin several sites lead to (an apex
//! and its `www` listed apart, many names redirecting to one host) is asked once a run. Only
//! a definite answer is kept: a 2xx (its rules) or a 4xx (allow all); a 5xx, no answer or a
//! redirect chain is read again by the next site, so one site's bad moment never closes
//! another. Bounded in entries and in age (RFC 9309 §2.4: a cached robots.txt is not used for
//! more than 24 hours; a run keeps one an hour).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use super::robots::RobotsRules;

/// Origins kept at most (each holds its parsed rules: a few KB).
pub const ROBOTS_CACHE_ENTRIES: usize = 4096;
/// How long a kept answer is used.
pub const ROBOTS_CACHE_AGE: Duration = Duration::from_secs(3600);

/// One origin's robots.txt as read.
#[derive(Debug, Clone)]
pub struct CachedRobots {
    pub rules: Arc<RobotsRules>,
    pub status: u16,
    /// `rules` or `allow_all`.
    pub verdict: &'static str,
    read_at: Instant,
}

impl CachedRobots {
    pub fn new(rules: Arc<RobotsRules>, status: u16, verdict: &'static str) -> Self {
        Self {
            rules,
            status,
            verdict,
            read_at: Instant::now(),
        }
    }
}

/// How often a full cache looks for aged answers to drop: a sweep walks every entry, so a
/// full cache of young answers must not be walked for each site that cannot get in.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// See the module doc.
#[derive(Debug, Default)]
pub struct RobotsCache {
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    map: HashMap<String, CachedRobots>,
    swept: Option<Instant>,
}

impl RobotsCache {
    /// The answer read for `origin`, while it is young enough.
    pub fn get(&self, origin: &str) -> Option<CachedRobots> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .map
            .get(origin)
            .filter(|c| c.read_at.elapsed() < ROBOTS_CACHE_AGE)
            .cloned()
    }

    /// Keeps `answer` for `origin`; when full, the aged ones go (looked for at most once a
    /// minute), and with none aged the answer is not kept (the next site reads it again: a
    /// request, never a wrong rule).
    pub fn put(&self, origin: String, answer: CachedRobots) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.map.len() >= ROBOTS_CACHE_ENTRIES && !entries.map.contains_key(&origin) {
            if entries.swept.is_some_and(|at| at.elapsed() < SWEEP_EVERY) {
                return;
            }
            entries.swept = Some(Instant::now());
            entries
                .map
                .retain(|_, c| c.read_at.elapsed() < ROBOTS_CACHE_AGE);
            if entries.map.len() >= ROBOTS_CACHE_ENTRIES {
                return;
            }
        }
        entries.map.insert(origin, answer);
    }

    /// Origins kept now.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }

    /// True when nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn answers_are_kept_an_hour_and_the_bound_holds() {
        let cache = RobotsCache::default();
        let rules = Arc::new(RobotsRules::allow_all());
        cache.put(
            "https://a.test".into(),
            CachedRobots::new(rules.clone(), 404, "allow_all"),
        );
        assert_eq!(cache.get("https://a.test").map(|c| c.status), Some(404));
        assert!(cache.get("https://b.test").is_none());
        tokio::time::advance(ROBOTS_CACHE_AGE).await;
        assert!(cache.get("https://a.test").is_none(), "aged out");
        for i in 0..ROBOTS_CACHE_ENTRIES + 10 {
            cache.put(
                format!("https://s{i}.test"),
                CachedRobots::new(rules.clone(), 200, "rules"),
            );
        }
        assert_eq!(
            cache.len(),
            ROBOTS_CACHE_ENTRIES,
            "the aged one made room, no more"
        );
        assert!(cache.get("https://s0.test").is_some());
        assert!(cache
            .get(&format!("https://s{}.test", ROBOTS_CACHE_ENTRIES + 5))
            .is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_cache_looks_for_aged_answers_at_most_once_a_minute() {
        let cache = RobotsCache::default();
        let rules = Arc::new(RobotsRules::allow_all());
        let put = |name: &str| {
            cache.put(
                format!("https://{name}.test"),
                CachedRobots::new(rules.clone(), 200, "rules"),
            )
        };
        let kept = |name: &str| cache.get(&format!("https://{name}.test")).is_some();
        for i in 0..ROBOTS_CACHE_ENTRIES {
            put(&format!("s{i}"));
        }
        put("first"); // full and young: swept, nothing aged, not kept
        assert!(!kept("first"));
        tokio::time::advance(ROBOTS_CACHE_AGE - Duration::from_secs(30)).await;
        put("second"); // swept again (the last sweep is old), still nothing aged
        assert!(!kept("second"));
        tokio::time::advance(Duration::from_secs(40)).await;
        put("third"); // every entry aged now, but the last sweep was 40 s ago: not walked
        assert!(!kept("third"));
        assert_eq!(
            cache.entries.lock().map(|e| e.map.len()).ok(),
            Some(ROBOTS_CACHE_ENTRIES)
        );
        tokio::time::advance(Duration::from_secs(30)).await;
        put("fourth"); // a minute on: swept, the aged ones gone
        assert!(kept("fourth"));
        assert_eq!(cache.len(), 1);
    }
}
