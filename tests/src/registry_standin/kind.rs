//! What an endpoint of the stand-in does, and the class the probers give it.

/// The probers' classes, best first (an entry takes the best of its remotes, a URL the best
/// of the entries naming it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Live,
    AuthGated,
    HttpNotMcp,
    Dead,
    NoVerdict,
    Template,
    NotProbeable,
}

impl Class {
    pub const ALL: [Class; 7] = [
        Class::Live,
        Class::AuthGated,
        Class::HttpNotMcp,
        Class::Dead,
        Class::NoVerdict,
        Class::Template,
        Class::NotProbeable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Class::Live => "live",
            Class::AuthGated => "auth_gated",
            Class::HttpNotMcp => "http_not_mcp",
            Class::Dead => "dead",
            Class::NoVerdict => "no_verdict",
            Class::Template => "template",
            Class::NotProbeable => "not_probeable",
        }
    }
}

/// How an endpoint answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A 2025-era server listing its tools.
    Live,
    /// A 2026-07-28-only server (`server/discover`; `initialize` refused).
    Modern,
    /// The legacy HTTP+SSE transport only (`type: sse`).
    Sse,
    /// Refuses `notifications/initialized` with 400, then lists its tools anyway.
    Initialized400,
    /// 401 with a bearer challenge.
    Unauthorized,
    /// 403.
    Forbidden,
    /// A 302 to an HTML sign-in page.
    SigninRedirect,
    /// 200 HTML: a web page, not MCP.
    Html,
    /// The host is not in DNS.
    NoDns,
    /// 429 to every request, at every look, without Retry-After (a crawler pauses the host
    /// for as long as it likes).
    TooMany,
    /// 503 with `Retry-After: 0` to every request, at every look.
    Unavailable,
    /// 503 with `Retry-After: 0` at the first look, a live server at the second.
    Recovers,
    /// Unexpanded `{...}` placeholders: never to be requested.
    Template,
}

impl Kind {
    pub const ALL: [Kind; 13] = [
        Kind::Live,
        Kind::Modern,
        Kind::Sse,
        Kind::Initialized400,
        Kind::Unauthorized,
        Kind::Forbidden,
        Kind::SigninRedirect,
        Kind::Html,
        Kind::NoDns,
        Kind::TooMany,
        Kind::Unavailable,
        Kind::Recovers,
        Kind::Template,
    ];

    /// The class the probers give the endpoint.
    pub fn class(self) -> Class {
        match self {
            Kind::Live | Kind::Modern | Kind::Sse | Kind::Initialized400 | Kind::Recovers => {
                Class::Live
            }
            Kind::Unauthorized | Kind::Forbidden => Class::AuthGated,
            Kind::SigninRedirect | Kind::Html => Class::HttpNotMcp,
            Kind::NoDns | Kind::Unavailable => Class::Dead,
            Kind::TooMany => Class::NoVerdict,
            Kind::Template => Class::Template,
        }
    }

    /// Looks the endpoint gets: a 429 or 503 is "not now", looked at again; a host that is
    /// not in DNS and a template are never requested.
    pub fn looks(self) -> u64 {
        match self {
            Kind::TooMany | Kind::Unavailable | Kind::Recovers => 2,
            Kind::NoDns | Kind::Template => 0,
            _ => 1,
        }
    }

    /// Its answers ask for a pause of unsaid length: the pauses inside a look may be as long
    /// as the one between the looks.
    pub fn asks_to_slow_down(self) -> bool {
        self == Kind::TooMany
    }

    /// The remote's `type` in the registry.
    pub fn transport(self) -> &'static str {
        match self {
            Kind::Sse => "sse",
            _ => "streamable-http",
        }
    }

    /// A short name for hosts and entry names.
    pub fn slug(self) -> &'static str {
        match self {
            Kind::Live => "live",
            Kind::Modern => "modern",
            Kind::Sse => "sse",
            Kind::Initialized400 => "init400",
            Kind::Unauthorized => "unauthorized",
            Kind::Forbidden => "forbidden",
            Kind::SigninRedirect => "signin",
            Kind::Html => "html",
            Kind::NoDns => "gone",
            Kind::TooMany => "toomany",
            Kind::Unavailable => "unavailable",
            Kind::Recovers => "recovers",
            Kind::Template => "tpl",
        }
    }
}
