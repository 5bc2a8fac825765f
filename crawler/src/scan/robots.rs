//! The site's robots.txt: read once per origin (RFC 9309 §2.3: rules apply to the origin that
//! serves them), before any other GET there, and handed to the site's client, which then
//! refuses every GET it disallows (the discovery documents, the endpoint card, the deep
//! probe's). The homepage's redirects within the site read the robots.txt of each origin they
//! reach, so the final origin's governs discovery and `/mcp`; what it said goes into the record
//! (its `url` names the origin).

use mcpcensus_store::RobotsInfo;
use url::Url;

use super::answer::redirect_of;
use super::site::{RobotsBody, SiteScan};
use crate::discovery::media_type;
use crate::net::{origin_key, CachedRobots, FetchError, RobotsRules};

/// RFC 9309 §2.5: crawlers must read at least the first 500 KiB.
pub const ROBOTS_CAP: usize = 512 * 1024;
/// robots.txt gets as long as any discovery document: as the site's first request it also
/// carries the connection's TCP and TLS set-up.
pub const ROBOTS_TIMEOUT: std::time::Duration = super::answer::DOCUMENT_TIMEOUT;

/// Before a GET of `url`: fetches its origin's `/robots.txt` unless read already in this scan
/// (or robots.txt is ignored), and sets its rules on the site's client. Returns the failure
/// when nothing answers (the site is unreachable: the documents would only wait out the same).
pub async fn robots_before(site: &mut SiteScan, url: &Url) -> Result<(), FetchError> {
    if !site.robots_to_read(&origin_key(url)) {
        // Read already, perhaps as a hop of another origin's chain: what it said is the
        // record's again (this origin is the one discovery goes on at).
        if let Ok(robots) = url.join("/robots.txt") {
            site.robots_back_to(robots.as_str());
        }
        return Ok(());
    }
    read_robots(site, url, true).await
}

/// The same before a document GET at another origin than the one discovery runs at (a card a
/// catalog lists on a subdomain, the endpoint's card): its rules apply there, and the record's
/// robots section stays the measured origin's (this read is in `requests`).
pub async fn robots_before_document(site: &mut SiteScan, url: &Url) {
    if site.robots_to_read(&origin_key(url)) {
        // A failure here is the document's own: its GET meets it. Boxed: rare (another
        // origin's document), and inline it would set the size of every document fetch.
        let _ = Box::pin(read_robots(site, url, false)).await;
    }
}

/// Redirects of a robots.txt followed (RFC 9309 §2.3.1.2: "at least five consecutive
/// redirects, even across authorities"); past them it is unavailable.
const ROBOTS_REDIRECTS: usize = 5;

