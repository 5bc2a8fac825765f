//! The one test HTTP server of the crate's unit tests (net, session, scan): TLS (h2 or
//! http/1.1) or plain on 127.0.0.1:0, a test CA for the names it serves, scripted answers
//! ([`Canned`]) chosen by a handler per request, and a recorder of what arrived.

mod canned;
mod child;
mod net;
mod pki;
mod server;

pub use canned::Canned;
pub use child::pass_in_child;
pub use net::net_options;
pub use pki::TestPki;
pub use server::{Mode, Seen, TestServer};
