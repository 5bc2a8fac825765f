//! Unit and loopback tests of the network core.

mod client;
mod dns_silence;
mod guard;
mod json;
mod local;
mod resolver;
mod resolver_stall;
mod retry_after;
mod safety;
mod support;
mod throttle;
mod unavailable;
mod waits;
mod wire;
