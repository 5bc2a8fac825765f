//! Self-tests of the simulated web, talking to it over loopback with a hyper client that
//! trusts only the test CA, and with hickory-proto DNS queries.

mod bodies;
pub(crate) mod client;
mod dns;
mod mix;
mod records;
mod routes;
mod tls;
