#!/usr/bin/env bash
# Dry-run throughput and memory over a generated list (default 10 million lines).
# Checks that exactly one record is written per distinct origin plus one per invalid line,
# and prints the peak RSS, which must stay under 300 MB.
# usage: scripts/bench-dry-run.sh [LINES] [WORKDIR]
set -euo pipefail
lines=${1:-10000000}
work=${2:-${TMPDIR:-/tmp}/mcpcensus-bench-dry-run}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
cargo build --release -q -p mcpcensus --manifest-path "$top/Cargo.toml"
bin="${CARGO_TARGET_DIR:-$top/target}/release/mcpcensus"
list="$work/list-$lines.txt"
if [ ! -f "$list" ] || [ ! -f "$list.expected" ]; then
  python3 "$top/scripts/gen-list.py" "$lines" "$list" "$work/exclude.txt" > "$list.expected"
fi
expected=$(cat "$list.expected")
rm -rf "$work/store"
/usr/bin/time -v "$bin" crawl "$list" --dry-run --exclude "$work/exclude.txt" \
  --out "$work/store" --quiet 2> "$work/time.txt"
manifest=$(ls "$work"/store/runs/*/manifest.json)
written=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["records_written"])' "$manifest")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
echo "lines=$lines records_written=$written expected=$expected peak_rss_mb=$((rss_kb / 1024)) wall=$wall"
rm -rf "$work/store"
[ "$written" = "$expected" ] || { echo "FAIL: record count differs"; exit 1; }
[ "$rss_kb" -lt $((300 * 1024)) ] || { echo "FAIL: peak RSS over 300 MB"; exit 1; }
echo "ok"
