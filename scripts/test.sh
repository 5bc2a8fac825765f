#!/usr/bin/env bash
# The whole test suite: installs and starts what the tests need, then runs every test.
# Works on a fresh Debian machine with a Rust toolchain, as root or with sudo.
# A ClickHouse server is started on loopback for the run (its own data dir, free ports) and
# stopped after; the tests find it through MCPCENSUS_TEST_CLICKHOUSE and, with that set,
# fail (never skip) when it does not answer.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/scripts/setup.sh"
ch_dir=$(mktemp -d /tmp/mcpcensus-test-clickhouse.XXXXXX)
trap '"$top/scripts/clickhouse.sh" stop "$ch_dir"; rm -rf "$ch_dir"' EXIT
MCPCENSUS_TEST_CLICKHOUSE=$("$top/scripts/clickhouse.sh" start "$ch_dir")
export MCPCENSUS_TEST_CLICKHOUSE
cargo test --workspace --locked "$@"
