//! The phases over a chosen endpoint: the survey's capped session and the deep probe. Each
//! logs its requests into the site's scan and times itself.

use tokio::time::Instant;
use url::Url;

use super::endpoint_card::DEADLINE_MARGIN;
use super::phases::{ms, Context, Phases};
use super::site::SiteScan;
use crate::probe::{run_probe, ProbeReport};
use crate::session::{run_session, SessionOptions, SessionReport};

impl Context<'_> {
    /// The survey's capped session; it refuses itself when under 12 s are left.
    pub(super) async fn session(
        &self,
        site: &mut SiteScan,
        endpoint: &Url,
        out: &mut Phases,
    ) -> SessionReport {
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
        report
    }

    /// The deep probe, with its own budget of 9 requests; it ends before the site deadline,
    /// by the same margin as the endpoint card's GET.
    pub(super) async fn deep_probe(
        &self,
        site: &mut SiteScan,
        endpoint: &Url,
        out: &mut Phases,
    ) -> ProbeReport {
        let started = Instant::now();
        // The server's time, as the session's: our own waits during the probe move it later.
        let deadline = site.deadline().earlier_by(DEADLINE_MARGIN);
        let keep = site.keeps_transcript();
        let mut report = Box::pin(run_probe(site.client(), endpoint, &deadline, keep)).await;
        site.log_requests(std::mem::take(&mut report.requests));
        site.extend_transcript(std::mem::take(&mut report.exchanges));
        out.timings.probe_ms = Some(ms(started.elapsed()));
        report
    }
}
