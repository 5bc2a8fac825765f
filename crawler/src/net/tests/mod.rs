//! Unit and loopback tests of the network core.

mod client;
mod guard;
mod local;
mod resolver;
mod support;
mod throttle;
