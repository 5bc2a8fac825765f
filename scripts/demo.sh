#!/usr/bin/env bash
# The main job on the embedded store, against a simulated web on loopback (no internet here):
# starts the simulated web, crawls it into ./mcpcensus-data and exports the records.
# usage: scripts/demo.sh [SITES]
set -euo pipefail
sites=${1:-100}
source "$(dirname "$0")/simweb-start.sh" "$sites" 10
bin="$top/target/release/mcpcensus"
"$bin" crawl "$SIMWEB_DIR/list.txt" --out ./mcpcensus-data \
  --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem" --allow-net 127.0.0.0/8 \
  --per-ip-rps 200
# The binary just built is not on PATH: name it (or `cargo install --locked --path crawler`).
echo "records: ./mcpcensus-data ($bin export --from ./mcpcensus-data | head)"
