//! mcpcensus: measures how the web adopts the Model Context Protocol.

pub mod audit;
pub mod cli;
pub mod config;
pub mod discovery;
pub mod error;
pub mod input;
pub mod mcp;
pub mod net;
pub mod probe;
pub mod rule;
pub mod run;
pub mod scan;
pub mod session;

pub use error::{ConfigError, Error, InputError};
