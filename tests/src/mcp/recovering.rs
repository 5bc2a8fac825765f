//! A server that is down at first and recovers: it answers a given reply (a 503) to every
//! request until one arrives at least `gap` after the request before it, then answers as
//! `server` for good. A look's requests come back to back; a crawler's second look comes after
//! its delay, so the pause between the looks is what turns the server back on, whatever the
//! number of requests one look makes.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::get::{answer_delete, answer_get};
use super::post::answer;
use super::server::McpServer;
use crate::record::RecordedRequest;
use crate::reply::Reply;
use crate::site::Site;

#[derive(Debug, Default)]
struct Gate {
    last: Option<Instant>,
    up: bool,
}

impl Gate {
    /// Whether the server answers `at`: it came up at the first request after a pause.
    fn up_at(&mut self, at: Instant, gap: Duration) -> bool {
        if self
            .last
            .is_some_and(|last| at.saturating_duration_since(last) >= gap)
        {
            self.up = true;
        }
        self.last = Some(at);
        self.up
    }
}

impl Site {
    /// Mounts `server` at `path`, down (`down` to everything) until a request comes at least
    /// `gap` after the one before it.
    pub fn mcp_recovering(
        self,
        path: &str,
        server: &McpServer,
        down: Reply,
        gap: Duration,
    ) -> Self {
        let inner = server.inner();
        let gate = Arc::new(Mutex::new(Gate::default()));
        self.route(
            path,
            Reply::handler(move |req: &RecordedRequest| {
                let up = gate
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .up_at(req.at, gap);
                if !up {
                    return down.clone();
                }
                match req.method.as_str() {
                    "POST" => answer(&inner, req),
                    "GET" => answer_get(&inner, req),
                    "DELETE" => answer_delete(&inner, req),
                    _ => Reply::status(405),
                }
            }),
        )
    }
}
