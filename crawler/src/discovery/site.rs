//! The measured site (the survey): "the scanned origin, or the site's host and its subdomains on
//! the same port". A parent domain is not on the site: scanning `api.example.com` does not
//! make `example.com` part of it.
//!
//! When the homepage redirects within the site to another origin (`D` to `www.D`), the measured
//! site is the scanned origin's site **joined with** the final origin's ([`MeasuredSite`]): a
//! card at `www.D` naming `https://mcp.D/mcp` names a server on the site that was scanned.

use url::{Host, Url};

/// Where a URL sits relative to the measured site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The site's own host and port.
    Origin,
    /// A subdomain of the site's host, on the site's port.
    Subdomain,
    /// Anything else: another host, a parent domain, another port, another scheme.
    Elsewhere,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Lower-case host without a trailing dot (an IP address as the URL writes it).
    host: String,
    port: u16,
    /// Only a domain has subdomains.
    is_domain: bool,
}

impl Site {
    /// The site scanned at `origin` (`https://host[:port]`); `None` without a host or port.
    pub fn from_origin(origin: &Url) -> Option<Site> {
        let host = origin.host()?;
        Some(Site {
            is_domain: matches!(host, Host::Domain(_)),
            host: normalized_host(&host),
            port: origin.port_or_known_default()?,
        })
    }

    pub fn host(&self) -> &str {
        &self.host
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Placement by host and port; the caller judges the scheme (an `http://` URL on the
    /// site's host and port is still `Origin` here).
    pub fn place(&self, url: &Url) -> Placement {
        let (Some(host), Some(port)) = (url.host(), url.port_or_known_default()) else {
            return Placement::Elsewhere;
        };
        if port != self.port {
            return Placement::Elsewhere;
        }
        let host = normalized_host(&host);
        if host == self.host {
            Placement::Origin
        } else if self.is_domain
            && host
                .strip_suffix(self.host.as_str())
                .is_some_and(|label| label.len() > 1 && label.ends_with('.'))
        {
            Placement::Subdomain
        } else {
            Placement::Elsewhere
        }
    }

    /// On the site: the origin or a subdomain on the same port, over https.
    pub fn contains(&self, url: &Url) -> bool {
        url.scheme() == "https" && self.place(url) != Placement::Elsewhere
    }
}

/// Which side of a [`MeasuredSite`] an URL is on (the record's derived `endpoint_site`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteSide {
    /// The scanned origin's site (whether or not the homepage redirected).
    Scanned,
    /// Only the final origin's site, after the homepage's in-site redirects.
    Final,
}

/// Placement of a URL, by a site or a joined site.
pub trait Place {
    fn place(&self, url: &Url) -> Placement;
}

impl Place for Site {
    fn place(&self, url: &Url) -> Placement {
        Site::place(self, url)
    }
}

/// The measured site: the scanned origin's site joined with the final origin's site after the
/// homepage's in-site redirects (the same site when the homepage did not move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeasuredSite {
    scanned: Site,
    landed: Option<Site>,
}

impl MeasuredSite {
    /// The site of the scanned origin joined with the final origin's; `None` without a host.
    pub fn new(scanned: &Url, landed: &Url) -> Option<MeasuredSite> {
        let scanned = Site::from_origin(scanned)?;
        let landed = Site::from_origin(landed).filter(|l| *l != scanned);
        Some(MeasuredSite { scanned, landed })
    }

    /// The side that holds `url`, the scanned origin's first; `None` when neither does.
    pub fn side(&self, url: &Url) -> Option<SiteSide> {
        if self.scanned.place(url) != Placement::Elsewhere {
            Some(SiteSide::Scanned)
        } else if self
            .landed
            .as_ref()
            .is_some_and(|l| l.place(url) != Placement::Elsewhere)
        {
            Some(SiteSide::Final)
        } else {
            None
        }
    }

    /// On the site: either side, over https.
    pub fn contains(&self, url: &Url) -> bool {
        url.scheme() == "https" && self.place(url) != Placement::Elsewhere
    }
}

impl Place for MeasuredSite {
    /// The nearer placement of the two sides: an URL at either origin is at the origin.
    fn place(&self, url: &Url) -> Placement {
        let scanned = self.scanned.place(url);
        let landed = self
            .landed
            .as_ref()
            .map_or(Placement::Elsewhere, |l| l.place(url));
        match (scanned, landed) {
            (Placement::Origin, _) | (_, Placement::Origin) => Placement::Origin,
            (Placement::Subdomain, _) | (_, Placement::Subdomain) => Placement::Subdomain,
            _ => Placement::Elsewhere,
        }
    }
}

/// The url crate lower-cases and punycodes domains already; a trailing dot names the same host.
fn normalized_host(host: &Host<&str>) -> String {
    match host {
        Host::Domain(domain) => domain.trim_end_matches('.').to_owned(),
        other => other.to_string(),
    }
}