/// Fetches `/robots.txt` at `at`'s origin, following its redirects, and sets its rules on the
/// site's client for that origin; with `record`, the record's robots section becomes this one
/// (the last origin of the homepage's chain is the one discovery runs at).
///
/// Each robots.txt URL is asked once a scan: a chain that passes through another origin's
/// `/robots.txt` reads that origin's rules too (the chain from there is the same one), and a
/// chain that comes back to a URL it asked is a loop, so unavailable (apex and www redirecting
/// to each other cost two requests, not one chain of six for each origin).
async fn read_robots(site: &mut SiteScan, at: &Url, record: bool) -> Result<(), FetchError> {
    let Ok(url) = at.join("/robots.txt") else {
        return Ok(());
    };
    let use_cache = !site.keeps_robots_body();
    if use_cache {
        if let Some(kept) = site.client().robots_cache().get(&origin_key(&url)) {
            // Read for another site of this run: no request (and none in `requests`).
            let info = RobotsInfo {
                url: url.to_string(),
                status: Some(kept.status),
                verdict: kept.verdict.into(),
                crawl_delay_ms: crawl_delay_ms(&kept.rules),
                skipped: Vec::new(),
            };
            site.set_robots(&url, kept.rules, record.then_some(info));
            return Ok(());
        }
    }
    let mut asked = url.clone();
    let mut chain = vec![url.clone()];
    let mut result = site.get(&asked, "robots", ROBOTS_CAP, ROBOTS_TIMEOUT).await;
    for _ in 0..ROBOTS_REDIRECTS {
        let next = match &result {
            Ok(r) => redirect_of(r.status, &r.headers).and_then(|(_, to)| asked.join(&to).ok()),
            Err(_) => None,
        };
        // Followed on the site only (its registrable domain, same port, https): nothing
        // beyond the site is requested, robots.txt included; and never to a URL asked already.
        let Some(next) = next.filter(|n| on_the_site(site, &asked, n) && !chain.contains(n)) else {
            break;
        };
        asked = next;
        if asked.path() == "/robots.txt" && asked.query().is_none() {
            chain.push(asked.clone());
        }
        result = site.get(&asked, "robots", ROBOTS_CAP, ROBOTS_TIMEOUT).await;
    }
    let mut info = RobotsInfo {
        url: url.to_string(),
        ..RobotsInfo::default()
    };
    let rules = match &result {
        Ok(r) if r.status.is_success() => {
            info.verdict = "rules".into();
            RobotsRules::parse(&r.body)
        }
        // RFC 9309 §2.3.1.3: "unreachable" (a 5xx, or no answer because of a server or network
        // error: a timeout, a reset, broken HTTP) means complete disallow.
        Ok(r) if r.status.is_server_error() => {
            info.verdict = "disallow_all".into();
            RobotsRules::disallow_all()
        }
        Err(
            FetchError::Timeout { .. } | FetchError::Reset { .. } | FetchError::Protocol { .. },
        ) => {
            info.verdict = "disallow_all".into();
            RobotsRules::disallow_all()
        }
        // §2.3.1.2 and §2.3.1.4: a 4xx, or redirects past the five followed ("unavailable"):
        // everything is allowed. So is no request at all (the guard, an opted-out host), where
        // nothing will be fetched either.
        _ => {
            info.verdict = "allow_all".into();
            RobotsRules::allow_all()
        }
    };
    if record {
        // The readiness level reads the body again; a later origin's answer replaces an
        // earlier one's, as the record's robots section does.
        let body = result.as_ref().ok().filter(|r| r.status.is_success());
        site.set_robots_body(body.map(|r| RobotsBody {
            content_type: media_type(&r.headers),
            body: r.body.clone(),
        }));
    }
    info.status = result.as_ref().ok().map(|r| r.status.as_u16());
    info.crawl_delay_ms = crawl_delay_ms(&rules);
    let rules = std::sync::Arc::new(rules);
    // A definite answer of the origin's own robots.txt (no redirect) serves the run's other
    // sites that reach this origin.
    if let (true, 1, Ok(r)) = (use_cache, chain.len(), &result) {
        let status = r.status.as_u16();
        let verdict = match status {
            200..=299 => Some("rules"),
            400..=499 => Some("allow_all"),
            _ => None,
        };
        if let (Some(verdict), true) = (verdict, asked == url) {
            let kept = CachedRobots::new(rules.clone(), status, verdict);
            site.client().robots_cache().put(origin_key(&url), kept);
        }
    }
    // The other origins whose robots.txt the chain passed through get the same answer.
    for hop in chain.iter().skip(1) {
        let origin = origin_key(hop);
        if origin != origin_key(&url) {
            let said = RobotsInfo {
                url: hop.to_string(),
                ..info.clone()
            };
            site.robots_read_as(&origin, hop, rules.clone(), said);
        }
    }
    site.set_robots(&url, rules, record.then_some(info));
    match result {
        Err(
            e @ (FetchError::Connect { .. }
            | FetchError::Tls { .. }
            | FetchError::Guard { .. }
            | FetchError::Resolve { .. }),
        ) => Err(e),
        _ => Ok(()),
    }
}

fn crawl_delay_ms(rules: &RobotsRules) -> Option<u32> {
    rules
        .crawl_delay()
        .map(|d| u32::try_from(d.as_millis()).unwrap_or(u32::MAX))
}

/// Whether a robots.txt redirect from `from` to `next` stays on the scanned site: https, the
/// same port, a host at or under the input's registrable domain.
fn on_the_site(site: &SiteScan, from: &Url, next: &Url) -> bool {
    let Some(domain) = site.registrable_domain() else {
        return false;
    };
    let host = next.host_str().unwrap_or_default().trim_end_matches('.');
    next.scheme() == "https"
        && next.port_or_known_default() == from.port_or_known_default()
        && (host == domain || host.ends_with(&format!(".{domain}")))
}

/// The robots.txt of the measured origin got no answer (RFC 9309: "unreachable", so complete
/// disallow): the failure's kind and words, when so.
pub fn unreachable(site: &SiteScan) -> Option<(mcpcensus_store::FailureKind, String)> {
    let robots = site.robots()?;
    if robots.status.is_some() || robots.verdict != "disallow_all" {
        return None;
    }
    let asked = site
        .requests()
        .iter()
        .rev()
        .find(|q| q.purpose == "robots" && q.url == robots.url)?;
    Some((asked.error_kind?, asked.error.clone().unwrap_or_default()))
}

/// True when robots.txt disallowed every document the survey tried to fetch.
pub fn all_disallowed(site: &SiteScan) -> bool {
    let skipped = site.robots().map_or(0, |r| r.skipped.len());
    skipped > 0 && skipped >= site.documents().len()
}
