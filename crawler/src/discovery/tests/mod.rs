//! Discovery unit tests, one file per module under test.

mod card;
mod catalog;
mod endpoint;
mod links;
mod mcp_path;
mod paths;
mod source;
mod surface;
mod surface_signals;

use url::Url;

fn url(text: &str) -> Url {
    Url::parse(text).unwrap()
}
