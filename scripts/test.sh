#!/usr/bin/env bash
# The whole test suite: installs and starts what the tests need, then runs every test.
# Works on a fresh Debian machine with a Rust toolchain, as root or with sudo.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/scripts/setup.sh"
cargo test --workspace --locked "$@"
