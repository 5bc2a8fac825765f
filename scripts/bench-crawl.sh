#!/usr/bin/env bash
# Crawl throughput over a simulated web on loopback (default 10,000 sites): sites/s, the
# crawler's CPU seconds per 1,000 sites and its peak RSS. The simulated web runs in its own
# process so its CPU is not counted.
# usage: scripts/bench-crawl.sh [SITES] [CONCURRENCY]
set -euo pipefail
sites=${1:-10000}
concurrency=${2:-1000}
source "$(dirname "$0")/simweb-start.sh" "$sites" 50
/usr/bin/time -v "$top/target/release/mcpcensus" crawl "$SIMWEB_DIR/list.txt" --quiet \
  --out "$work/store" --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem" \
  --allow-net 127.0.0.0/8 --concurrency "$concurrency" --per-ip-rps 2000 \
  --per-ip-connections 256 2> "$work/time.txt" || { cat "$work/time.txt"; exit 1; }
awk -v n="$(wc -l < "$SIMWEB_DIR/list.txt")" -F': ' '
  /User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
  /Elapsed \(wall clock\)/ {w=$2; split(w, p, ":"); secs = (length(p) == 3) ? p[1]*3600+p[2]*60+p[3] : p[1]*60+p[2]}
  END {printf "sites=%d wall=%.1fs rate=%.0f sites/s cpu=%.2fs per 1000 sites peak_rss=%.0f MB\n",
       n, secs, n/secs, (u+s)*1000/n, r/1024}' "$work/time.txt"
