//! The checks robots.txt and the homepage decide, from the survey's answers (not asked again):
//! robots.txt itself, its AI crawler groups, content signals, `Sitemap:` and `Agentmap:` lines;
//! the homepage's Link relations, WebMCP markers, `ai-catalog` links and `Content-Usage` header.

use mcpcensus_store::{ReadinessCheck as C, RobotsInfo};

use super::phase::Home;
use super::tally::{Seen, Tally};
use crate::discovery::{Discovery, LinkKind};
use crate::readiness::{
    agent_link_rels, content_usage_header, read_robots_file, same_as_control, web_mcp_forms,
    Control,
};
use crate::scan::site::RobotsBody;

/// The checks robots.txt decides.
const FROM_ROBOTS: [C; 5] = [
    C::RobotsTxt,
    C::RobotsTxtAiRules,
    C::ContentSignals,
    C::Sitemap,
    C::Agentmap,
];

/// robots.txt's checks. A `Sitemap:` line decides `sitemap`; without one it waits for
/// `/sitemap.xml`.
pub(super) fn from_robots(
    tally: &mut Tally,
    info: Option<&RobotsInfo>,
    kept: Option<&RobotsBody>,
    control: Option<&Control>,
) {
    let Some(info) = info else {
        let seen = Seen {
            url: "/robots.txt",
            status: None,
            content_type: None,
            bytes: 0,
        };
        for check in FROM_ROBOTS {
            tally.not_checked(
                check,
                &seen,
                "robots.txt is not read (--robots ignore)".into(),
            );
        }
        return;
    };
    let mut seen = Seen {
        url: &info.url,
        status: info.status,
        content_type: None,
        bytes: 0,
    };
    let Some(status) = info.status else {
        for check in FROM_ROBOTS {
            tally.not_checked(check, &seen, "robots.txt got no answer".into());
        }
        return;
    };
    let Some(kept) = kept.filter(|_| (200..300).contains(&status)) else {
        // Answered, not 2xx: no robots file, so none of its lines either.
        for check in FROM_ROBOTS.into_iter().filter(|c| *c != C::Sitemap) {
            tally.decide(check, false, &seen, format!("HTTP {status}"));
        }
        return;
    };
    seen.content_type = kept.content_type.as_deref();
    seen.bytes = kept.body.len() as u64;
    let file = read_robots_file(&kept.body);
    let is_file = file.is_file && !same_as_control(control, &kept.body);
    let why = if file.html {
        "an HTML page, not a robots file"
    } else if !file.is_file {
        "no robots.txt line in it"
    } else if !is_file {
        "the same answer as the negative control"
    } else {
        "a robots file"
    };
    tally.decide_file(C::RobotsTxt, is_file, &seen, why.to_owned());
    let rules: Vec<String> = file.ai_rules.iter().map(|r| r.label()).collect();
    let named = is_file && !rules.is_empty();
    let note = if named {
        format!("groups name {}", rules.join(", "))
    } else {
        "no group names an AI crawler".to_owned()
    };
    tally.decide(C::RobotsTxtAiRules, named, &seen, note);
    if is_file {
        tally.readiness.ai_bot_rules = rules;
    }
    let signals = is_file && !(file.content_signals.is_empty() && file.content_usage.is_empty());
    let note = if signals {
        let lines = file
            .content_signals
            .iter()
            .map(|v| format!("Content-Signal: {v}"));
        let usage = file
            .content_usage
            .iter()
            .map(|v| format!("Content-Usage: {v}"));
        lines.chain(usage).collect::<Vec<_>>().join("; ")
    } else {
        "no Content-Signal or Content-Usage line".to_owned()
    };
    tally.decide(C::ContentSignals, signals, &seen, note);
    if is_file && file.sitemaps > 0 {
        let note = format!("{} Sitemap: line(s)", file.sitemaps);
        tally.decide(C::Sitemap, true, &seen, note);
    }
    let agentmap = is_file && file.agentmaps > 0;
    let note = if agentmap {
        format!("{} Agentmap: line(s)", file.agentmaps)
    } else {
        "no Agentmap: line".to_owned()
    };
    tally.decide(C::Agentmap, agentmap, &seen, note);
}

/// The homepage's checks: `null` when it did not answer 2xx (nothing to read).
pub(super) fn from_home(tally: &mut Tally, home: Option<&Home>, found: &Discovery) {
    const FROM_HOME: [C; 3] = [C::LinkHeaders, C::WebMcp, C::AiCatalogLink];
    let Some(home) = home else {
        let seen = Seen {
            url: "/",
            status: None,
            content_type: None,
            bytes: 0,
        };
        for check in FROM_HOME {
            tally.not_checked(check, &seen, "the homepage did not answer 2xx".into());
        }
        return;
    };
    let url = home.url.to_string();
    let seen = Seen {
        url: &url,
        status: Some(home.status),
        content_type: home.content_type.as_deref(),
        bytes: home.body.len() as u64,
    };
    let rels = agent_link_rels(&home.headers);
    let note = if rels.is_empty() {
        "no agent relation in its Link headers".to_owned()
    } else {
        format!("Link relations: {}", rels.join(", "))
    };
    tally.decide(C::LinkHeaders, !rels.is_empty(), &seen, note);
    let forms = web_mcp_forms(&home.body);
    let note = format!("{forms} form(s) with a WebMCP tool name");
    tally.decide(C::WebMcp, forms > 0, &seen, note);
    let catalog = found.links.iter().any(|l| l.kind == LinkKind::AiCatalog);
    let note = if catalog {
        "an ai-catalog link (header or <link>)"
    } else {
        "no ai-catalog link"
    };
    tally.decide(C::AiCatalogLink, catalog, &seen, note.to_owned());
    if content_usage_header(&home.headers) {
        let note = "a Content-Usage response header".to_owned();
        tally.decide(C::ContentSignals, true, &seen, note);
    }
}
