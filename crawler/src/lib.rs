//! mcpcensus: measures how the web adopts the Model Context Protocol.

pub mod net;
