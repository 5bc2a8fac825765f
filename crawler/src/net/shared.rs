//! What every site client shares, below the client, its connector and its pins (all three
//! read it; none of them owns it).

use std::sync::Arc;

use http::HeaderValue;
use rustls::ClientConfig;

use super::guard::Guard;
use super::options::NetOptions;
use super::resolver::Resolver;
use super::robots_cache::RobotsCache;
use super::throttle::Throttle;
use crate::input::Exclusions;

/// What every site client shares.
pub(crate) struct Shared {
    pub(crate) opts: NetOptions,
    pub(crate) resolver: Resolver,
    pub(crate) guard: Guard,
    pub(crate) throttle: Throttle,
    pub(crate) tls: Arc<ClientConfig>,
    pub(crate) user_agent: HeaderValue,
    /// The opt-out list: a covered host gets no request at all, whoever named it.
    pub(crate) opt_out: Arc<Exclusions>,
    /// robots.txt answers the run has read, by origin.
    pub(crate) robots_cache: RobotsCache,
}
