//! A site's robots.txt as the client enforces it (RFC 9309): which GETs it allows and the
//! Crawl-delay it asks for. Parsing is `texting_robots`, matched on our product token.

use std::time::Duration;

use mcpcensus_store::inert::terminal_text;
use texting_robots::Robot;

/// The product token robots.txt groups are matched against (the User-Agent's first word).
pub const ROBOTS_PRODUCT_TOKEN: &str = "mcpcensus";

/// What one origin's robots.txt allows.
pub struct RobotsRules {
    robot: Option<Robot>,
    disallow_all: bool,
}

impl std::fmt::Debug for RobotsRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotsRules")
            .field("disallow_all", &self.disallow_all)
            .field("crawl_delay", &self.crawl_delay())
            .finish_non_exhaustive()
    }
}

impl RobotsRules {
    /// No robots.txt, a 4xx or an error: everything is allowed (RFC 9309 §2.3.1.3).
    pub fn allow_all() -> Self {
        Self {
            robot: None,
            disallow_all: false,
        }
    }

    /// A 5xx: the site is treated as fully disallowed (RFC 9309 §2.3.1.4).
    pub fn disallow_all() -> Self {
        Self {
            robot: None,
            disallow_all: true,
        }
    }

    /// A robots.txt body; one the parser cannot read allows everything (as a missing one).
    pub fn parse(body: &[u8]) -> Self {
        match Robot::new(ROBOTS_PRODUCT_TOKEN, body) {
            Ok(robot) => Self {
                robot: Some(robot),
                disallow_all: false,
            },
            Err(e) => {
                // The parser's error quotes the file: logged inert.
                let error = terminal_text(&e.to_string()).into_owned();
                tracing::debug!(%error, "robots.txt did not parse: treated as absent");
                Self::allow_all()
            }
        }
    }

    /// True when a GET of `path` (path and query) is allowed.
    pub fn allows(&self, path: &str) -> bool {
        if self.disallow_all {
            return path == "/robots.txt";
        }
        self.robot.as_ref().is_none_or(|r| r.allowed(path))
    }

    /// The Crawl-delay of the matched group, when positive and finite.
    pub fn crawl_delay(&self) -> Option<Duration> {
        let secs = self.robot.as_ref()?.delay?;
        Duration::try_from_secs_f32(secs)
            .ok()
            .filter(|d| !d.is_zero())
    }
}
