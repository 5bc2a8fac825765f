#!/usr/bin/env bash
# What one hostile site costs: SITES copies (default 1) of the hostile catalog site (ten AI
# catalogs at the 256 KB document cap, each naming the next and otherwise ~83,000 incomplete
# entries: tests/src/hostile.rs, incomplete_catalogs) crawled alone. Prints the crawler's peak
# RSS, its CPU seconds, and the largest record written (findings, bytes of JSON), so the cost
# of a hostile catalog can be read beside a plain site's.
# usage: scripts/bench-hostile-catalog.sh [SITES]
# BENCH_BASE=BINARY adds a row for another crawler binary (a kept earlier build) on the same
# web in the same run, and the ratios.
set -euo pipefail
sites=${1:-1}
source "$(dirname "$0")/simweb-start.sh" "$sites" 1 hostile-catalog 0
bin=${CARGO_TARGET_DIR:-$top/target}/release/mcpcensus

# measure NAME BINARY: crawls the web once and prints NAME's row; sets rss_NAME, cpu_NAME.
measure() {
  local name=$1 crawler=$2
  /usr/bin/time -v "$crawler" crawl "$SIMWEB_DIR/list.txt" --quiet --out "$work/store-$name" \
    --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem" \
    --allow-net 127.0.0.0/8 --allow-net ::1/128 --per-ip-rps 100000 \
    --per-ip-connections 100000 2> "$work/time-$name.txt" \
    || { cat "$work/time-$name.txt"; exit 1; }
  "$crawler" export --from "$work/store-$name" --format jsonl -o "$work/$name.jsonl"
  local rss cpu largest
  rss=$(awk -F: '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$work/time-$name.txt")
  cpu=$(awk -F: '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.2f", u + s}' \
    "$work/time-$name.txt")
  largest=$(python3 -c '
import json, sys
rows = [line for line in open(sys.argv[1]) if line.strip()]
print(max(len(json.loads(r)["findings"]) for r in rows), max(len(r) for r in rows))
' "$work/$name.jsonl")
  printf '%-8s peak RSS %8s MB   CPU %6s s   largest record: %s findings, %s bytes\n' \
    "$name" "$rss" "$cpu" ${largest}
  eval "rss_$name=$rss cpu_$name=$cpu"
}

echo "$sites hostile catalog site(s), crawled alone:"
measure current "$bin"
if [ -n "${BENCH_BASE:-}" ]; then
  measure base "$BENCH_BASE"
  awk -v a="$rss_current" -v b="$rss_base" -v c="$cpu_current" -v d="$cpu_base" \
    'BEGIN {printf "current / base: peak RSS %.2f, CPU %.2f\n", a / b, (d > 0 ? c / d : 0)}'
fi
