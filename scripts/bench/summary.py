#!/usr/bin/env python3
"""Sums up one crawl benchmark: what the crawl recorded against what the simulated web held.

usage: summary.py EXPORT.jsonl KINDS.txt REQUESTS.txt TIME.txt WEB_CPU_S CONCURRENCY DELAY_MS
                  [PROGRESS.txt [STATS.json]]
PROGRESS.txt holds `unix-time store-bytes` samples taken during the crawl; STATS.json is the
crawl's --stats-json (the most sites in flight at once).

Prints one `key=value` line (sites/s, crawler CPU ms per site, the web's CPU ms per site,
peak RSS, requests per site, MCP servers found/present, achieved ÷ ideal throughput: the
CPU-bound ceiling, cores ÷ (crawler + web CPU a site), or with BENCH_WEB_CPUS naming the web's
CPUs the lower of each side's own cores ÷ its CPU a site) and one
line per reason an MCP site was not recorded as a pass.
"""
import collections
import json
import os
import re
import sys


def cpu_list_len(text):
    """How many CPUs a taskset list names ("1", "2-3", "0,2-3"); 0 for none."""
    count = 0
    for part in filter(None, text.split(",")):
        low, _, high = part.partition("-")
        count += int(high or low) - int(low) + 1
    return count


def read_time(path):
    """Figures of GNU time -v."""
    text = open(path).read()
    def field(name):
        m = re.search(re.escape(name) + r": (.*)", text)
        return m.group(1).strip() if m else "0"
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    parts = [float(p) for p in wall.split(":")]
    secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    rss_kb = int(field("Maximum resident set size (kbytes)"))
    return secs, cpu, rss_kb


def steady_rate(path, n):
    """Sites/s between 10% and 90% of the store's final size (records are similar in size)."""
    samples = [(t, b) for t, b, _ in read_progress(path)]
    if not samples or samples[-1][1] == 0:
        return 0.0
    final = max(b for _, b in samples)
    lo = next((t for t, b in samples if b >= 0.1 * final), None)
    hi = next((t for t, b in samples if b >= 0.9 * final), None)
    if lo is None or hi is None or hi <= lo:
        return 0.0
    return 0.8 * n / (hi - lo)


def read_progress(path):
    """`(time, store bytes, crawler RSS KB)` samples."""
    return [(t, b, r) for t, b, r, _ in read_samples(path)]


def read_samples(path):
    """`(time, store bytes, crawler RSS KB, crawler open files)` samples (0 files when the
    sampler did not count them)."""
    samples = []
    for line in open(path):
        parts = line.split()
        if len(parts) in (3, 4):
            fds = int(parts[3]) if len(parts) == 4 else 0
            samples.append((float(parts[0]), int(parts[1]), int(parts[2]), fds))
    return samples


def first_to_last(path, n):
    """Sites/s from the first record to the last: from the first sample where the store
    grew to the first where it reached its final size (records are similar in size)."""
    samples = read_progress(path)
    if not samples:
        return 0.0
    start = min(b for _, b, _ in samples)
    final = max(b for _, b, _ in samples)
    first = next((t for t, b, _ in samples if b > start), None)
    last = next((t for t, b, _ in samples if b >= final), None)
    if first is None or last is None or last <= first:
        return 0.0
    return n / (last - first)


def rss_by_quarter(path):
    """The crawler's RSS (MB) when 25%, 50%, 75% and 100% of the store was written."""
    samples = read_progress(path)
    if not samples:
        return []
    final = max(b for _, b, _ in samples) or 1
    out = []
    for q in (0.25, 0.5, 0.75, 1.0):
        # The last samples can come after the crawler exited: then its last RSS seen.
        last = next((r for _, _, r in reversed(samples) if r > 0), 0)
        rss = next((r for _, b, r in samples if b >= q * final and r > 0), last)
        out.append(f"{rss / 1024:.0f}")
    return out


