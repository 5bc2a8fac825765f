#!/usr/bin/env bash
# Report time over a large run, from the embedded store and from ClickHouse (Debian's 18.16
# here): crawls a simulated web (default 10,000 sites) twice into one store, blows each run up
# to RECORDS records (default 1,000,000) with distinct origins (benches/examples/
# report_fixture.rs), loads that store into ClickHouse, then times `report --format json` for
# the latest run and for its comparison with the first, from both back ends, and checks the
# two back ends' JSON are identical.
# usage: scripts/bench-report.sh [SITES] [RECORDS]
set -euo pipefail
sites=${1:-10000}
records=${2:-1000000}
source "$(dirname "$0")/simweb-start.sh" "$sites" 50
ch="$work/clickhouse"
url=$("$top/scripts/clickhouse.sh" start "$ch")
trap '"$top/scripts/clickhouse.sh" stop "$ch"; simweb_cleanup' EXIT
cargo build --release -q -p mcpcensus-benches --example report_fixture --manifest-path "$top/Cargo.toml"
bin="${CARGO_TARGET_DIR:-$top/target}/release/mcpcensus"
fixture="${CARGO_TARGET_DIR:-$top/target}/release/examples/report_fixture"
common=(--quiet --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem"
  --allow-net 127.0.0.0/8 --concurrency 1000 --per-ip-rps 2000 --per-ip-connections 256)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
q() { curl -fsS "$url/" --data-binary "$1"; }

"$bin" crawl "$SIMWEB_DIR/list.txt" --out "$work/a" "${common[@]}"
sleep 1.1 # distinct run ids
"$bin" crawl "$SIMWEB_DIR/list.txt" --out "$work/a" "${common[@]}"
s=$(now_ms); "$fixture" "$work/a" "$work/big" "$records"; fixture_ms=$(( $(now_ms) - s ))
first=$(ls "$work/big/runs" | sort | head -1)
s=$(now_ms); "$bin" load "$work/big" --clickhouse "$url" --database bench_report >/dev/null 2>&1
load_ms=$(( $(now_ms) - s ))
rows=$(q "SELECT count() FROM bench_report.sites FINAL")
timed() { # name, args...: runs `mcpcensus report ARGS --format json -o $work/NAME.json`
  local name=$1; shift
  local s; s=$(now_ms)
  "$bin" report "$@" --format json -o "$work/$name.json" 2>/dev/null
  echo $(( $(now_ms) - s ))
}
store_ms=$(timed store --from "$work/big")
ch_ms=$(timed ch --clickhouse "$url" --database bench_report)
store_cmp_ms=$(timed store-cmp --from "$work/big" --compare "$first")
ch_cmp_ms=$(timed ch-cmp --clickhouse "$url" --database bench_report --compare "$first")
same=yes
cmp -s "$work/store.json" "$work/ch.json" || same=no
cmp -s "$work/store-cmp.json" "$work/ch-cmp.json" || same=no
awk -v r="$records" -v rows="$rows" -v f="$fixture_ms" -v l="$load_ms" -v a="$store_ms" \
  -v b="$ch_ms" -v c="$store_cmp_ms" -v d="$ch_cmp_ms" -v same="$same" 'BEGIN {
  printf "fixture: 2 runs x %d records in %.1fs; load into ClickHouse %.1fs; %d sites rows\n", r, f/1000, l/1000, rows
  printf "report of one run (%d records): embedded store %.2fs, ClickHouse %.2fs\n", r, a/1000, b/1000
  printf "report with --compare (2 x %d records): embedded store %.2fs, ClickHouse %.2fs\n", r, c/1000, d/1000
  printf "identical JSON from both back ends: %s\n", same }'
[ "$same" = yes ] || { echo "FAIL: the back ends disagree"; diff <(tr , '\n' < "$work/store.json") <(tr , '\n' < "$work/ch.json") | head -20; exit 1; }
