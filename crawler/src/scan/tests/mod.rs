//! The scan's own steps against the crate's test server over TLS: where the homepage's
//! redirects lead, robots.txt, and the discovery documents fetched at the final origin.

mod deadline;
mod documents;
mod locate;
mod registry;
mod robots;
mod size;
mod transient;

use mcpcensus_store::{Outcome, Record};
use tokio::time::Duration;
use url::Url;

use super::site::SiteScan;
use super::ScanSettings;
use crate::config::{Probe, Robots};
use crate::net::{Net, ServerDeadline};
use crate::testkit::{net_options, Canned, Mode, Seen, TestPki, TestServer};

/// The measured site, its `www.` name, and a name on another site.
const SITE: &str = "site.test";
const WWW: &str = "www.site.test";
const OTHER: &str = "other.test";

/// A TLS server for the three names, answering with `handler`.
async fn server(
    handler: impl Fn(&Seen) -> Canned + Send + Sync + 'static,
) -> (TestServer, TestPki) {
    let pki = TestPki::for_names(&[SITE, WWW, OTHER]);
    let server = TestServer::start_tls(&pki, Mode::TlsH1, handler).await;
    (server, pki)
}

/// `https://host:port` of the test server.
fn origin(server: &TestServer, host: &str) -> String {
    format!("https://{host}:{}", server.addr.port())
}

/// A site scan of `host` on the test server, with a generous deadline.
fn scan(server: &TestServer, pki: &TestPki, host: &str) -> SiteScan {
    scan_until(server, pki, host, Duration::from_secs(60))
}

/// The same with the site deadline `left` from now.
fn scan_until(server: &TestServer, pki: &TestPki, host: &str, left: Duration) -> SiteScan {
    let net = Net::new(net_options(&[SITE, WWW, OTHER], Some(pki))).expect("net");
    let origin = Url::parse(&origin(server, host)).expect("origin");
    let mut record = Record::new("run", 0, host, 1, Outcome::NotMeasured, "");
    record.origin = Some(origin.to_string());
    record.host = Some(host.to_owned());
    record.registrable_domain = Some(SITE.to_owned());
    let client = net.site_client();
    let deadline = ServerDeadline::after(left, client.waits().clone());
    SiteScan::new(record, client, deadline, origin)
}

/// [`scan`] with `--robots ignore`: the tests of redirects and documents see only their own
/// requests.
fn scan_ignoring_robots(server: &TestServer, pki: &TestPki, host: &str) -> SiteScan {
    let mut site = scan(server, pki, host);
    site.ignore_robots();
    site
}

/// The survey's scan (no deep probe, no readiness, robots.txt ignored) with `site_deadline`.
fn survey_settings(site_deadline: Duration) -> ScanSettings {
    ScanSettings {
        site_deadline,
        document_cap: 1 << 20,
        tools_cap: std::num::NonZeroUsize::new(200).expect("nonzero"),
        probe: Probe::Survey,
        readiness: false,
        robots: Robots::Ignore,
    }
}

/// `host` and path of each request, in order.
fn requests(server: &TestServer) -> Vec<(String, String)> {
    let seen = server.seen();
    seen.into_iter()
        .map(|s| (s.host().unwrap_or_default(), s.path))
        .collect()
}

/// An absolute URL on the host `seen` was sent to, moved to `host` (same port).
fn on(seen: &Seen, host: &str, path: &str) -> String {
    let port = seen
        .header("host")
        .and_then(|h| h.rsplit(':').next().map(str::to_owned));
    format!("https://{host}:{}{path}", port.unwrap_or_default())
}

fn html(text: &str) -> Canned {
    Canned::new(200)
        .header("content-type", "text/html")
        .text(format!("<!doctype html><html><body>{text}</body></html>"))
}
