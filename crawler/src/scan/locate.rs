//! Where the site lives: the homepage's redirects are followed while they stay on the measured
//! site, so a list of registrable domains (most of which answer with a 301 to `www.`) measures
//! each site where it serves. Only the homepage follows redirects; the session never does.

use http::header::LOCATION;
use mcpcensus_store::{DocumentKind, FailureKind, Outcome, RedirectHop};
use url::Url;

use super::answer::{log_answer, Fetched, DOCUMENT_TIMEOUT};
use super::robots::robots_before;
use super::site::SiteScan;
use super::verdict::Verdict;
use crate::discovery as d;

/// Redirects followed at most: browsers allow 20, but a site that needs more than a few to
/// reach its homepage is misconfigured, and each hop costs the site's time.
pub const MAX_REDIRECTS: usize = 5;

/// Where the homepage's redirects led: the phase's value.
pub(super) struct Located {
    /// The final URL of the homepage.
    pub home_url: Url,
    /// Its answer (logged as the homepage document).
    pub home: Fetched,
    /// The origin the scan measures: the final URL's.
    pub origin: Url,
    /// True when that origin differs from the input's (the record's `final_origin`).
    pub moved: bool,
}

/// The site redirects may move within: the input host and its subdomains and, for an input
/// `www.D`, `D` and its subdomains, on the same port. `D` must still be the registrable domain
/// or below it, so `www.co.uk` cannot widen the site to every `.co.uk`.
fn scope(origin: &Url, registrable: Option<&str>) -> Option<d::Site> {
    let host = origin.host_str()?;
    if let (Some(apex), Some(reg)) = (host.strip_prefix("www."), registrable) {
        if apex == reg || apex.ends_with(&format!(".{reg}")) {
            let mut wider = origin.clone();
            wider.set_host(Some(apex)).ok()?;
            return d::Site::from_origin(&wider);
        }
    }
    d::Site::from_origin(origin)
}

/// GETs the homepage, following redirects within the site (each hop through the site client:
/// the address guard and politeness; the opt-out list through `excluded`; and the robots.txt
/// of each origin reached, read there first). `Err` with the verdict when the redirects end
/// the site (left it, looped, went on too long, to `http://` or to an opted-out host: not
/// measured) or an origin's robots.txt got no answer (nothing answers there: unreachable).
pub(super) async fn locate(
    site: &mut SiteScan,
    cap: usize,
    excluded: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Located, Verdict> {
    let input = site.origin().clone();
    let within = scope(&input, site.registrable_domain());
    let mut url = input.clone();
    let mut seen = vec![url.clone()];
    loop {
        if let Err(e) = robots_before(site, &url).await {
            return Err(Verdict::no_answer(&e));
        }
        let kind = DocumentKind::Home;
        let result = site.get(&url, kind.as_str(), cap, DOCUMENT_TIMEOUT).await;
        let hop = match &result {
            Ok(r) if r.status.is_redirection() => r
                .headers
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(|location| (r.status.as_u16(), location.to_owned())),
            _ => None,
        };
        let Some((status, location)) = hop else {
            let home = log_answer(site, kind, &url, cap, result);
            let origin = Url::parse(&url.origin().ascii_serialization()).unwrap_or(input.clone());
            let moved = origin.origin() != input.origin();
            return Ok(Located {
                home_url: url,
                home,
                origin,
                moved,
            });
        };
        site.log_redirect(RedirectHop {
            url: url.to_string(),
            status,
            location: location.clone(),
        });
        let Ok(target) = url.join(location.trim()) else {
            return Err(Verdict::not_measured(
                FailureKind::Redirect,
                format!("redirects to an address that does not parse ({location}); not followed"),
            ));
        };
        let host = target.host_str().unwrap_or_default().to_owned();
        let redirect = |reason: String| Some((FailureKind::Redirect, reason));
        let refusal = if target.scheme() != "https" {
            redirect(format!("redirects to http:// ({target}); not followed"))
        } else if !within.as_ref().is_some_and(|s| s.contains(&target)) {
            redirect(format!(
                "redirects to another site ({target}); not followed"
            ))
        } else if seen.contains(&target) {
            redirect(format!(
                "redirects in a loop (back to {target}); not followed"
            ))
        } else if site.redirects().len() > MAX_REDIRECTS {
            redirect(format!(
                "redirects more than {MAX_REDIRECTS} times (next to {target}); not followed"
            ))
        } else if excluded(&host) {
            Some((
                FailureKind::OptedOut,
                format!("redirects to {target}, on a host the exclusion list names; not requested"),
            ))
        } else {
            None
        };
        if let Some((kind, reason)) = refusal {
            return Err(Verdict::new(Outcome::NotMeasured, kind, reason));
        }
        seen.push(target.clone());
        url = target;
    }
}
