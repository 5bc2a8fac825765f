#!/usr/bin/env bash
# Side by side in one run over one web (the simulated web, or with BENCH_WEB=nginx the same
# sites served by nginx: scripts/nginx-web-start.sh; the web in its own processes):
# the crawler, an asyncio scanner on the official MCP Python SDK, the survey's curl sequence
# run with `xargs -P`, and h2load making the discovery GETs of every site on a new TLS
# connection each. Prints each tool's sites/s, client CPU ms per site and MCP servers found,
# then the ratios. curl runs over the first CURL_SITES sites only (it is ~100× slower).
# usage: scripts/bench-compare.sh [SITES] [CONCURRENCY] [DELAY_MS] [CURL_SITES] [MIX]
#   MIX: realistic (default) or another of bench-crawl.sh's (plain: the CPU of a no-MCP site)
# BENCH_BIN names the crawler binary of the `crawler` row (default the fresh build);
# BENCH_BASE="BINARY..." adds a row for each other crawler binary (a kept earlier build, a
# build with other features), named by its file name;
# BENCH_OTHERS names the other tools to run (default "sdk curl h2load"; h2load-all: h2load
# with the crawler's twelve GETs of a site without MCP, not the survey's seven; h2load-paced:
# those twelve at BENCH_H2LOAD_RPS a second a connection, default 2, the crawler's default
# per-host rate, so both spend the same idle time between requests); BENCH_ROUNDS=N runs
# them all N times in turn (default 1), each row then the sum of its rounds (peak RSS the
# largest), so a machine's load changing over the run falls on every tool alike;
# the rows take turns to run first (use as many rounds as rows, or a multiple, for a fair
# sum); BENCH_CRAWL_FLAGS adds crawl flags (e.g. "--per-host-rps 1000 --per-host-burst 16" to lift
# the per-host politeness the other tools do not have).
set -euo pipefail
sites=${1:-2000}
concurrency=${2:-500}
delay_ms=${3:-0}
curl_sites=${4:-300}
mix=${5:-realistic}
others=${BENCH_OTHERS:-sdk curl h2load}
ips=50
# The other tools are not Rust crates: install them on a machine that lacks them.
if ! { command -v h2load && command -v curl && [ -x /usr/bin/time ] \
  && python3 -c "import mcp.client.streamable_http, httpx2"; } >/dev/null 2>&1; then
  "$(dirname "$0")/setup.sh" bench
fi
case ${BENCH_WEB:-simweb} in
  simweb) source "$(dirname "$0")/simweb-start.sh" "$sites" "$ips" "$mix" "$delay_ms" ;;
  nginx) source "$(dirname "$0")/nginx-web-start.sh" "$sites" "$ips" "$mix" "$delay_ms" ;;
  *) echo "BENCH_WEB: simweb or nginx, not ${BENCH_WEB}"; exit 2 ;;
esac
list="$WEB_DIR/list.txt"
ca="$WEB_DIR/ca.pem"
port=$(head -1 "$list" | sed 's/.*://')
present=$(awk '$1 == "mcp" {print $2}' "$WEB_DIR/kinds.txt")
head -n "$curl_sites" "$list" > "$work/curl-list.txt"
curl_present=$(head -n "$curl_sites" "$WEB_DIR/sites.txt" | awk '$3 == "mcp"' | wc -l)
results="$work/results.txt"
: > "$results"

# measure NAME SITES PRESENT COMMAND...: runs COMMAND under GNU time; its standard output
# must end with the number of MCP servers found.
measure() {
  local name=$1 n=$2 want=$3; shift 3
  local before after
  before=$(web_cpu)
  # The tools are shell functions: run them in a child bash that GNU time can measure.
  /usr/bin/time -v -o "$work/$name.time" bash -c '"$@"' _ "$@" > "$work/$name.out"
  after=$(web_cpu)
  python3 - "$name" "$n" "$want" "$work/$name.time" "$work/$name.out" "$before" "$after" >> "$results" <<'PY'
import re, sys
name, n, want, time_path, out_path, before, after = sys.argv[1:]
n = int(n)
text = open(time_path).read()
f = lambda k: re.search(re.escape(k) + r": (.*)", text).group(1).strip()
wall = sum(float(p) * 60 ** i for i, p in enumerate(reversed(f("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"))))
cpu = float(f("User time (seconds)")) + float(f("System time (seconds)"))
rss = int(f("Maximum resident set size (kbytes)")) / 1024
out = open(out_path).read()
found = out.split()[-1].split("=")[-1] if out.split() else "0"
# A tool that times its own work (the SDK scanner, whose imports take seconds; the crawler,
# whose count of servers found is read afterwards) says so.
own = dict(w.split("=", 1) for w in out.split() if "=" in w)
if "wall_s" in own:
    wall, cpu = float(own["wall_s"]), float(own["cpu_s"])
print(f"{name} {n} {wall:.2f} {cpu:.3f} {rss:.0f} {found} {want} {float(after) - float(before):.3f}")
PY
}

