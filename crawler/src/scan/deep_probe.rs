//! The deep probe phase (`--probe deep`, or the probers' reading of a registry remote the
//! survey could not list): at most 9 requests of its own, ending before the site deadline by
//! the same margin as the endpoint card's GET.

use tokio::time::Instant;
use url::Url;

use super::endpoint_card::DEADLINE_MARGIN;
use super::phases::{ms, Context, Phases};
use super::prober::wants_reading;
use super::site::SiteScan;
use crate::config::Probe;
use crate::probe::run_probe;

impl Context<'_> {
    /// Probes `endpoint` (`given` when it was a registry entry's remote rather than
    /// discovered) when the settings ask for the deep probe, or when the survey's session over
    /// a given endpoint could not list its tools; its report and time go into `out`.
    pub(super) async fn deep_probe(
        &self,
        site: &mut SiteScan,
        out: &mut Phases,
        endpoint: &Url,
        given: bool,
    ) {
        let prober = given
            && out
                .session
                .as_deref()
                .is_some_and(|s| wants_reading(s, site.requests()));
        if self.settings.probe != Probe::Deep && !prober {
            return;
        }
        let started = Instant::now();
        // The server's time, as the session's: our own waits during the probe move it later.
        let deadline = site.deadline().earlier_by(DEADLINE_MARGIN);
        let keep = site.keeps_transcript();
        let mut report = Box::pin(run_probe(site.client(), endpoint, &deadline, keep)).await;
        site.log_requests(std::mem::take(&mut report.requests));
        site.extend_transcript(std::mem::take(&mut report.exchanges));
        out.timings.probe_ms = Some(ms(started.elapsed()));
        out.probe = Some(Box::new(report));
    }
}
