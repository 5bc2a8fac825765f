#!/usr/bin/env bash
# The README's first command on a clean clone of HEAD, run as the README gives it
# (`scripts/demo.sh` from the clone's folder): it must exit 0 and print the crawl's summary.
# Its release build uses CARGO_TARGET_DIR (this checkout's target directory unless set), so
# the dependencies already built are reused and only the workspace's crates compile again.
# usage: scripts/check-demo.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mcpcensus-check-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q --no-hardlinks "$top" "$work/clone"
cd "$work/clone"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$top/target}
code=0
scripts/demo.sh > "$work/out" 2>&1 || code=$?
cat "$work/out"
[ "$code" = 0 ] || { echo "FAIL: scripts/demo.sh exited $code"; exit 1; }
summary=$(grep -E '^run [^ ]+: [0-9]+ records written in [0-9.]+s' "$work/out") \
  || { echo "FAIL: scripts/demo.sh printed no summary"; exit 1; }
grep -q '^input: [0-9]* lines read = ' "$work/out" \
  || { echo "FAIL: the summary has no input line"; exit 1; }
echo "demo ok: $summary"
