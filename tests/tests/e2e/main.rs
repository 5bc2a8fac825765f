//! End-to-end tests: the real command line and pipeline, against files and (later) the
//! simulated web on loopback.

mod cli;
mod mcp;
mod network;
mod util;
