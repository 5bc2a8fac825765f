//! A discovery document's answer as the record keeps it: its log entry (status, type, size,
//! note) and, for a 2xx, its body for the parsers. Shared by every phase that fetches a
//! document (locate, documents, the endpoint card), below all of them.

use std::sync::Arc;

use http::header::LOCATION;
use http::{HeaderMap, StatusCode};
use mcpcensus_store::{DocumentKind, DocumentLog};
use url::Url;

use super::site::SiteScan;
use crate::discovery::media_type;
use crate::net::{FetchError, FetchResponse};

pub use crate::discovery::DOCUMENT_TIMEOUT;

/// A discovery document's fetch: its body for a 2xx answer.
pub(super) enum Fetched {
    /// The headers are shared with every card given inline in the document.
    Body(Arc<HeaderMap>, bytes::Bytes),
    /// Answered, but not 2xx.
    Status,
    Failed(FetchError),
}

/// Records a document's answer and keeps its body for a 2xx.
pub(super) fn log_answer(
    site: &mut SiteScan,
    kind: DocumentKind,
    url: &Url,
    cap: usize,
    result: Result<FetchResponse, FetchError>,
) -> Fetched {
    let mut log = empty_log(kind, url);
    let answer = match result {
        Ok(r) => {
            log.status = Some(r.status.as_u16());
            log.content_type = media_type(&r.headers);
            log.bytes = r.body.len() as u64;
            if r.truncated {
                log.note = Some(format!("cut at {cap} bytes"));
            }
            if r.status.is_success() {
                Fetched::Body(Arc::new(r.headers), r.body)
            } else {
                log.note = Some(status_note(r.status));
                Fetched::Status
            }
        }
        Err(e) => {
            log.note = Some(e.to_string());
            Fetched::Failed(e)
        }
    };
    site.log_document(log);
    answer
}

pub(super) fn empty_log(kind: DocumentKind, url: &Url) -> DocumentLog {
    DocumentLog {
        kind,
        url: url.to_string(),
        status: None,
        content_type: None,
        bytes: 0,
        parsed: false,
        soft_404: false,
        note: None,
    }
}

fn status_note(status: StatusCode) -> String {
    format!("HTTP {}", status.as_u16())
}

/// A 3xx answer's status and `Location`, when it has one.
pub(super) fn redirect_of(status: StatusCode, headers: &HeaderMap) -> Option<(u16, String)> {
    if !status.is_redirection() {
        return None;
    }
    let location = headers.get(LOCATION)?.to_str().ok()?;
    Some((status.as_u16(), location.to_owned()))
}