def main():
    export, kinds_path, requests_path, time_path, web_cpu, concurrency, delay_ms = sys.argv[1:8]
    progress = sys.argv[8] if len(sys.argv) > 8 else None
    stats = json.load(open(sys.argv[9])) if len(sys.argv) > 9 else {}
    peak_in_flight = stats.get("admission", {}).get("peak_in_flight", "unknown")
    kinds = dict(line.split() for line in open(kinds_path) if line.strip())
    # The shapes mix names its MCP sites; the others follow tests/src/mix.rs's rule.
    hosts_path = os.path.join(os.path.dirname(kinds_path), "mcp_hosts.txt")
    mcp_hosts = set(open(hosts_path).read().split()) if os.path.exists(hosts_path) else None
    present = int(kinds.get("mcp", 0))
    requests = int(open(requests_path).read().strip() or 0)
    # The nginx web also counts the TLS connections it accepted (one a site is the least).
    connections_path = os.path.join(os.path.dirname(requests_path), "connections.txt")
    connections = (int(open(connections_path).read().strip() or 0)
                   if os.path.exists(connections_path) else None)
    wall, cpu, rss_kb = read_time(time_path)
    web_cpu = float(web_cpu)
    outcomes = collections.Counter()
    lost = collections.Counter()
    found = 0
    n = 0
    for line in open(export):
        r = json.loads(line)
        n += 1
        outcomes[r["outcome"]] += 1
        if mcp_hosts is not None:
            is_mcp = r["host"] in mcp_hosts
        else:
            is_mcp = r["host"].startswith("site") and kind_of(r["host"], kinds) == "mcp"
        if is_mcp:
            if r["outcome"] == "pass":
                found += 1
            else:
                reason = re.sub(r"\d+(\.\d+)?", "N", r.get("outcome_reason") or "")
                lost[f'{r["outcome"]}: {reason}'] += 1
    cores = os.cpu_count() or 1
    per_site = (cpu + web_cpu) / max(n, 1)
    ideal = cores / per_site if per_site > 0 else 0
    web_cores = cpu_list_len(os.environ.get("BENCH_WEB_CPUS", ""))
    if web_cores and cpu > 0 and web_cpu > 0:
        # The web pinned to its CPUs and the crawler to the others: each side's own ceiling,
        # the lower one bounds the run.
        ideal = min((cores - web_cores) * n / cpu, web_cores * n / web_cpu)
    rate = n / wall if wall > 0 else 0
    steady = steady_rate(progress, n) if progress else 0.0
    print(
        f"sites={n} concurrency={concurrency} delay_ms={delay_ms} wall_s={wall:.1f} "
        f"sites_per_s={rate:.0f} steady_sites_per_s={steady:.0f} crawler_cpu_ms_per_site={cpu * 1000 / max(n, 1):.2f} "
        f"web_cpu_ms_per_site={web_cpu * 1000 / max(n, 1):.2f} peak_rss_mb={rss_kb / 1024:.0f} "
        f"peak_in_flight={peak_in_flight} "
        f"requests_per_site={requests / max(n, 1):.2f} mcp_found={found}/{present} "
        f"mcp_lost={present - found} cpu_ceiling_sites_per_s={ideal:.0f} "
        f"steady_over_ideal={steady / ideal if ideal else 0:.2f}"
    )
    if connections is not None:
        print(f"connections_per_site={connections / max(n, 1):.2f}")
    if progress:
        print("rss_mb_at_25_50_75_100_percent=" + "/".join(rss_by_quarter(progress)))
        peak_fds = max((f for _, _, _, f in read_samples(progress)), default=0)
        per_site = (f"{peak_fds / peak_in_flight:.2f}"
                    if isinstance(peak_in_flight, int) and peak_in_flight > 0 else "unknown")
        print(f"first_to_last_record_sites_per_s={first_to_last(progress, n):.0f} "
              f"peak_open_files={peak_fds} open_files_per_site_in_flight={per_site}")
    print("outcomes: " + " ".join(f"{k}={v}" for k, v in sorted(outcomes.items())))
    for reason, count in lost.most_common():
        print(f"  lost {count}: {reason}")



def kind_of(host, _kinds):
    """The kind of `siteN.bench.test`, by the same rule as tests/src/mix.rs."""
    i = int(host[4:].split(".")[0])
    mix = os.environ.get("BENCH_MIX", "realistic")
    if mix == "tenth":
        return "mcp" if i % 10 == 0 else "plain"
    if mix in ("plain", "servers"):
        return {"plain": "plain", "servers": "mcp"}[mix]
    return {0: "mcp", 50: "mcp", 25: "other"}.get(i % 100, "plain")


if __name__ == "__main__":
    main()
