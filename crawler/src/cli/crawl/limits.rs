//! The open-files limit against the concurrency asked for: the soft limit is raised to the
//! hard one (and, for root, the hard one as far as the kernel allows), and when that still
//! cannot cover the run — a reserve, the DNS lookups' sockets (once for the run) and one
//! connection a site in flight (docs/sizing.md) — the DNS lookups at once and then the
//! concurrency are lowered to what it covers, or the run refused: running out of descriptors
//! mid-run would turn this machine's limit into the sites' verdicts.

use anyhow::bail;
use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

/// Descriptors one site in flight holds: its one connection (a site's requests go in turn,
/// and opening a connection to another host closes the one kept, `net/pool.rs`).
pub const FDS_PER_SITE: u64 = 1;
/// One site in this many more: connections closing after their site ended (an HTTP/2
/// connection's task ends after its site) and a new connection opening beside a closing one.
pub const FDS_SLACK_ONE_SITE_IN: u64 = 8;
/// UDP sockets one DNS lookup holds at most: the A and AAAA queries at once, each sent to
/// at most [`crate::net::DNS_SERVERS_AT_ONCE`] name servers at once (hickory binds a fresh
/// socket a query, a random source port each).
pub const DNS_SOCKETS_PER_LOOKUP: u64 = 2 * crate::net::DNS_SERVERS_AT_ONCE as u64;
/// Descriptors kept for everything else (store segments, stdio, the runtime, ClickHouse, the
/// resolvers' TCP connections to the name servers).
pub const FDS_RESERVED: u64 = 128;
/// Where Linux says how far root may raise the hard limit.
const NR_OPEN: &str = "/proc/sys/fs/nr_open";

/// The concurrency the open-files limit allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FdPlan {
    /// The soft limit to set.
    pub soft: u64,
    /// The hard limit to set.
    pub hard: u64,
    /// Sites in flight at most.
    pub concurrency: usize,
    /// DNS lookups at once at most (`net.resolver_concurrency`, lowered under a low limit so
    /// the DNS sockets take at most a quarter of what the reserve leaves).
    pub lookups: usize,
}

/// The share of a low limit the DNS sockets may take: one part in this many.
const DNS_SHARE_ONE_IN: u64 = 4;

/// Descriptors a run needs: the reserve, the DNS lookups at once (`lookups`, the resolver's
/// concurrency: one bound for the run, however many sites are in flight) and `concurrency`
/// sites with their slack.
pub fn fds_needed(concurrency: usize, lookups: usize) -> u64 {
    let sites = concurrency as u64;
    fixed_fds(lookups) + FDS_PER_SITE * sites + sites.div_ceil(FDS_SLACK_ONE_SITE_IN)
}

/// What the run holds whatever its concurrency: the reserve and the DNS sockets.
fn fixed_fds(lookups: usize) -> u64 {
    FDS_RESERVED + DNS_SOCKETS_PER_LOOKUP * lookups as u64
}

/// The most sites `fds` descriptors cover beside the fixed part.
fn sites_covered(fds: u64, lookups: usize) -> u64 {
    let per_slack_group = FDS_PER_SITE * FDS_SLACK_ONE_SITE_IN + 1;
    let left = fds.saturating_sub(fixed_fds(lookups));
    // c + ceil(c / 8) <= left: whole groups of 8 sites cost 9, a partial group one more.
    let groups = left / per_slack_group;
    let rest = (left % per_slack_group).saturating_sub(1) / FDS_PER_SITE;
    groups * FDS_SLACK_ONE_SITE_IN + rest.min(FDS_SLACK_ONE_SITE_IN - 1)
}

/// Pure: from the current limits (`None`: unlimited) and, for root, the kernel's ceiling.
pub fn plan(
    soft: Option<u64>,
    hard: Option<u64>,
    root_ceiling: Option<u64>,
    concurrency: usize,
    lookups: usize,
) -> anyhow::Result<FdPlan> {
    let needed = fds_needed(concurrency, lookups);
    // As high as allowed, not just to `needed`: other work in the process (a ClickHouse sink,
    // tests running servers in-process) needs descriptors too.
    let hard = match (hard, root_ceiling) {
        (None, _) => u64::MAX,
        (Some(h), Some(ceiling)) => ceiling.max(h),
        (Some(h), None) => h,
    };
    let soft = soft.unwrap_or(u64::MAX).max(hard);
    if soft >= needed {
        return Ok(FdPlan {
            soft,
            hard,
            concurrency,
            lookups,
        });
    }
    let dns_share = soft.saturating_sub(FDS_RESERVED) / DNS_SHARE_ONE_IN / DNS_SOCKETS_PER_LOOKUP;
    let lookups = lookups.min(usize::try_from(dns_share).unwrap_or(usize::MAX).max(1));
    let covered = sites_covered(soft, lookups).min(concurrency as u64);
    if covered == 0 {
        bail!(
            "the open-files limit ({soft}) leaves no room for any site: a crawl needs {} \
             descriptors (the reserve and {lookups} DNS lookups at once) plus {} per {} sites in \
             flight; raise it (`ulimit -n {needed}`, or LimitNOFILE={needed} for a \
             systemd service)",
            fixed_fds(lookups),
            FDS_PER_SITE * FDS_SLACK_ONE_SITE_IN + 1,
            FDS_SLACK_ONE_SITE_IN,
        );
    }
    Ok(FdPlan {
        soft,
        hard,
        concurrency: covered as usize,
        lookups,
    })
}

/// Applies [`plan`] to this process; returns the sites in flight and the DNS lookups at once
/// to use, saying so when lowered.
pub fn fit_concurrency(
    concurrency: usize,
    lookups: usize,
    json_logs: bool,
) -> anyhow::Result<(usize, usize)> {
    let now = getrlimit(Resource::Nofile);
    let root = rustix::process::geteuid().is_root();
    let ceiling = root
        .then(|| std::fs::read_to_string(NR_OPEN).ok())
        .flatten()
        .and_then(|t| t.trim().parse().ok());
    let mut want = plan(now.current, now.maximum, ceiling, concurrency, lookups)?;
    let set = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: (want.soft != u64::MAX).then_some(want.soft),
            maximum: (want.hard != u64::MAX).then_some(want.hard),
        },
    );
    if let Err(e) = set {
        // Keep what we have and plan within it.
        tracing::warn!(error = %e, "could not raise the open-files limit");
        want = plan(now.current, now.current, None, concurrency, lookups)?;
    }
    if want.lookups < lookups {
        tracing::warn!(
            open_files_limit = want.soft,
            asked = lookups,
            using = want.lookups,
            "the open-files limit cannot cover the DNS lookups at once asked for \
             (net.resolver_concurrency); lowering them"
        );
    }
    if want.concurrency < concurrency {
        tracing::warn!(
            open_files_limit = want.soft,
            asked = concurrency,
            using = want.concurrency,
            "the open-files limit cannot cover the concurrency asked for; lowering it (raise \
             the limit, e.g. `ulimit -n {}`, to use more)",
            fds_needed(concurrency, lookups)
        );
        // The warning above is the JSON log's line; text logs get a plain note as well.
        if !json_logs {
            eprintln!(
            "note: concurrency lowered from {concurrency} to {} to fit the open-files limit of \
             {} (raise it with `ulimit -n {}`)",
            want.concurrency,
            want.soft,
            fds_needed(concurrency, lookups)
        );
        }
    }
    Ok((want.concurrency, want.lookups))
}
