//! Unit and loopback tests of the network core.

mod client;
mod guard;
mod json;
mod resolver;
mod support;
mod throttle;
