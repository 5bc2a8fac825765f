//! The survey's endpoint choice: the first candidate, in the survey's order, that the scan may
//! open on the measured site.

use mcpcensus_store::DiscoveredVia;
use url::Url;

use super::card::{ParsedCard, RemoteTransport};
use super::links::{FoundLink, LinkKind};
use super::paths::MCP_PATH;
use super::site::{Place, Placement};

/// One endpoint URL a document named, with what the scan knows about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// As the document wrote it.
    pub raw: String,
    /// The URL of the document that named it; relative URLs resolve against it.
    pub base: Url,
    pub via: DiscoveredVia,
    pub transport: RemoteTransport,
}

impl Candidate {
    /// The endpoint URLs of a card fetched from `card_url` (or given inline in a catalog at
    /// `card_url`), in document order.
    pub fn from_card(card: &ParsedCard, card_url: &Url, via: DiscoveredVia) -> Vec<Candidate> {
        card.remote_refs()
            .into_iter()
            .map(|remote| Candidate {
                raw: remote.url,
                base: card_url.clone(),
                via,
                transport: remote.transport,
            })
            .collect()
    }

    /// The homepage links whose relation is `mcp` or `mcp-server`.
    pub fn from_links(links: &[FoundLink]) -> Vec<Candidate> {
        links
            .iter()
            .filter(|link| link.kind == LinkKind::Mcp)
            .map(|link| Candidate {
                raw: link.href.clone(),
                base: link.base.clone(),
                via: link.via(),
                transport: RemoteTransport::Implied,
            })
            .collect()
    }

    /// `/mcp` on the origin; add it only when its GET signalled MCP.
    pub fn mcp_path(origin: &Url) -> Candidate {
        Candidate {
            raw: MCP_PATH.to_owned(),
            base: origin.clone(),
            via: DiscoveredVia::McpPath,
            transport: RemoteTransport::Implied,
        }
    }
}

/// Why a candidate was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RejectReason {
    /// Does not parse, even against the document's URL.
    Unparseable,
    /// Holds a `{variable}` the scan has no value for.
    Templated,
    /// Neither `https://` nor `http://`.
    NotHttp,
    /// Carries a user name or password.
    Credentials,
    /// `http://` on an https site.
    PlainHttp,
    /// Another host, a parent domain, or another port.
    OtherSite,
    /// An `sse` remote (the legacy transport is not opened).
    Sse,
    /// A `remotes[]` entry without `type`.
    NoTransport,
    UnrecognisedTransport(String),
}

impl RejectReason {
    pub fn as_str(&self) -> &'static str {
        match self {
            RejectReason::Unparseable => "unparseable",
            RejectReason::Templated => "templated",
            RejectReason::NotHttp => "not_http",
            RejectReason::Credentials => "credentials",
            RejectReason::PlainHttp => "plain_http",
            RejectReason::OtherSite => "other_site",
            RejectReason::Sse => "sse_remote",
            RejectReason::NoTransport => "no_transport",
            RejectReason::UnrecognisedTransport(_) => "unrecognised_transport",
        }
    }

    /// For `check --explain` and the record, in a site owner's words.
    pub fn describe(&self) -> String {
        match self {
            RejectReason::Unparseable => "not a valid URL".to_owned(),
            RejectReason::Templated => "a templated URL with {variables}".to_owned(),
            RejectReason::NotHttp => "not an https URL".to_owned(),
            RejectReason::Credentials => "carries a user name or password; not opened".to_owned(),
            RejectReason::PlainHttp => "plain HTTP on an HTTPS site; not opened".to_owned(),
            RejectReason::OtherSite => "on another site; not opened".to_owned(),
            RejectReason::Sse => "an sse remote; not opened".to_owned(),
            RejectReason::NoTransport => "a remote with no transport type".to_owned(),
            RejectReason::UnrecognisedTransport(kind) => {
                format!("an unrecognised transport {kind:?}")
            }
        }
    }
}

