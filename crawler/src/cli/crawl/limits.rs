//! The open-files limit against the concurrency asked for: the soft limit is raised to the
//! hard one (and, for root, the hard one as far as the kernel allows), and when that still
//! cannot cover every site in flight, the concurrency is lowered to what it covers, or the
//! run refused: running out of descriptors mid-run would turn this machine's limit into the
//! sites' verdicts.

use anyhow::bail;
use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};

/// Descriptors one site in flight can hold at once (DNS socket, connections to the site and to
/// its MCP endpoint, the pooled one kept for the next request).
pub const FDS_PER_SITE: u64 = 4;
/// Descriptors kept for everything else (store segments, stdio, the runtime, ClickHouse).
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
}

/// Descriptors `concurrency` sites need.
pub fn fds_needed(concurrency: usize) -> u64 {
    FDS_RESERVED + FDS_PER_SITE * concurrency as u64
}

/// Pure: from the current limits (`None`: unlimited) and, for root, the kernel's ceiling.
pub fn plan(
    soft: Option<u64>,
    hard: Option<u64>,
    root_ceiling: Option<u64>,
    concurrency: usize,
) -> anyhow::Result<FdPlan> {
    let needed = fds_needed(concurrency);
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
        });
    }
    let covered = soft.saturating_sub(FDS_RESERVED) / FDS_PER_SITE;
    if covered == 0 {
        bail!(
            "the open-files limit ({soft}) leaves no room for any site: a crawl needs \
             {FDS_RESERVED} descriptors plus {FDS_PER_SITE} per site in flight; raise it \
             (`ulimit -n {needed}`, or LimitNOFILE={needed} for a systemd service)"
        );
    }
    Ok(FdPlan {
        soft,
        hard,
        concurrency: covered as usize,
    })
}

/// Applies [`plan`] to this process; returns the concurrency to use, saying so when lowered.
pub fn fit_concurrency(concurrency: usize, json_logs: bool) -> anyhow::Result<usize> {
    let now = getrlimit(Resource::Nofile);
    let root = rustix::process::geteuid().is_root();
    let ceiling = root
        .then(|| std::fs::read_to_string(NR_OPEN).ok())
        .flatten()
        .and_then(|t| t.trim().parse().ok());
    let mut want = plan(now.current, now.maximum, ceiling, concurrency)?;
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
        want = plan(now.current, now.current, None, concurrency)?;
    }
    if want.concurrency < concurrency {
        tracing::warn!(
            open_files_limit = want.soft,
            asked = concurrency,
            using = want.concurrency,
            "the open-files limit cannot cover the concurrency asked for; lowering it (raise \
             the limit, e.g. `ulimit -n {}`, to use more)",
            fds_needed(concurrency)
        );
        // The warning above is the JSON log's line; text logs get a plain note as well.
        if !json_logs {
            eprintln!(
            "note: concurrency lowered from {concurrency} to {} to fit the open-files limit of \
             {} (raise it with `ulimit -n {}`)",
            want.concurrency,
            want.soft,
            fds_needed(concurrency)
        );
        }
    }
    Ok(want.concurrency)
}
