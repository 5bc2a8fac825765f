//! Unit and loopback tests of the network core.

mod client;
mod differential;
mod dns_silence;
mod guard;
mod h1;
mod json;
mod local;
mod resolver;
mod resolver_stall;
mod retry_after;
mod safety;
mod server_deadline;
mod support;
mod throttle;
mod unavailable;
mod waits;
mod wire;
