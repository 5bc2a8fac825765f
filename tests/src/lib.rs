//! The simulated web: virtual TLS sites, a DNS server and scripted behaviours on loopback.
//!
//! Every listener binds loopback addresses only (127.0.0.0/8 and ::1); all sites share one port
//! number across those addresses, so the crawler can be given `host.test:PORT` and resolve the
//! host through [`SimWeb::dns_addr`], trusting [`SimWeb::ca_pem`]. Ready-made MCP servers
//! (2025 and 2026 dialects, legacy SSE, OAuth metadata, a proxy to a real server) live in
//! [`mcp`].
//!
//! ```no_run
//! # async fn demo() -> Result<(), mcpcensus_simweb::Error> {
//! use mcpcensus_simweb::{DnsRule, Reply, SimWeb, Site};
//! let web = SimWeb::builder()
//!     .site(
//!         Site::new("a.test")
//!             .route("/", Reply::html("<html></html>").header("link", "<https://a.test/mcp>; rel=\"mcp\""))
//!             .route_method("GET", "/mcp", Reply::status(405).header("allow", "POST"))
//!             .route_method("POST", "/mcp", Reply::handler(|req| Reply::json(req.json().unwrap_or_default()))),
//!     )
//!     .site(Site::new("b.test").ip([127, 0, 0, 2]).default(Reply::status(404)))
//!     .dns(DnsRule::servfail("broken.test"))
//!     .start()
//!     .await?;
//! let (_port, _dns, _ca) = (web.port(), web.dns_addr(), web.ca_pem());
//! let _seen = web.requests("a.test");
//! web.shutdown().await;
//! # Ok(()) }
//! ```

mod body;
mod ca;
mod certs;
mod config;
pub mod demo;
mod dns;
mod error;
mod h2fault;
pub mod hostile;
pub mod mcp;
pub mod mcp_registry;
pub mod mix;
mod raw;
pub mod readiness;
mod record;
mod registry;
pub mod registry_standin;
mod reply;
mod respond;
mod server;
pub mod shapes;
mod site;
mod sse;
mod tls_proxy;
mod web;

#[cfg(test)]
mod selftest;

pub use ca::TestCa;
pub use config::*;
pub use dns::{DnsBehaviour, DnsRule};
pub use error::Error;
pub use h2fault::H2Fault;
pub use raw::{RawAnswer, RawEnd, RawHttp};
pub use record::{ConnStats, RecordLimits, RecordedRequest, OVERFLOW_HOST};
pub use reply::{AsyncHandler, Handler, LivePiece, Reply, ReplyFuture, RpcCall, HANG_LIMIT};
pub use site::{CertMode, Scheme, Site, TlsFault};
pub use sse::SseEvent;
pub use tls_proxy::TlsProxy;
pub use web::{SimWeb, SimWebBuilder};