/// The endpoint a scan opens, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointChoice {
    pub endpoint: Option<Url>,
    pub via: Option<DiscoveredVia>,
    /// The endpoint is on a subdomain the removal list names: it is not requested and the
    /// check is not measured.
    pub excluded_subdomain: bool,
    /// The candidates passed over before the choice, with the reason.
    pub rejected: Vec<(String, RejectReason)>,
}

/// The survey's order; card paths come before the catalog and the catalog before links.
fn rank(via: DiscoveredVia) -> u8 {
    match via {
        DiscoveredVia::ServerCard => 0,
        DiscoveredVia::LegacyCard => 1,
        DiscoveredVia::AiCatalog => 2,
        DiscoveredVia::LinkHeader => 3,
        DiscoveredVia::LinkHtml => 4,
        DiscoveredVia::McpPath => 5,
    }
}

/// Takes the first candidate on the measured site, in the survey's order (candidates are
/// sorted by source, keeping document order within one; the caller may pass them in any
/// order). `is_excluded` is the removal list, asked only for subdomains: the site itself was
/// checked before the scan began.
///
/// An endpoint on an excluded subdomain ends the search. The survey lists "the endpoint is on
/// a subdomain the removal list names" among the not-measured outcomes, so it is the endpoint
/// the scan took, not one skipped for a later candidate; the caller does not request it.
///
/// Relative URLs resolve against the document that named them: a card the site serves can
/// name `/mcp`, and a client resolves it the same way. Checks run in a fixed order, so a URL
/// with several faults gets the first: unparseable, templated, not http(s), credentials,
/// plain http (before the site check, which would otherwise see port 80 as another site),
/// other site, transport.
pub fn select_endpoint(
    site: &impl Place,
    candidates: impl IntoIterator<Item = Candidate>,
    is_excluded: impl Fn(&str) -> bool,
) -> EndpointChoice {
    let mut candidates: Vec<Candidate> = candidates.into_iter().collect();
    candidates.sort_by_key(|candidate| rank(candidate.via));
    let mut rejected = Vec::new();
    for candidate in candidates {
        match judge(site, &candidate) {
            Ok((url, placement)) => {
                let excluded_subdomain = placement == Placement::Subdomain
                    && url
                        .host_str()
                        .is_some_and(|host| is_excluded(host.trim_end_matches('.')));
                return EndpointChoice {
                    endpoint: Some(url),
                    via: Some(candidate.via),
                    excluded_subdomain,
                    rejected,
                };
            }
            Err(reason) => rejected.push((candidate.raw, reason)),
        }
    }
    EndpointChoice {
        endpoint: None,
        via: None,
        excluded_subdomain: false,
        rejected,
    }
}

fn judge(site: &impl Place, candidate: &Candidate) -> Result<(Url, Placement), RejectReason> {
    if is_templated(&candidate.raw) {
        return Err(RejectReason::Templated);
    }
    let url = candidate
        .base
        .join(candidate.raw.trim())
        .map_err(|_| RejectReason::Unparseable)?;
    if !matches!(url.scheme(), "https" | "http") {
        return Err(RejectReason::NotHttp);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(RejectReason::Credentials);
    }
    if url.scheme() == "http" {
        return Err(RejectReason::PlainHttp);
    }
    let placement = site.place(&url);
    if placement == Placement::Elsewhere {
        return Err(RejectReason::OtherSite);
    }
    match &candidate.transport {
        RemoteTransport::StreamableHttp | RemoteTransport::Implied => Ok((url, placement)),
        RemoteTransport::Sse => Err(RejectReason::Sse),
        RemoteTransport::Missing => Err(RejectReason::NoTransport),
        RemoteTransport::Other(kind) => Err(RejectReason::UnrecognisedTransport(kind.clone())),
    }
}

/// `{name}` as the card schema writes variables (checked on the raw text: the url crate would
/// percent-encode the braces in a path).
fn is_templated(raw: &str) -> bool {
    raw.find('{').is_some_and(|open| raw[open..].contains('}'))
}
