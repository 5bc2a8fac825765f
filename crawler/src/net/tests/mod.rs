//! Unit and loopback tests of the network core.

mod client;
mod guard;
mod local;
mod json;
mod resolver;
mod safety;
mod support;
mod throttle;
