//! The phase: the checks the survey's answers decide, then the readiness requests in the
//! table's order, the negative control first, each judged against it. A check whose request
//! robots.txt disallows, that gets no answer, or that the site deadline leaves no time for
//! stays `null` (not checked), with the reason in its evidence.

use std::sync::Arc;
use std::time::Duration;

use http::HeaderMap;
use mcpcensus_store::Readiness;
use tokio::time::Instant;
use url::Url;

use super::home::{from_home, from_robots};
use super::survey::from_survey;
use super::tally::{Seen, Tally};
use crate::discovery::{media_type, parse_agent_card, parse_auth_server, Discovery};
use crate::net::{FetchError, FetchResponse};
use crate::readiness::{
    control_path, read_llms, read_markdown_answer, read_sitemap, read_skills_index,
    same_as_control, Control, Fetch, FetchRow, TextShape, READINESS_CAP, READINESS_FETCHES,
};
use crate::scan::answer::DOCUMENT_TIMEOUT;
use crate::scan::endpoint_card::DEADLINE_MARGIN;
use crate::scan::phases::{ms, Context, Phases};
use crate::scan::site::SiteScan;

/// The survey's 2xx homepage, kept for the readiness level.
pub(in crate::scan) struct Home {
    pub url: Url,
    pub status: u16,
    pub content_type: Option<String>,
    pub headers: Arc<HeaderMap>,
    pub body: bytes::Bytes,
}

/// A readiness request is not started with less than this left before the site deadline (its
/// margin included): it would only time out.
const MIN_TIME: Duration = Duration::from_secs(1);

impl Context<'_> {
    /// The readiness level's checks, when asked for, into `out`: after the survey's phases
    /// however they ended, once the documents were fetched (a site robots.txt closed, that did
    /// not answer or was held has none).
    pub(in crate::scan) async fn readiness(&self, site: &mut SiteScan, out: &mut Phases) {
        if !self.settings.readiness {
            return;
        }
        let (Some(found), Some(origin)) = (&out.discovery, &out.origin) else {
            return;
        };
        let started = Instant::now();
        let checks = run_readiness(site, origin, out.home.as_deref(), found);
        // Boxed: the requests' state is only the readiness level's.
        out.readiness = Some(Box::new(Box::pin(checks).await));
        tracing::debug!(took_ms = ms(started.elapsed()), "readiness phase");
    }
}

/// The readiness checks of the measured `origin`, after the survey's phases found `found`.
async fn run_readiness(
    site: &mut SiteScan,
    origin: &Url,
    home: Option<&Home>,
    found: &Discovery,
) -> Readiness {
    let mut tally = Tally::new();
    from_survey(&mut tally, site.documents(), found);
    from_home(&mut tally, home, found);
    let mut control: Option<Control> = None;
    for row in &READINESS_FETCHES {
        if !needed(row, &tally.readiness) {
            continue;
        }
        let Some(url) = url_of(row, origin, home, site.host()) else {
            continue;
        };
        let answer = fetch(site, row, &url).await;
        judge(&mut tally, row, &url, answer, &mut control);
        if row.fetch == Fetch::Control {
            from_robots(
                &mut tally,
                site.robots(),
                site.robots_body(),
                control.as_ref(),
            );
        }
    }
    tally.finish()
}

/// Whether the row's request is still needed: a fallback path is asked only when the path
/// before it did not count.
fn needed(row: &FetchRow, r: &Readiness) -> bool {
    match row.fetch {
        Fetch::Sitemap => r.sitemap != Some(true),
        Fetch::LegacyAgentCard => r.a2a_agent_card != Some(true),
        Fetch::LegacySkills => r.agent_skills != Some(true),
        Fetch::OpenidConfiguration => r.oauth_discovery != Some(true),
        Fetch::Control
        | Fetch::Markdown
        | Fetch::LlmsTxt
        | Fetch::LlmsFullTxt
        | Fetch::AgentSkills => true,
    }
}

fn url_of(row: &FetchRow, origin: &Url, home: Option<&Home>, host: &str) -> Option<Url> {
    match row.fetch {
        Fetch::Control => origin.join(&control_path(host)).ok(),
        Fetch::Markdown => Some(home.map_or_else(|| origin.clone(), |h| h.url.clone())),
        _ => origin.join(row.path).ok(),
    }
}

