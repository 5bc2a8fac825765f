#!/usr/bin/env bash
# Crawl throughput over a simulated web on loopback (default 10,000 sites): sites/s, the
# crawler's CPU seconds per 1,000 sites and its peak RSS. The simulated web runs in its own
# process so its CPU is not counted.
# usage: scripts/bench-crawl.sh [SITES] [CONCURRENCY]
set -euo pipefail
sites=${1:-10000}
concurrency=${2:-1000}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$work"' EXIT
cargo build --release -q -p mcpcensus -p mcpcensus-simweb --bins --manifest-path "$top/Cargo.toml"
mkfifo "$work/hold"
"$top/target/release/simweb" "$work/web" "$sites" 50 < "$work/hold" &
exec 3> "$work/hold"
for _ in $(seq 600); do [ -f "$work/web/ready" ] && break; sleep 0.1; done
[ -f "$work/web/ready" ] || { echo "simweb did not start"; exit 1; }
/usr/bin/time -v "$top/target/release/mcpcensus" crawl "$work/web/list.txt" --quiet \
  --out "$work/store" --resolver "$(cat "$work/web/dns.txt")" --ca-file "$work/web/ca.pem" \
  --allow-net 127.0.0.0/8 --concurrency "$concurrency" --per-ip-rps 2000 \
  --per-ip-connections 256 2> "$work/time.txt" || { cat "$work/time.txt"; exit 1; }
awk -v n="$(wc -l < "$work/web/list.txt")" -F': ' '
  /User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
  /Elapsed \(wall clock\)/ {w=$2; split(w, p, ":"); secs = (length(p) == 3) ? p[1]*3600+p[2]*60+p[3] : p[1]*60+p[2]}
  END {printf "sites=%d wall=%.1fs rate=%.0f sites/s cpu=%.2fs per 1000 sites peak_rss=%.0f MB\n",
       n, secs, n/secs, (u+s)*1000/n, r/1024}' "$work/time.txt"
