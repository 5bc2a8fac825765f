//! Bounded metric labels from a record's failed requests: the error's class (the fetch
//! error's kind, read back from its message) and the stage the request belonged to.

use crate::net::LOCAL_RESOURCE_TAG;

/// Parts of the fetch errors' messages (`net::FetchError`) → their kind, most specific first
/// (a TLS failure's message also names the address, like a connect failure's).
const CLASSES: [(&str, &str); 15] = [
    (LOCAL_RESOURCE_TAG, "local"),
    ("cannot fetch ", "invalid_url"),
    ("site client already pins", "too_many_hosts"),
    ("is covered by the opt-out list", "opted_out"),
    ("disallowed by the site's robots.txt", "robots_disallowed"),
    ("timed out (", "timeout"),
    ("connection reset:", "reset"),
    ("HTTP protocol error:", "protocol"),
    ("TLS handshake failed:", "tls"),
    (", refused: ", "guard"),
    ("(NXDOMAIN)", "resolve"),
    ("(SERVFAIL)", "resolve"),
    ("DNS timeout", "resolve"),
    ("no A or AAAA records", "resolve"),
    ("DNS error:", "resolve"),
];

/// Every class a label can take.
pub const ALL_CLASSES: [&str; 13] = [
    "local",
    "invalid_url",
    "too_many_hosts",
    "opted_out",
    "robots_disallowed",
    "timeout",
    "reset",
    "protocol",
    "tls",
    "guard",
    "resolve",
    "connect",
    "other",
];

/// The class of a request's error message; `other` for errors that are not the fetch's
/// (an answer the session or probe could not use).
pub fn error_class(text: &str) -> &'static str {
    for (needle, class) in CLASSES {
        if text.contains(needle) {
            return class;
        }
    }
    // `host at address: connection refused` and the like.
    if [
        "connection refused",
        "unreachable",
        "reset while connecting",
        "connection failed",
    ]
    .iter()
    .any(|m| text.ends_with(m))
    {
        return "connect";
    }
    "other"
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
    use crate::net::{FetchError, ResolveError, TimeoutPhase};

    #[test]
    fn the_class_of_a_fetch_errors_message_is_its_kind() {
        let url = "https://a.example/x".to_owned();
        let errors = [
            FetchError::Timeout {
                url: url.clone(),
                phase: TimeoutPhase::Headers,
            },
            FetchError::Reset {
                url: url.clone(),
                detail: "eof".into(),
            },
            FetchError::Protocol {
                url: url.clone(),
                detail: "bad head".into(),
            },
            FetchError::Disallowed { url: url.clone() },
            FetchError::OptedOut {
                host: "a.example".into(),
                listed: "example".into(),
            },
            FetchError::InvalidUrl {
                url,
                reason: "no host",
            },
            FetchError::TooManyHosts {
                host: "a.example".into(),
                limit: 8,
            },
            FetchError::Resolve {
                host: "a.example".into(),
                error: ResolveError::NxDomain,
            },
        ];
        for e in errors {
            let kind = e.kind();
            assert_eq!(error_class(&e.to_string()), kind, "{e}");
            assert!(ALL_CLASSES.contains(&kind));
        }
        assert_eq!(error_class("the answer is not JSON"), "other");
    }

    #[test]
    fn stages_come_from_the_purpose() {
        assert_eq!(stage("probe:auth"), "probe");
        assert_eq!(stage("tools/list"), "session");
        assert_eq!(stage("initialize"), "session");
        assert_eq!(stage("server_card"), "discovery");
    }
}
