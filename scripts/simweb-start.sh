# Sourced by scripts that crawl a simulated web: builds the release binaries and starts
# `simweb $SIMWEB_DIR ARGS...` in the background, serving until the sourcing script exits
# (or calls simweb_stop). Sets: top, release (the folder of the release binaries, under
# CARGO_TARGET_DIR when set), work (a temporary folder removed on exit), SIMWEB_DIR,
# SIMWEB_PID, and what every benchmark web's start script sets (scripts/nginx-web-start.sh
# the same): WEB_DIR (list.txt, kinds.txt, ca.pem, dns.txt; requests.txt after web_stop),
# web_cpu (the web's CPU seconds so far), simweb_cpu (the simulated web's share of it) and
# web_stop. A script that sets its own EXIT trap
# calls simweb_cleanup from it.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
release=${CARGO_TARGET_DIR:-$top/target}/release
work=$(mktemp -d)
SIMWEB_PID=
# Stops the web and waits for it to write its request count.
simweb_stop() { exec 3>&-; wait "$SIMWEB_PID" || true; }
# The web writes into $work until it ends: stop it and wait for it before removing anything.
simweb_cleanup() { [ -z "$SIMWEB_PID" ] || simweb_stop; rm -rf "$work"; }
trap simweb_cleanup EXIT
SIMWEB_DIR="$work/web"
# BENCH_NO_BUILD=1 runs the binaries as they are (e.g. to measure a kept copy).
[ -n "${BENCH_NO_BUILD:-}" ] \
  || cargo build --release -q -p mcpcensus -p mcpcensus-simweb --bins --manifest-path "$top/Cargo.toml"
mkfifo "$work/hold"
"$release/simweb" "$SIMWEB_DIR" "$@" < "$work/hold" &
SIMWEB_PID=$!
exec 3> "$work/hold"
for _ in $(seq 600); do [ -f "$SIMWEB_DIR/ready" ] && break; sleep 0.1; done
# Killed first, so the exit does not wait for a web that may never end.
[ -f "$SIMWEB_DIR/ready" ] || { echo "simweb did not start"; kill "$SIMWEB_PID"; exit 1; }
WEB_DIR=$SIMWEB_DIR
web_ticks=$(getconf CLK_TCK)
# The simulated web's CPU seconds (its DNS server and MCP servers): here the whole web's.
simweb_cpu() { awk -v t="$web_ticks" '{print ($14 + $15) / t}' "/proc/$SIMWEB_PID/stat"; }
web_cpu() { simweb_cpu; }
web_stop() { simweb_stop; }
