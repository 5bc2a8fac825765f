//! The network core: resolver, address guard, politeness limits, HTTP client.
//!
//! [`Net`] is built once from [`NetOptions`] and shared; [`Net::site_client`] gives each site
//! its own connection pool. Every connection goes to an address that passed the [`Guard`],
//! pinned for the site (never re-resolved), after the [`Throttle`] allows it.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use mcpcensus::net::{FetchRequest, Net, NetOptions};
//! let net = Net::new(NetOptions::default())?;
//! let site = net.site_client();
//! let url = url::Url::parse("https://example.com/.well-known/mcp.json")?;
//! let response = site.fetch(FetchRequest::get(url).body_cap(256 * 1024)).await?;
//! println!("{} {} bytes from {}", response.status, response.body.len(), response.address);
//! # Ok(()) }
//! ```

mod answer;
mod body;
mod chunked;
mod client;
mod conn;
mod connector;
pub mod content;
mod dns_silence;
mod error;
mod fetch;
mod fetch_error;
mod guard;
mod h1;
mod h2;
#[cfg(any(test, feature = "wire-harness"))]
#[doc(hidden)]
pub mod harness;
pub mod json;
mod local;
mod names;
mod options;
mod pins;
mod pool;
pub mod recorder;
mod resolver;
mod retry_after;
mod robots;
mod robots_cache;
mod server_deadline;
mod shared;
mod signatures;
mod throttle;
mod tls;
mod waits;

#[cfg(test)]
mod tests;

pub use body::BodyReader;
pub use client::{Net, SiteClient};
pub use connector::PeerInfo;
pub use error::NetError;
pub use fetch::{
    ConnectFailure, FetchError, FetchHead, FetchRequest, FetchResponse, TimeoutPhase,
    DEFAULT_BODY_CAP, DEFAULT_REQUEST_TIMEOUT,
};
pub use guard::{BlockedRange, Embedding, Guard, Refusal};
pub use h2::STREAM_WINDOW as H2_STREAM_WINDOW;
pub use local::{LocalResource, LOCAL_RESOURCE_TAG};
pub use names::{host_key, origin_key};
pub use options::*;
pub use recorder::{clip, Entry, Exchange, Recorder, EXCERPT_BYTES};
pub use resolver::{ResolveError, Resolver};
pub use retry_after::{pauses_host, retry_after, retry_after_at};
pub use robots::{RobotsRules, ROBOTS_PRODUCT_TOKEN};
pub use robots_cache::{CachedRobots, RobotsCache, ROBOTS_CACHE_AGE, ROBOTS_CACHE_ENTRIES};
pub use server_deadline::{Deadline, ServerDeadline};
pub use throttle::{Throttle, ThrottleStats, ThrottleWaits};
pub use tls::ALPN_PROTOCOLS;
pub use waits::{OwnWaits, WaitGuard};