/// What one readiness request came to.
enum Answer {
    Got(FetchResponse),
    /// Not made, or no answer: the reason, in our words.
    NotChecked(String),
}

async fn fetch(site: &mut SiteScan, row: &FetchRow, url: &Url) -> Answer {
    let left = site.deadline().earlier_by(DEADLINE_MARGIN).remaining();
    if left < MIN_TIME {
        return Answer::NotChecked("the site deadline came first; not requested".into());
    }
    let timeout = DOCUMENT_TIMEOUT.min(left);
    let result = site
        .get_accepting(url, row.purpose, row.accept, READINESS_CAP, timeout)
        .await;
    match result {
        Ok(r) => Answer::Got(r),
        Err(FetchError::Disallowed { .. }) => {
            Answer::NotChecked("robots.txt disallows it; not requested".into())
        }
        Err(e) => Answer::NotChecked(format!("no answer: {e}")),
    }
}

fn judge(
    tally: &mut Tally,
    row: &FetchRow,
    url: &Url,
    answer: Answer,
    control: &mut Option<Control>,
) {
    let url_text = url.to_string();
    let r = match answer {
        Answer::Got(r) => r,
        Answer::NotChecked(why) => {
            if let Some(check) = row.check {
                let seen = Seen {
                    url: &url_text,
                    status: None,
                    content_type: None,
                    bytes: 0,
                };
                tally.not_checked(check, &seen, why);
            }
            return;
        }
    };
    let content_type = media_type(&r.headers);
    let seen = Seen {
        url: &url_text,
        status: Some(r.status.as_u16()),
        content_type: content_type.as_deref(),
        bytes: r.body.len() as u64,
    };
    let Some(check) = row.check else {
        // The control.
        let catch_all = r.status.is_success();
        tally.readiness.catch_all = Some(catch_all);
        *control = Some(Control {
            catch_all,
            body: if catch_all {
                r.body.to_vec()
            } else {
                Vec::new()
            },
        });
        return;
    };
    let decided = if !r.status.is_success() {
        Err(format!("HTTP {}", r.status.as_u16()))
    } else if row.fetch != Fetch::Markdown && same_as_control(control.as_ref(), &r.body) {
        Err("the same answer as the negative control (a catch-all)".to_owned())
    } else {
        read(row.fetch, content_type.as_deref(), &r.body)
    };
    let (counted, mut note) = match decided {
        Ok(note) => (true, note),
        Err(note) => (false, note),
    };
    if r.truncated {
        note.push_str(&format!(" (cut at {READINESS_CAP} bytes)"));
    }
    if row.fetch == Fetch::Markdown {
        tally.decide(check, counted, &seen, note);
    } else {
        tally.decide_file(check, counted, &seen, note);
    }
}

/// Reads a 2xx body as the row's document: `Ok` with a note when it counts.
fn read(fetch: Fetch, content_type: Option<&str>, body: &[u8]) -> Result<String, String> {
    let words = |s: &str| s.to_owned();
    match fetch {
        Fetch::Markdown => read_markdown_answer(content_type, body)
            .map(|()| words("answered text/markdown"))
            .map_err(words),
        Fetch::LlmsTxt | Fetch::LlmsFullTxt => match read_llms(body) {
            TextShape::Markdown => Ok(words(TextShape::Markdown.note())),
            other => Err(words(other.note())),
        },
        Fetch::Sitemap => read_sitemap(body)
            .map(|()| words("a sitemap"))
            .map_err(words),
        Fetch::AgentSkills | Fetch::LegacySkills => read_skills_index(body)
            .map(|n| format!("a skills index listing {n} skill(s)"))
            .map_err(words),
        Fetch::LegacyAgentCard => match parse_agent_card(content_type, body) {
            parse if parse.parsed().is_some() => Ok(words("an A2A agent card (earlier path)")),
            parse => Err(parse.why_not().unwrap_or_default()),
        },
        Fetch::OpenidConfiguration => match parse_auth_server(content_type, body) {
            parse if parse.parsed().is_some() => Ok(words("OpenID provider metadata")),
            parse => Err(parse.why_not().unwrap_or_default()),
        },
        Fetch::Control => Err(words("the negative control decides no check")),
    }
}
