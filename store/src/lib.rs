//! Records, the embedded store and its exports.

pub mod record;
mod serde_helpers;

pub use record::*;
pub(crate) use serde_helpers::{json_text, rfc3339_ms};
pub use serde_helpers::rfc3339_ms::format as format_timestamp;
