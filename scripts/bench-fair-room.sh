#!/usr/bin/env bash
# Fairness of the waiting room per address (issue 28): SITES plain sites on one address (a
# hosting platform, listed first) plus SITES plain sites each on an address of its own, under
# politeness that makes the shared address slow (one site at a time on it, PER_IP_RPS
# requests a second: ~50 sites/s by default). Reports when the sites on their own addresses were all done, against a
# crawl of those alone (their unshared rate), as a ratio: 1 is fair; an address's backlog
# holding the others back shows as the shared address's own pace.
# usage: scripts/bench-fair-room.sh [SITES] [CONCURRENCY] [PER_IP_RPS]
# BENCH_BIN names the crawler measured (default: this tree's release build); BENCH_OLD_BIN
# another (e.g. a kept copy of an earlier build), crawled the same way so both appear side by
# side. BENCH_MAX_DURATION caps each crawl (default 20m; sites not started by then are
# recorded so and reported as not done).
set -euo pipefail
sites=${1:-5000}
concurrency=${2:-1000}
rps=${3:-400}
source "$(dirname "$0")/simweb-start.sh" "$sites" 1 fair 0
bin=${BENCH_BIN:-${CARGO_TARGET_DIR:-$top/target}/release/mcpcensus}
# The host rate high, so a site's own requests do not pace it: the shared address's pace is
# its per-IP rate over a site's requests (~8), one site at a time.
politeness=(--per-ip-connections 1 --per-ip-rps "$rps" --per-host-rps 1000)

# crawl LABEL BIN LIST: one crawl into its own store; prints its figures as key=value.
crawl() {
  local label=$1 crawler=$2 list=$3 store="$work/store-$1"
  local started
  started=$(date +%s%3N)
  /usr/bin/time -v "$crawler" crawl "$list" --quiet --out "$store" \
    --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem" \
    --allow-net 127.0.0.0/8 --concurrency "$concurrency" "${politeness[@]}" \
    --max-duration "${BENCH_MAX_DURATION:-20m}" 2> "$work/time-$label.txt" \
    || { cat "$work/time-$label.txt"; exit 1; }
  "$crawler" export --from "$store" --format jsonl -o "$work/export-$label.jsonl"
  python3 - "$work/export-$label.jsonl" "$work/time-$label.txt" "$started" "$label" <<'EOF'
import datetime, json, re, sys
export, timefile, started, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
ends = {"own": [], "shared": []}
not_done = {"own": 0, "shared": 0}
for line in open(export):
    r = json.loads(line)
    kind = "own" if r["input"].startswith("own") else "shared"
    if r["outcome"] == "not_started":
        not_done[kind] += 1
        continue
    at = datetime.datetime.fromisoformat(r["scanned_at"].replace("Z", "+00:00"))
    ends[kind].append(at.timestamp() * 1000 + r["timings"]["total_ms"] - started)
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(timefile).read())
fields = [f"run={label}"]
for kind in ("own", "shared"):
    if ends[kind] or not_done[kind]:
        done = max(ends[kind]) / 1000 if ends[kind] else 0
        fields.append(f"{kind}_done={len(ends[kind])}")
        fields.append(f"{kind}_all_done_s={done:.1f}")
        fields.append(f"{kind}_not_done={not_done[kind]}")
fields.append(f"peak_rss_mb={int(rss.group(1)) // 1024 if rss else 0}")
print(" ".join(fields))
EOF
}

ratio() { # LINE: own_all_done_s of LINE ÷ that of the crawl alone
  local t
  t=$(sed -n 's/.*own_all_done_s=\([0-9.]*\).*/\1/p' <<< "$1")
  awk -v t="$t" -v a="$alone_s" 'BEGIN {printf "%.2f", t / a}'
}

echo "sites: $sites on one address + $sites on their own; --concurrency $concurrency," \
  "--per-ip-connections 1 --per-ip-rps $rps"
alone=$(crawl alone "$bin" "$SIMWEB_DIR/own.txt")
echo "$alone"
alone_s=$(sed -n 's/.*own_all_done_s=\([0-9.]*\).*/\1/p' <<< "$alone")
both=$(crawl both "$bin" "$SIMWEB_DIR/list.txt")
echo "$both own_done_time_vs_alone=$(ratio "$both")"
if [ -n "${BENCH_OLD_BIN:-}" ]; then
  old=$(crawl old "$BENCH_OLD_BIN" "$SIMWEB_DIR/list.txt")
  echo "$old own_done_time_vs_alone=$(ratio "$old")"
fi
