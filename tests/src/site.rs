//! A virtual site: a hostname, where it lives, how it serves, and what it answers per path.

use std::net::Ipv4Addr;
use std::sync::Arc;

use crate::h2fault::H2Fault;
use crate::raw::RawHttp;
use crate::reply::Reply;
use crate::Error;

/// Which certificate a TLS site presents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CertMode {
    /// Signed by the test CA for the site's name.
    #[default]
    Valid,
    /// Signed by the test CA for the site's name, but expired in 2002.
    Expired,
    /// Signed by the test CA for another name.
    WrongHost,
    /// Self-signed for the site's name.
    SelfSigned,
    /// No certificate at all: the handshake fails.
    Missing,
}

/// How a TLS site breaks its handshake, once the client's ClientHello has arrived (the TCP
/// connection was accepted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TlsFault {
    /// No fault: the handshake goes on.
    #[default]
    None,
    /// The connection is reset (RST: the socket closed with a zero linger).
    Reset,
    /// The connection is closed (FIN) without a ServerHello.
    Close,
    /// A server that speaks only TLS 1.0: it answers the ClientHello with a TLS 1.0
    /// ServerHello (TLS_RSA_WITH_AES_128_CBC_SHA), as such a server's first flight starts.
    Tls10Only,
}

/// Which schemes a site answers on the shared port (TLS and plain HTTP are told apart by the
/// first byte the client sends).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scheme {
    /// `https://` only; plain HTTP gets nginx's 400 "plain HTTP request was sent to HTTPS port".
    #[default]
    Https,
    /// `http://` only; a TLS client gets the fallback certificate (for `localhost`), which fails.
    Http,
    /// Both.
    Both,
}

#[derive(Clone, Debug)]
enum PathPattern {
    Exact(String),
    Prefix(String),
}

impl PathPattern {
    fn parse(pattern: &str) -> Self {
        match pattern.strip_suffix('*') {
            Some(prefix) => Self::Prefix(prefix.to_string()),
            None => Self::Exact(pattern.to_string()),
        }
    }

    fn matches(&self, path: &str, path_and_query: &str) -> bool {
        match self {
            Self::Exact(p) if p.contains('?') => p == path_and_query,
            Self::Exact(p) => p == path,
            Self::Prefix(p) if p.contains('?') => path_and_query.starts_with(p.as_str()),
            Self::Prefix(p) => path.starts_with(p.as_str()),
        }
    }
}

#[derive(Clone)]
struct Route {
    method: Option<String>,
    pattern: PathPattern,
    reply: Reply,
}

/// One virtual host. Build with [`Site::new`] and the chained setters, then hand it to
/// [`crate::SimWebBuilder::site`] or [`crate::SimWeb::add_site`].
///
/// Path patterns: an exact path (`"/mcp"`), a prefix ending in `*` (`"/.well-known/*"`); a
/// pattern containing `?` is matched against path and query, otherwise the query is ignored.
/// Routes with a method are tried first, then routes for any method, each in the order added;
/// unmatched requests get the default reply (404 unless set).
#[derive(Clone)]
pub struct Site {
    name: String,
    ipv4: Ipv4Addr,
    ipv6: bool,
    /// DNS answers only the IPv6 address (the site is still served on its IPv4 one).
    ipv6_only: bool,
    in_dns: bool,
    dns_ttl: Option<u32>,
    scheme: Scheme,
    cert: CertMode,
    tls_fault: TlsFault,
    routes: Vec<Route>,
    default: Reply,
    h2_fault: Option<H2Fault>,
    raw: Option<Arc<RawHttp>>,
}

impl std::fmt::Debug for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Site")
            .field("name", &self.name)
            .field("ipv4", &self.ipv4)
            .field("ipv6", &self.ipv6)
            .field("scheme", &self.scheme)
            .field("cert", &self.cert)
            .field("tls_fault", &self.tls_fault)
            .field("routes", &self.routes.len())
            .finish_non_exhaustive()
    }
}

impl Site {
    /// A site named `name` (lowercased, trailing dot removed) on 127.0.0.1 answering 404 to
    /// everything.
    pub fn new(name: impl AsRef<str>) -> Self {
        Self {
            name: normalize_host(name.as_ref()),
            ipv4: Ipv4Addr::LOCALHOST,
            ipv6: false,
            ipv6_only: false,
            in_dns: true,
            dns_ttl: None,
            scheme: Scheme::Https,
            cert: CertMode::Valid,
            tls_fault: TlsFault::None,
            routes: Vec::new(),
            default: Reply::not_found(),
            h2_fault: None,
            raw: None,
        }
    }

    /// The loopback IPv4 address the site lives on (127.x.y.z).
    pub fn ip(mut self, ip: impl Into<Ipv4Addr>) -> Self {
        self.ipv4 = ip.into();
        self
    }

    /// Also serve the site on ::1 and answer AAAA queries with it.
    pub fn ipv6(mut self, on: bool) -> Self {
        self.ipv6 = on;
        self
    }

    /// Serve the site's HTTP/2 connections with `fault` instead of its routes (HTTP/1.1
    /// clients still get the routes).
    pub fn h2_fault(mut self, fault: H2Fault) -> Self {
        self.h2_fault = Some(fault);
        self
    }

