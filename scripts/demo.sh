#!/usr/bin/env bash
# The main job on the embedded store, against a simulated web on loopback (no internet here):
# starts the simulated web, crawls it into ./mcpcensus-data and exports the records.
# usage: scripts/demo.sh [SITES]
set -euo pipefail
sites=${1:-100}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$work"' EXIT
cargo build --release -q -p mcpcensus -p mcpcensus-simweb --bins --manifest-path "$top/Cargo.toml"
mkfifo "$work/hold"
"$top/target/release/simweb" "$work/web" "$sites" 10 < "$work/hold" &
exec 3> "$work/hold"
for _ in $(seq 600); do [ -f "$work/web/ready" ] && break; sleep 0.1; done
[ -f "$work/web/ready" ] || { echo "simweb did not start"; exit 1; }
"$top/target/release/mcpcensus" crawl "$work/web/list.txt" --out ./mcpcensus-data \
  --resolver "$(cat "$work/web/dns.txt")" --ca-file "$work/web/ca.pem" --allow-net 127.0.0.0/8 \
  --per-ip-rps 200 --site-deadline 10
echo "records: ./mcpcensus-data (mcpcensus export --from ./mcpcensus-data | head)"
