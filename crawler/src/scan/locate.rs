//! Where the site lives: the homepage's redirects are followed while they stay on the measured
//! site, so a list of registrable domains (most of which answer with a 301 to `www.`) measures
//! each site where it serves. The homepage and the plain GET of `/mcp` follow redirects within
//! the site; the session never does.

use mcpcensus_store::{DocumentKind, RedirectHop};
use url::Url;

use super::answer::{log_answer, redirect_of, Fetched, DOCUMENT_TIMEOUT};
use super::robots::robots_before;
use super::site::SiteScan;
use crate::discovery as d;
use crate::verdict::Verdict;

/// Redirects followed at most: browsers allow 20, but a site that needs more than a few to
/// reach its homepage is misconfigured, and each hop costs the site's time.
pub const MAX_REDIRECTS: usize = 5;

/// Where the homepage's redirects led: the phase's value.
pub(super) struct Located {
    /// The final URL of the homepage (the input's when its redirects ended the homepage).
    pub home_url: Url,
    /// Its answer (logged as the homepage document); `Fetched::Status` when the redirects
    /// ended the homepage.
    pub home: Fetched,
    /// The origin the documents are fetched at: the final URL's, or the input's when the
    /// redirects ended the homepage.
    pub origin: Url,
    /// True when that origin differs from the input's (the record's `final_origin`).
    pub moved: bool,
    /// The measured site: the scanned origin's site joined with `origin`'s.
    pub measured: Option<d::MeasuredSite>,
    /// Why the homepage's redirects were not followed to the end (off the site, a loop, past
    /// the limit, to `http://`, to an opted-out host): the homepage only ends there, and the
    /// documents are still asked of the scanned origin.
    pub homepage_ended: Option<String>,
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
/// of each origin reached, read there first). Redirects that leave the site, loop, go on too
/// long, go to `http://` or to an opted-out host end the homepage only: the documents are then
/// fetched at the scanned origin (`Located::homepage_ended` says why). `Err` with the verdict
/// when an origin's robots.txt got no answer (nothing answers there: unreachable).
pub(super) async fn locate(
    site: &mut SiteScan,
    cap: usize,
    excluded: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Located, Verdict> {
    let input = site.origin().clone();
    let within = scope(&input, site.registrable_domain());
    let in_scope = |url: &Url| within.as_ref().is_some_and(|s| s.contains(url));
    let mut url = input.clone();
    let mut seen = vec![url.clone()];
    loop {
        if let Err(e) = robots_before(site, &url).await {
            return Err(Verdict::no_answer(&e));
        }
        let kind = DocumentKind::Home;
        let result = site.get(&url, kind.as_str(), cap, DOCUMENT_TIMEOUT).await;
        let hop = match &result {
            Ok(r) => redirect_of(r.status, &r.headers),
            Err(_) => None,
        };
        let Some((status, location)) = hop else {
            let home = log_answer(site, kind, &url, cap, result);
            let origin = Url::parse(&url.origin().ascii_serialization()).unwrap_or(input.clone());
            let moved = origin.origin() != input.origin();
            return Ok(Located {
                measured: d::MeasuredSite::new(&input, &origin),
                home_url: url,
                home,
                origin,
                moved,
                homepage_ended: None,
            });
        };
        site.log_redirect(RedirectHop {
            url: url.to_string(),
            status,
            location: location.clone(),
        });
        let hops = site.redirects().len();
        match next_hop(&url, &location, &in_scope, &seen, hops, excluded) {
            Ok(target) => {
                seen.push(target.clone());
                url = target;
            }
            Err(reason) => {
                return Ok(Located {
                    measured: d::MeasuredSite::new(&input, &input),
                    home_url: input.clone(),
                    home: Fetched::Status,
                    origin: input,
                    moved: false,
                    homepage_ended: Some(reason),
                })
            }
        }
    }
}

/// Where a redirect from `from` to `location` may be followed, the `hops`-th of this chain
/// (`seen` the URLs already asked): `Err` with the reason in words when it is not followed (an address that does not parse, `http://`, off the site as `in_scope` says, a
/// loop, past [`MAX_REDIRECTS`], a host the opt-out list names).
pub(super) fn next_hop(
    from: &Url,
    location: &str,
    in_scope: &dyn Fn(&Url) -> bool,
    seen: &[Url],
    hops: usize,
    excluded: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Url, String> {
    let redirect = Err;
    let Ok(target) = from.join(location.trim()) else {
        return redirect(format!(
            "redirects to an address that does not parse ({location}); not followed"
        ));
    };
    let host = target.host_str().unwrap_or_default().to_owned();
    if target.scheme() != "https" {
        redirect(format!("redirects to http:// ({target}); not followed"))
    } else if !in_scope(&target) {
        redirect(format!(
            "redirects to another site ({target}); not followed"
        ))
    } else if seen.contains(&target) {
        redirect(format!(
            "redirects in a loop (back to {target}); not followed"
        ))
    } else if hops > MAX_REDIRECTS {
        redirect(format!(
            "redirects more than {MAX_REDIRECTS} times (next to {target}); not followed"
        ))
    } else if excluded(&host) {
        Err(format!(
            "redirects to {target}, on a host the exclusion list names; not requested"
        ))
    } else {
        Ok(target)
    }
}