    /// The HTTP/2 fault the site's connections show, if any.
    /// Answers every request with hand-written bytes (`raw.rs`) instead of its routes, over
    /// the TLS version `raw` names, HTTP/1.1 only.
    pub fn raw_http(mut self, raw: RawHttp) -> Self {
        self.raw = Some(Arc::new(raw));
        self
    }

    /// The site's raw behaviour, when it has one.
    pub fn raw_mode(&self) -> Option<Arc<RawHttp>> {
        self.raw.clone()
    }

    pub fn h2_fault_mode(&self) -> Option<H2Fault> {
        self.h2_fault
    }

    /// Serve the site on ::1 and answer its name with ::1 alone (AAAA only: an A query gets
    /// no address), like a site with only IPv6 addresses.
    pub fn ipv6_only(mut self) -> Self {
        self.ipv6 = true;
        self.ipv6_only = true;
        self
    }

    /// Leave the site out of DNS (it is still served to clients that connect to its IP).
    pub fn no_dns(mut self) -> Self {
        self.in_dns = false;
        self
    }

    /// TTL of this site's DNS answers, overriding the web's default.
    pub fn dns_ttl(mut self, seconds: u32) -> Self {
        self.dns_ttl = Some(seconds);
        self
    }

    /// Serve the site over plain HTTP only.
    pub fn plain_http(mut self) -> Self {
        self.scheme = Scheme::Http;
        self
    }

    /// Serve the site over both plain HTTP and TLS.
    pub fn http_and_https(mut self) -> Self {
        self.scheme = Scheme::Both;
        self
    }

    /// Which certificate the site presents.
    pub fn cert(mut self, mode: CertMode) -> Self {
        self.cert = mode;
        self
    }

    /// Break every TLS handshake after the ClientHello.
    pub fn tls_fault(mut self, fault: TlsFault) -> Self {
        self.tls_fault = fault;
        self
    }

    /// Answer `pattern` with `reply` whatever the method.
    pub fn route(mut self, pattern: &str, reply: Reply) -> Self {
        self.routes.push(Route {
            method: None,
            pattern: PathPattern::parse(pattern),
            reply,
        });
        self
    }

    /// Answer `method` requests on `pattern` with `reply`.
    pub fn route_method(mut self, method: &str, pattern: &str, reply: Reply) -> Self {
        self.routes.push(Route {
            method: Some(method.to_ascii_uppercase()),
            pattern: PathPattern::parse(pattern),
            reply,
        });
        self
    }

    /// The reply to requests no route matches.
    pub fn default(mut self, reply: Reply) -> Self {
        self.default = reply;
        self
    }

    /// The normalized hostname.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The IPv4 address it is served on.
    pub fn ipv4(&self) -> Ipv4Addr {
        self.ipv4
    }

    /// Whether it is also served on ::1.
    pub fn has_ipv6(&self) -> bool {
        self.ipv6
    }

    /// Whether DNS answers only its IPv6 address.
    pub fn is_ipv6_only(&self) -> bool {
        self.ipv6_only
    }

    /// How it breaks TLS handshakes.
    pub fn tls_fault_mode(&self) -> TlsFault {
        self.tls_fault
    }

    /// Whether DNS answers for it.
    pub fn in_dns(&self) -> bool {
        self.in_dns
    }

    /// Its own DNS TTL, if set.
    pub fn ttl(&self) -> Option<u32> {
        self.dns_ttl
    }

    /// The schemes it serves.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// Its certificate mode.
    pub fn cert_mode(&self) -> CertMode {
        self.cert
    }

    /// Whether TLS clients are served.
    pub fn serves_tls(&self) -> bool {
        self.scheme != Scheme::Http
    }

    /// Whether plain HTTP clients are served.
    pub fn serves_plain(&self) -> bool {
        self.scheme != Scheme::Https
    }

    /// The reply for a request.
    pub fn reply_for(&self, method: &str, path_and_query: &str) -> &Reply {
        let path = path_and_query
            .split_once('?')
            .map_or(path_and_query, |(p, _)| p);
        let specific = self.routes.iter().find(|r| {
            r.method.as_deref() == Some(method) && r.pattern.matches(path, path_and_query)
        });
        specific
            .or_else(|| {
                self.routes
                    .iter()
                    .find(|r| r.method.is_none() && r.pattern.matches(path, path_and_query))
            })
            .map_or(&self.default, |r| &r.reply)
    }

    /// Checks what a registry needs: a name a client could send, on a loopback address.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        let invalid = |reason| Error::InvalidSite {
            name: self.name.clone(),
            reason,
        };
        if self.name.is_empty() || self.name.len() > 253 {
            return Err(invalid("length must be 1 to 253"));
        }
        if !self
            .name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_')
        {
            return Err(invalid(
                "only ASCII letters, digits, '-', '_' and '.' (use punycode)",
            ));
        }
        if self.name.split('.').any(str::is_empty) {
            return Err(invalid("empty label"));
        }
        if !self.ipv4.is_loopback() {
            return Err(Error::NotLoopback {
                ip: self.ipv4.into(),
            });
        }
        Ok(())
    }
}

/// Lowercases a hostname and removes a trailing dot.
pub(crate) fn normalize_host(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}
