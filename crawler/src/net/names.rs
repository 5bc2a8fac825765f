//! One name per host and per origin for every decision keyed by them (opt-out, pins,
//! politeness, pauses, robots.txt): `Victim.Example.` is `victim.example`, so a URL a server
//! chose with a trailing dot or another case meets the same rules as the site's own.

use std::borrow::Cow;

/// The host as every decision names it: lower case, no trailing dot.
pub fn host_key(host: &str) -> Cow<'_, str> {
    let trimmed = host.strip_suffix('.').unwrap_or(host);
    if trimmed.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(trimmed.to_ascii_lowercase())
    } else {
        Cow::Borrowed(trimmed)
    }
}

/// The origin as every decision names it (`https://host[:port]`, the default port left out),
/// its host by [`host_key`]. Written in one allocation: it is asked for on every request (the
/// robots.txt rules in force are looked up by it).
pub fn origin_key(url: &url::Url) -> String {
    let (Some(host), "http" | "https" | "ws" | "wss" | "ftp") = (url.host(), url.scheme()) else {
        // Not a tuple origin (RFC 6454 §4): url names it `null`.
        return url.origin().ascii_serialization();
    };
    let mut key = String::with_capacity(url.scheme().len() + 3 + 64);
    key.push_str(url.scheme());
    key.push_str("://");
    match host {
        url::Host::Domain(d) => key.push_str(&host_key(d)),
        // The URL's own serialization: IPv6 in brackets, compressed, as `Origin` writes it.
        url::Host::Ipv4(_) | url::Host::Ipv6(_) => key.push_str(url.host_str().unwrap_or_default()),
    }
    // `port()` is `None` for the scheme's default port (the parser drops it).
    if let Some(port) = url.port() {
        use std::fmt::Write;
        let _ = write!(key, ":{port}");
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_dot_and_case_name_the_same_host_and_origin() {
        assert_eq!(host_key("Victim.Example."), "victim.example");
        assert_eq!(host_key("victim.example"), "victim.example");
        let key = |u: &str| origin_key(&url::Url::parse(u).unwrap());
        assert_eq!(key("https://victim.example./x"), "https://victim.example");
        assert_eq!(
            key("https://VICTIM.example:8443/"),
            "https://victim.example:8443"
        );
        assert_eq!(
            key("https://victim.example:443/a"),
            "https://victim.example"
        );
        assert_eq!(key("https://[::1]:8443/"), "https://[::1]:8443");
        assert_eq!(key("http://127.0.0.1:80/x?q"), "http://127.0.0.1");
        assert_eq!(
            key("http://Victim.Example:8080"),
            "http://victim.example:8080"
        );
        assert_eq!(
            key("https://user:pw@victim.example/"),
            "https://victim.example"
        );
        assert_eq!(key("data:text/plain,x"), "null");
    }

    #[test]
    fn the_origin_key_is_the_origin_serialized_for_lower_case_names() {
        for u in [
            "https://victim.example/a",
            "http://victim.example:8443/",
            "https://[2001:db8::1]/",
            "https://10.0.0.1:1/",
            "ws://victim.example:80/",
            "file:///etc/passwd",
        ] {
            let url = url::Url::parse(u).unwrap();
            assert_eq!(origin_key(&url), url.origin().ascii_serialization(), "{u}");
        }
    }
}

/// A host as connections are kept: name (or address), port, TLS. The name is shared: a
/// site's requests take it from the pool's keys rather than copying it each time.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ConnKey {
    pub(crate) host: std::sync::Arc<str>,
    pub(crate) port: u16,
    pub(crate) tls: bool,
}

impl ConnKey {
    pub(crate) fn new(host: &str, port: u16, tls: bool) -> Self {
        Self {
            host: host.into(),
            port,
            tls,
        }
    }

    /// True when this key names `host`, `port`, `tls`.
    pub(crate) fn is(&self, host: &str, port: u16, tls: bool) -> bool {
        self.port == port && self.tls == tls && *self.host == *host
    }
}
