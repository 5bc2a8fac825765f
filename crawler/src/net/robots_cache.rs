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

/// See the module doc.
#[derive(Debug, Default)]
pub struct RobotsCache {
    entries: Mutex<HashMap<String, CachedRobots>>,
}

impl RobotsCache {
    /// The answer read for `origin`, while it is young enough.
    pub fn get(&self, origin: &str) -> Option<CachedRobots> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .get(origin)
            .filter(|c| c.read_at.elapsed() < ROBOTS_CACHE_AGE)
            .cloned()
    }

    /// Keeps `answer` for `origin`; when full, the aged ones go first, and with none aged the
    /// answer is not kept (the next site reads it again: a request, never a wrong rule).
    pub fn put(&self, origin: String, answer: CachedRobots) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= ROBOTS_CACHE_ENTRIES && !entries.contains_key(&origin) {
            entries.retain(|_, c| c.read_at.elapsed() < ROBOTS_CACHE_AGE);
            if entries.len() >= ROBOTS_CACHE_ENTRIES {
                return;
            }
        }
        entries.insert(origin, answer);
    }

    /// Origins kept now.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
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
}
