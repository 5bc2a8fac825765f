#!/usr/bin/env bash
# ClickHouse sink throughput on loopback (Debian's 18.16 here): crawls a simulated web
# (default 10,000 sites) into the embedded store only, then into the store and ClickHouse, and
# replays the first store with `mcpcensus load` into a fresh database. Prints sites/s for both
# crawls and records/s and rows/s (sites + tools + findings rows) for the load, then for a bulk
# load of COPIES copies of that store (default 10: ~100k records at the default size).
# usage: scripts/bench-clickhouse.sh [SITES] [CONCURRENCY] [COPIES]
set -euo pipefail
sites=${1:-10000}
concurrency=${2:-1000}
copies=${3:-10}
source "$(dirname "$0")/simweb-start.sh" "$sites" 50
ch="$work/clickhouse"
url=$("$top/scripts/clickhouse.sh" start "$ch")
trap '"$top/scripts/clickhouse.sh" stop "$ch"; simweb_cleanup' EXIT
bin="${CARGO_TARGET_DIR:-$top/target}/release/mcpcensus"
common=(--quiet --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem"
  --allow-net 127.0.0.0/8 --concurrency "$concurrency" --per-ip-rps 2000
  --per-ip-connections 256)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
q() { curl -fsS "$url/" --data-binary "$1"; }
n=$(wc -l < "$SIMWEB_DIR/list.txt")

s=$(now_ms); "$bin" crawl "$SIMWEB_DIR/list.txt" --out "$work/a" "${common[@]}"; store_ms=$(( $(now_ms) - s ))
s=$(now_ms); "$bin" crawl "$SIMWEB_DIR/list.txt" --out "$work/b" --clickhouse "$url" \
  --database bench_crawl "${common[@]}" 2>/dev/null; ch_ms=$(( $(now_ms) - s ))
s=$(now_ms); "$bin" load "$work/a" --clickhouse "$url" --database bench_load >/dev/null 2>&1
load_ms=$(( $(now_ms) - s ))
for i in $(seq "$copies"); do mkdir -p "$work/bulk/$i"; cp -r "$work/a/runs" "$work/bulk/$i/"; done
s=$(now_ms); "$bin" load "$work/bulk" --clickhouse "$url" --database bench_bulk >/dev/null 2>&1
bulk_ms=$(( $(now_ms) - s ))
rows=0
for t in sites tools findings; do rows=$(( rows + $(q "SELECT count() FROM bench_load.$t FINAL") )); done
crawled=$(q "SELECT count() FROM bench_crawl.sites FINAL")
awk -v n="$n" -v a="$store_ms" -v b="$ch_ms" -v l="$load_ms" -v rows="$rows" -v c="$crawled" \
  -v k="$copies" -v bl="$bulk_ms" 'BEGIN {
  printf "crawl sites=%d store_only=%.1fs (%.0f sites/s) store+clickhouse=%.1fs (%.0f sites/s), %d sites rows\n",
    n, a/1000, n*1000/a, b/1000, n*1000/b, c
  printf "load records=%d rows=%d in %.2fs: %.0f records/s, %.0f rows/s (whole command, start-up included)\n",
    n, rows, l/1000, n*1000/l, rows*1000/l
  printf "bulk load records=%d rows=%d in %.2fs: %.0f records/s, %.0f rows/s inserted\n",
    n*k, rows*k, bl/1000, n*k*1000/bl, rows*k*1000/bl }'
[ "$crawled" = "$n" ] || { echo "FAIL: $crawled sites rows for $n sites crawled"; exit 1; }
