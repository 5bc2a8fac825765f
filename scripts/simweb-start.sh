# Sourced by scripts that crawl a simulated web: builds the release binaries and starts
# `simweb $SIMWEB_DIR $1 $2` in the background, serving until the sourcing script exits.
# Sets: top, work (a temporary folder removed on exit), SIMWEB_DIR.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'exec 3>&-; rm -rf "$work"' EXIT
SIMWEB_DIR="$work/web"
cargo build --release -q -p mcpcensus -p mcpcensus-simweb --bins --manifest-path "$top/Cargo.toml"
mkfifo "$work/hold"
"$top/target/release/simweb" "$SIMWEB_DIR" "$1" "$2" < "$work/hold" &
exec 3> "$work/hold"
for _ in $(seq 600); do [ -f "$SIMWEB_DIR/ready" ] && break; sleep 0.1; done
[ -f "$SIMWEB_DIR/ready" ] || { echo "simweb did not start"; exit 1; }
