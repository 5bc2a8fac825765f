//! A simulated web for the unattended-run tests: one site in ten an MCP server, the others
//! plain pages, every home page answering after a delay so runs last long enough to stop.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{Outcome, Record, RunManifest, Store};

pub struct Web {
    pub web: SimWeb,
    pub dir: tempfile::TempDir,
    pub list: PathBuf,
    /// Input lines in order; `true` for MCP sites.
    pub sites: Vec<(String, bool)>,
}

impl Web {
    /// `n` sites on their own loopback addresses (`net` picks the 127.0.net.0 block).
    pub async fn start(n: u32, delay: Duration, net: u8) -> Web {
        let server = McpServer::new();
        let web = SimWeb::builder()
            .max_connections(65_536)
            .start()
            .await
            .unwrap();
        let mut sites = Vec::new();
        for i in 0..n {
            let name = format!("site{i}.unattended{net}.test");
            let ip = [127, net, (i / 250) as u8, (i % 250) as u8 + 1];
            let mcp = i % 10 == 0;
            let home = Reply::html("<html>a page</html>").delay(delay);
            let site = if mcp {
                Site::new(&name)
                    .ip(ip)
                    .route("/", home.header("link", "</mcp>; rel=\"mcp\""))
                    .mcp("/mcp", &server)
            } else {
                Site::new(&name).ip(ip).route("/", home)
            };
            web.add_site(site).unwrap();
            sites.push((web.input(&name), mcp));
        }
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list.txt");
        let text: Vec<&str> = sites.iter().map(|(s, _)| s.as_str()).collect();
        std::fs::write(&list, text.join("\n")).unwrap();
        web.write_ca_pem(dir.path().join("ca.pem")).unwrap();
        Web {
            web,
            dir,
            list,
            sites,
        }
    }

    pub fn store(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    /// `crawl LIST --out STORE ...` with the web's DNS and CA, loopback allowed, and `extra`.
    pub fn crawl_args(&self, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = [
            "crawl",
            self.list.to_str().unwrap(),
            "--quiet",
            "--out",
            self.store().to_str().unwrap(),
            "--resolver",
            &self.web.dns_addr().to_string(),
            "--ca-file",
            self.dir.path().join("ca.pem").to_str().unwrap(),
            "--allow-net",
            "127.0.0.0/8",
            "--per-ip-rps",
            "5000",
            "--site-deadline",
            "120",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    }
}

/// The store's runs (manifests) and the records of the newest.
pub fn read_store(dir: &Path) -> Option<(RunManifest, Vec<Record>)> {
    let store = Store::open(dir).ok()?;
    let manifest = store.latest_run().ok()??;
    let records = store
        .read_run(&manifest.run_id)
        .ok()?
        .filter_map(Result::ok)
        .collect();
    Some((manifest, records))
}

/// Every input line has exactly one record, no placeholder is left, and every MCP site
/// passed while no site that is up was recorded unreachable.
pub fn assert_one_true_record_per_line(web: &Web, records: &[Record]) {
    let mut lines: Vec<u64> = records.iter().map(|r| r.input_line).collect();
    lines.sort_unstable();
    let expected: Vec<u64> = (1..=web.sites.len() as u64).collect();
    if lines != expected {
        let mut seen = std::collections::BTreeMap::<u64, u32>::new();
        for l in &lines {
            *seen.entry(*l).or_default() += 1;
        }
        let doubled: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).take(10).collect();
        let missing: Vec<_> = expected
            .iter()
            .filter(|l| !seen.contains_key(l))
            .take(10)
            .collect();
        panic!(
            "{} records for {} lines; doubled {doubled:?}, missing {missing:?}",
            lines.len(),
            expected.len()
        );
    }
    for r in records {
        let (input, mcp) = &web.sites[(r.input_line - 1) as usize];
        assert_eq!(&r.input, input);
        let want = if *mcp {
            Outcome::Pass
        } else {
            Outcome::OutOfScope
        };
        assert_eq!(r.outcome, want, "{input}: {}", r.outcome_reason);
    }
}
