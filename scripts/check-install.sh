#!/usr/bin/env bash
# The README's install step on a clean clone of HEAD: `cargo install --locked --path crawler`,
# then `mcpcensus --version` from the install root, checked against the workspace version.
# Cheap enough for CI: `--debug` and this checkout's target directory (CARGO_TARGET_DIR), so
# the dependencies already built are reused and only the workspace's crates compile again.
# `CHECK_INSTALL_RELEASE=1` installs as the README does (a release build of everything).
# usage: scripts/check-install.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mcpcensus-check-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q --no-hardlinks "$top" "$work/clone"
profile=(--debug)
[ "${CHECK_INSTALL_RELEASE:-0}" = 1 ] && profile=()
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$top/target} \
  cargo install -q --locked "${profile[@]}" --path "$work/clone/crawler" --root "$work/root"
got=$("$work/root/bin/mcpcensus" --version)
want="mcpcensus $(cargo metadata --no-deps --format-version 1 --manifest-path "$work/clone/Cargo.toml" \
  | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "mcpcensus"))')"
[ "$got" = "$want" ] || { echo "FAIL: mcpcensus --version says '$got', expected '$want'"; exit 1; }
echo "install ok: $got"
