#!/usr/bin/env bash
# Peak memory of a sharded re-scan: writes a history of SITES sites (default 1,000,000), all
# stale (benches/examples/rescan_history.rs), then runs `crawl --rescan-older-than 7d
# --dry-run` unsharded (--shard 0/1: every pod's memory before re-scans read only their own
# shard, as it also plans every site) and as the four shards 0/4..3/4, one after another on
# the same history (dry runs are not history). Prints each run's sites, peak RSS (GNU time)
# and wall time, the largest shard's RSS as a share of the unsharded run's, and checks the
# four shards re-scan every site exactly once between them.
# BENCH_PROFILE=debug uses the dev build (same data structures, slower) where a release build
# is out of reach.
# usage: scripts/bench-rescan-shards.sh [SITES] [WORKDIR]
set -euo pipefail
sites=${1:-1000000}
work=${2:-${TMPDIR:-/tmp}/mcpcensus-bench-rescan-shards}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
profile=${BENCH_PROFILE:-release}
flag=--release; dir=release
[ "$profile" = debug ] && { flag=; dir=debug; }
cargo build $flag -q -p mcpcensus --manifest-path "$top/Cargo.toml"
cargo build $flag -q -p mcpcensus-benches --example rescan_history --manifest-path "$top/Cargo.toml"
bin="$top/target/$dir/mcpcensus"
store="$work/store-$sites"
history=20000101T000000Z-history
if [ ! -f "$store/runs/$history/manifest.json" ]; then
  rm -rf "$store"
  "$top/target/$dir/examples/rescan_history" "$store" "$sites"
fi
clear_runs() { # everything but the history
  find "$store/runs" -mindepth 1 -maxdepth 1 ! -name "$history" -exec rm -rf {} +
}
clear_runs
echo "history: $sites sites ($profile build); load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-6s %10s %12s %10s\n' shard sites peak_rss_mb wall
total=0
for shard in 0/1 0/4 1/4 2/4 3/4; do
  /usr/bin/time -v "$bin" crawl --rescan-older-than 7d --shard "$shard" --dry-run \
    --out "$store" --quiet 2> "$work/time.txt"
  manifest=$(find "$store/runs" -mindepth 2 -maxdepth 2 -name manifest.json ! -path "*/$history/*")
  written=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["records_written"])' "$manifest")
  rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
  printf '%-6s %10s %12s %10s\n' "$shard" "$written" "$((rss_kb / 1024))" "$wall"
  if [ "$shard" = 0/1 ]; then
    all_kb=$rss_kb
    [ "$written" = "$sites" ] || { echo "FAIL: the unsharded re-scan wrote $written records"; exit 1; }
  else
    total=$((total + written))
    max_kb=$(( rss_kb > ${max_kb:-0} ? rss_kb : ${max_kb:-0} ))
  fi
  clear_runs
done
[ "$total" = "$sites" ] || { echo "FAIL: the shards re-scanned $total sites, not $sites"; exit 1; }
awk -v m="$max_kb" -v a="$all_kb" 'BEGIN {
  printf "largest shard peak RSS / unsharded: %d MB / %d MB = %.2f\n", m/1024, a/1024, m/a }'
echo ok
