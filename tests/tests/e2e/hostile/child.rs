//! The crawler in a child process of its own, so one site's memory and CPU can be measured
//! apart from the simulated web serving it: the e2e binary runs itself with only
//! [`child_entry`] selected, which runs `mcpcensus` with the arguments passed in the
//! environment and prints its own peak RSS and CPU time as read from `/proc/self`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcpcensus_simweb::SimWeb;
use mcpcensus_store::Record;

use crate::util::{only_run, WebCrawl};

/// The arguments for the child, one a line.
const ARGS_ENV: &str = "MCPCENSUS_HOSTILE_CHILD_ARGS";
/// What the child prints before its measurements.
const USAGE_TAG: &str = "HOSTILE-USAGE";
/// Clock ticks per second of `/proc/*/stat` times (USER_HZ, 100 on every Linux build).
const USER_HZ: u64 = 100;
/// The child is killed after this long: a crawl that does not end is a failure, not a hang.
const CHILD_LIMIT: Duration = Duration::from_secs(300);

/// What the crawler cost.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    /// Peak resident set (VmHWM), bytes.
    pub peak_rss: u64,
    /// User plus system CPU time.
    pub cpu: Duration,
    /// Wall time of the child.
    pub wall: Duration,
}

#[test]
#[ignore = "entry point of the crawler child process the hostile tests spawn"]
fn child_entry() {
    let Ok(args) = std::env::var(ARGS_ENV) else {
        return;
    };
    let args: Vec<&str> = args.lines().collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let code = runtime.block_on(crate::util::mcpcensus(&args)).unwrap();
    drop(runtime);
    let (rss, cpu_ms) = self_usage();
    println!("{USAGE_TAG} code={code:?} peak_rss_kb={rss} cpu_ms={cpu_ms}");
}

/// `(VmHWM in kB, utime + stime in ms)` of this process.
fn self_usage() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // Fields after the command name: state is field 3, utime 14, stime 15.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<u64> = after
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let ticks = fields[10] + fields[11];
    (rss, ticks * 1000 / USER_HZ)
}

/// Crawls `inputs` of `web` in a child process with `extra` flags (loopback allowed) and
/// returns the records and what the child cost.
pub async fn crawl_in_child(
    web: &SimWeb,
    inputs: &[String],
    extra: &[&str],
) -> (Vec<Record>, Usage) {
    let crawl = WebCrawl::new();
    let list = crawl.path("list.txt");
    std::fs::write(&list, inputs.join("\n")).unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let out = crawl.path("store");
    let dns = web.dns_addr().to_string();
    let mut args: Vec<&str> = vec![
        "crawl",
        &list,
        "--quiet",
        "--out",
        &out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--allow-net",
        "::1/128",
    ];
    // One look per site, as in `WebCrawl::run`: a hostile site's cost is measured once.
    if !extra.iter().any(|a| a.contains("second-look")) {
        args.push("--no-second-look");
    }
    args.extend(extra);
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "hostile::child::child_entry",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env(ARGS_ENV, args.join("\n"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let child = command.spawn().unwrap();
    let output = tokio::time::timeout(
        CHILD_LIMIT,
        tokio::task::spawn_blocking(move || child.wait_with_output()),
    )
    .await
    .expect("the crawl must end")
    .unwrap()
    .unwrap();
    let wall = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with(USAGE_TAG))
        .unwrap_or_else(|| {
            panic!(
                "the crawler child printed no usage ({}):\n{stdout}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let field = |name: &str| -> u64 {
        line.split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    let usage = Usage {
        peak_rss: field("peak_rss_kb=") * 1024,
        cpu: Duration::from_millis(field("cpu_ms=")),
        wall,
    };
    let (_, records) = only_run(Path::new(&out));
    (records, usage)
}