# crawl [BINARY]: the crawler (default the fresh build; BENCH_BASE names a kept copy to run
# alongside, e.g. the build before a change).
# shellcheck disable=SC2086 # BENCH_CRAWL_FLAGS is a word list
crawl() {
  local bin=${1:-${BENCH_BIN:-${CARGO_TARGET_DIR:-$top/target}/release/mcpcensus}}
  rm -rf "$work/store"
  # The crawl alone is measured, as h2load is: counting the MCP servers found afterwards
  # (an export read by Python) costs ~0.1 ms a site and is not the crawler's work.
  /usr/bin/time -f "%e %U %S" -o "$work/crawl.time" "$bin" crawl "$list" --quiet --out "$work/store" \
    --resolver "$(cat "$WEB_DIR/dns.txt")" --ca-file "$ca" --allow-net 127.0.0.0/8 \
    --concurrency "$concurrency" --per-ip-rps 100000 --per-ip-connections 100000 \
    ${BENCH_CRAWL_FLAGS:-} 2>&1
  local wall user sys
  read -r wall user sys < <(tail -1 "$work/crawl.time")
  echo "wall_s=$wall cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')"
  "$bin" export --from "$work/store" --format jsonl \
    | python3 -c "import json,sys; print(sum(1 for l in sys.stdin if json.loads(l)['outcome'] == 'pass'))"
}
sdk() { python3 "$top/scripts/bench/sdk_scanner.py" "$list" "$ca" "$concurrency" "$ips"; }
curls() {
  xargs -P "$concurrency" -n 1 "$top/scripts/bench/curl_site.sh" "$ca" "$ips" < "$work/curl-list.txt" \
    | grep -c found || true
}
# h2 [all [RPS]]: the survey's seven discovery GETs, or with `all` the twelve the crawler sends
# to a site without MCP (robots.txt, the surface documents too), so the two do the same work;
# with RPS, each connection sends that many requests a second (h2load's --rps), as the
# crawler's per-host rate spaces a site's requests.
h2() {
  local paths=(/ /.well-known/mcp/server-card.json /.well-known/mcp.json
    /.well-known/mcp-server-card.json /.well-known/mcp/server-card /.well-known/ai-catalog.json /mcp)
  if [ "${1:-}" = all ]; then
    paths=(/robots.txt "${paths[@]}" /.well-known/api-catalog /.well-known/agent-card.json
      /.well-known/oauth-protected-resource /.well-known/oauth-authorization-server)
  fi
  for path in "${paths[@]}"; do
    echo "https://site1.bench.test:$port$path"
  done > "$work/uris.txt"
  # One client a site: each opens its own TLS connection and sends the GETs in turn, over
  # HTTP/1.1 like the crawler (BENCH_H2LOAD_FLAGS="" lets it choose HTTP/2).
  local rps=()
  if [ -n "${2:-}" ]; then rps=(--rps "$2"); fi
  # shellcheck disable=SC2086 # a word list
  h2load -n $((sites * ${#paths[@]})) -c "$sites" -m 1 -t 1 --connect-to "127.0.10.2:$port" \
    ${BENCH_H2LOAD_FLAGS---h1} "${rps[@]}" -i "$work/uris.txt" > "$work/h2load.log" 2>&1
  grep -E "^requests:|^finished in|^Application protocol" "$work/h2load.log" >&2
  echo 0
}

export -f crawl sdk curls h2
export top work list ca port sites concurrency ips WEB_DIR BENCH_CRAWL_FLAGS BENCH_BIN
export BENCH_H2LOAD_FLAGS
# One row each: the crawler, each BENCH_BASE build, each other tool.
rows=(crawler)
for base in ${BENCH_BASE:-}; do rows+=("base:$base"); done
for other in $others; do
  case $other in
    sdk | curl | h2load | h2load-all | h2load-paced) rows+=("$other") ;;
    *) echo "BENCH_OTHERS: sdk, curl, h2load, h2load-all or h2load-paced, not $other"; exit 2 ;;
  esac
done
run_row() {
  case $1 in
    crawler) measure crawler "$sites" "$present" crawl ;;
    base:*) measure "$(basename "${1#base:}")" "$sites" "$present" crawl "${1#base:}" ;;
    sdk) measure sdk "$sites" "$present" sdk ;;
    curl) measure curl "$curl_sites" "$curl_present" curls ;;
    h2load) measure h2load "$sites" 0 h2 ;;
    h2load-all) measure h2load-all "$sites" 0 h2 all ;;
    h2load-paced) measure h2load-paced "$sites" 0 h2 all "${BENCH_H2LOAD_RPS:-2}" ;;
  esac
}
# Each round starts one row later than the one before: the row run first in a round costs
# less (measured: up to 10% for the same binary), so over as many rounds as rows every row
# has run in every place.
for round in $(seq 0 $((${BENCH_ROUNDS:-1} - 1))); do
  for i in $(seq 0 $((${#rows[@]} - 1))); do
    run_row "${rows[$(((i + round) % ${#rows[@]}))]}"
  done
done
web_stop
python3 - "$results" <<'PY'
import sys
sums = {}
for line in open(sys.argv[1]):
    name, n, wall, cpu, rss, found, want, web = line.split()
    s = sums.setdefault(name, [0, 0.0, 0.0, 0, 0, 0, 0.0])
    for i, v in enumerate((int(n), float(wall), float(cpu), 0, int(found), int(want), float(web))):
        s[i] += v
    s[3] = max(s[3], int(rss))
rows = {}
width = max([8] + [len(name) for name in sums])
print(f"{'tool':{width}} {'sites':>6} {'wall s':>7} {'sites/s':>8} {'client CPU ms/site':>18} {'peak RSS MB':>11} {'MCP found':>10} {'web CPU ms/site':>15}")
for name, (n, wall, cpu, rss, found, want, web) in sums.items():
    rows[name] = (n / wall, cpu * 1000 / n)
    print(f"{name:{width}} {n:6d} {wall:7.1f} {n / wall:8.0f} {cpu * 1000 / n:18.2f} {rss:>11} {f'{found}/{want}':>10} {web * 1000 / n:15.2f}")
c = rows["crawler"]
for other, o in rows.items():
    if other == "crawler":
        continue
    print(f"ratio {other}/crawler: CPU per site {o[1] / c[1]:.2f}x, crawler sites/s / {other} sites/s {c[0] / o[0]:.2f}")
PY
