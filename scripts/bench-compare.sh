#!/usr/bin/env bash
# Side by side in one run over one simulated web (realistic mix, the web in its own process):
# the crawler, an asyncio scanner on the official MCP Python SDK, the survey's curl sequence
# run with `xargs -P`, and h2load making the discovery GETs of every site on a new TLS
# connection each. Prints each tool's sites/s, client CPU ms per site and MCP servers found,
# then the ratios. curl runs over the first CURL_SITES sites only (it is ~100× slower).
# usage: scripts/bench-compare.sh [SITES] [CONCURRENCY] [DELAY_MS] [CURL_SITES]
# BENCH_BASE=BINARY adds a row for another crawler binary (a kept earlier build);
# BENCH_CRAWL_FLAGS adds crawl flags (e.g. "--per-host-rps 1000 --per-host-burst 16" to lift
# the per-host politeness the other tools do not have).
set -euo pipefail
sites=${1:-2000}
concurrency=${2:-500}
delay_ms=${3:-0}
curl_sites=${4:-300}
ips=50
# The other tools are not Rust crates: install them on a machine that lacks them.
if ! { command -v h2load && command -v curl && [ -x /usr/bin/time ] \
  && python3 -c "import mcp.client.streamable_http, httpx2"; } >/dev/null 2>&1; then
  "$(dirname "$0")/setup.sh" bench
fi
source "$(dirname "$0")/simweb-start.sh" "$sites" "$ips" realistic "$delay_ms"
ticks=$(getconf CLK_TCK)
web_cpu() { awk -v t="$ticks" '{print ($14 + $15) / t}' "/proc/$SIMWEB_PID/stat"; }
list="$SIMWEB_DIR/list.txt"
ca="$SIMWEB_DIR/ca.pem"
port=$(head -1 "$list" | sed 's/.*://')
present=$(awk '$1 == "mcp" {print $2}' "$SIMWEB_DIR/kinds.txt")
head -n "$curl_sites" "$list" > "$work/curl-list.txt"
curl_present=$(python3 -c "
import sys; print(sum(1 for l in open(sys.argv[1]) if int(l[4:].split('.')[0]) % 50 == 0))" "$work/curl-list.txt")
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
# A tool that times its own work (the SDK scanner, whose imports take seconds) says so.
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
  local bin=${1:-$top/target/release/mcpcensus}
  rm -rf "$work/store"
  "$bin" crawl "$list" --quiet --out "$work/store" \
    --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$ca" --allow-net 127.0.0.0/8 \
    --concurrency "$concurrency" --per-ip-rps 100000 --per-ip-connections 100000 \
    ${BENCH_CRAWL_FLAGS:-} 2>&1
  "$bin" export --from "$work/store" --format jsonl \
    | python3 -c "import json,sys; print(sum(1 for l in sys.stdin if json.loads(l)['outcome'] == 'pass'))"
}
sdk() { python3 "$top/scripts/bench/sdk_scanner.py" "$list" "$ca" "$concurrency" "$ips"; }
curls() {
  xargs -P "$concurrency" -n 1 "$top/scripts/bench/curl_site.sh" "$ca" "$ips" < "$work/curl-list.txt" \
    | grep -c found || true
}
h2() {
  for path in / /.well-known/mcp/server-card.json /.well-known/mcp.json \
    /.well-known/mcp-server-card.json /.well-known/mcp/server-card /.well-known/ai-catalog.json /mcp; do
    echo "https://site1.bench.test:$port$path"
  done > "$work/uris.txt"
  # One client a site: each opens its own TLS connection and sends the seven GETs.
  h2load -n $((sites * 7)) -c "$sites" -m 1 -t 1 --connect-to "127.0.10.2:$port" \
    -i "$work/uris.txt" > "$work/h2load.log" 2>&1
  grep -E "^requests:|^finished in" "$work/h2load.log" >&2
  echo 0
}

export -f crawl sdk curls h2
export top work list ca port sites concurrency ips SIMWEB_DIR BENCH_CRAWL_FLAGS
measure crawler "$sites" "$present" crawl
[ -z "${BENCH_BASE:-}" ] || measure baseline "$sites" "$present" crawl "$BENCH_BASE"
measure sdk "$sites" "$present" sdk
measure curl "$curl_sites" "$curl_present" curls
measure h2load "$sites" 0 h2
simweb_stop
python3 - "$results" <<'PY'
import sys
rows = {}
print(f"{'tool':8} {'sites':>6} {'wall s':>7} {'sites/s':>8} {'client CPU ms/site':>18} {'peak RSS MB':>11} {'MCP found':>10} {'web CPU ms/site':>15}")
for line in open(sys.argv[1]):
    name, n, wall, cpu, rss, found, want, web = line.split()
    n, wall, cpu, web = int(n), float(wall), float(cpu), float(web)
    rows[name] = (n / wall, cpu * 1000 / n)
    print(f"{name:8} {n:6d} {wall:7.1f} {n / wall:8.0f} {cpu * 1000 / n:18.2f} {rss:>11} {found + '/' + want:>10} {web * 1000 / n:15.2f}")
c = rows["crawler"]
for other in ("baseline", "sdk", "curl", "h2load"):
    if other not in rows:
        continue
    o = rows[other]
    print(f"ratio {other}/crawler: CPU per site {o[1] / c[1]:.1f}x, crawler sites/s / {other} sites/s {c[0] / o[0]:.2f}")
PY
