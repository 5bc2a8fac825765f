#!/usr/bin/env bash
# The main job on the embedded store, against a simulated web on loopback (no internet here):
# starts the simulated web, crawls it into ./mcpcensus-data and exports the records.
# usage: scripts/demo.sh [SITES]
set -euo pipefail
sites=${1:-100}
source "$(dirname "$0")/simweb-start.sh" "$sites" 10
bin="$release/mcpcensus"
# A real crawl waits at least a minute before a site's second look and asks each host at most
# twice a second: the demo would spend most of its time idle on a web that is all on this
# machine, so it uses shorter waits, and says so.
echo "demo: second looks after 2 s and 10 requests/s per host (--second-look-delay 2s" \
  "--per-host-rps 10; a real crawl's defaults: 1m, 2/s)"
"$bin" crawl "$SIMWEB_DIR/list.txt" --out ./mcpcensus-data \
  --resolver "$(cat "$SIMWEB_DIR/dns.txt")" --ca-file "$SIMWEB_DIR/ca.pem" --allow-net 127.0.0.0/8 \
  --per-ip-rps 200 --per-host-rps 10 --second-look-delay 2s
# The binary just built is not on PATH: name it (or `cargo install --locked --path crawler`).
echo "records: ./mcpcensus-data ($bin export --from ./mcpcensus-data | head)"
