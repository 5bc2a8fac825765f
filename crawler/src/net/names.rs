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
/// its host by [`host_key`].
pub fn origin_key(url: &url::Url) -> String {
    let origin = url.origin().ascii_serialization();
    match url.host() {
        Some(url::Host::Domain(d))
            if d.ends_with('.') || d.bytes().any(|b| b.is_ascii_uppercase()) =>
        {
            origin.replacen(d, &host_key(d), 1)
        }
        _ => origin,
    }
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
    }
}

/// A host as connections are kept: name (or address), port, TLS.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ConnKey {
    pub(crate) host: String,
    pub(crate) port: u16,
    pub(crate) tls: bool,
}

impl ConnKey {
    pub(crate) fn new(host: &str, port: u16, tls: bool) -> Self {
        Self {
            host: host.to_owned(),
            port,
            tls,
        }
    }
}
