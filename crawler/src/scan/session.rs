//! The survey's session phase: the capped session over the chosen endpoint, which refuses
//! itself when under 12 s are left before the site deadline.

use tokio::time::Instant;
use url::Url;

use super::phases::{ms, Context, Phases};
use super::site::SiteScan;
use crate::session::{run_session, SessionOptions};

impl Context<'_> {
    /// The capped session against `endpoint`; its report and time go into `out`.
    pub(super) async fn session(&self, site: &mut SiteScan, out: &mut Phases, endpoint: &Url) {
        let started = Instant::now();
        let opts = SessionOptions {
            tools_cap: self.settings.tools_cap,
            keep_exchanges: site.keeps_transcript(),
            ..SessionOptions::default()
        };
        // Boxed: only a site with an endpoint needs the session's state, so the scan future
        // of every other site in flight stays small.
        let mut report =
            Box::pin(run_session(site.client(), endpoint, &opts, site.deadline())).await;
        site.log_requests(std::mem::take(&mut report.requests));
        site.extend_transcript(std::mem::take(&mut report.exchanges));
        out.timings.session_ms = Some(ms(started.elapsed()));
        out.session = Some(Box::new(report));
    }
}
