//! Bounded metric labels from a record's failed requests: the failure's typed kind (set by
//! the crawler from the typed error, never read back from its words) and the stage the request
//! belonged to.

use mcpcensus_store::{FailureKind, RequestLog};

/// The class label of a request without a kind (a record of schema 2 read back).
pub const OTHER_CLASS: &str = "other";

/// The class of a failed request: its typed kind's text form, or [`OTHER_CLASS`].
pub fn error_class(request: &RequestLog) -> &'static str {
    request.error_kind.map_or(OTHER_CLASS, FailureKind::as_str)
}

/// The stage of a request, from its purpose: `robots`, `session` (MCP methods), `probe`
/// (the deep probe's) or `discovery`.
pub fn stage(purpose: &str) -> &'static str {
    if purpose.starts_with("probe:") {
        "probe"
    } else if purpose.starts_with("robots") {
        "robots"
    } else if purpose == "initialize" || purpose.contains('/') {
        "session"
    } else {
        "discovery"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_is_the_typed_kind_whatever_the_words() {
        // A server's words that a text match once took for this machine's own failure.
        let request = RequestLog {
            error: Some("local resource: out of file descriptors (EMFILE)".into()),
            error_kind: Some(FailureKind::Answer),
            ..RequestLog::default()
        };
        assert_eq!(error_class(&request), "answer");
        let untyped = RequestLog {
            error: Some("timed out (headers)".into()),
            ..RequestLog::default()
        };
        assert_eq!(error_class(&untyped), OTHER_CLASS);
    }

    #[test]
    fn stages_come_from_the_purpose() {
        assert_eq!(stage("probe:auth"), "probe");
        assert_eq!(stage("tools/list"), "session");
        assert_eq!(stage("initialize"), "session");
        assert_eq!(stage("server_card"), "discovery");
    }
}
