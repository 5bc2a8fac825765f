#!/usr/bin/env bash
# Installs what the test suite needs and is not a Rust crate. Idempotent; quick when done.
#  - python3 with the official MCP Python SDK (the real-server tests scan it)
#  - Debian's chromium (the HTML report is opened in it headless)
#  - Debian's ClickHouse server and client (the ClickHouse sink's tests run against it)
#  - cargo-fuzz, when a nightly toolchain is installed (scripts/fuzz.sh)
#  - chdb (ClickHouse 26.x in-process: the schema and queries are compared with 18.16's) and
#    pyarrow (the Parquet export is read back with it), PyYAML (the Kubernetes manifests'
#    test parses them)
#  - GNU time, h2load, nginx and its echo module (the crawl benchmarks, scripts/bench-*.sh;
#    the echo module adds the nginx web's delay)
# `scripts/setup.sh bench` installs only what the benchmarks need (GNU time, curl, h2load,
# nginx, the MCP Python SDK): scripts/bench-compare.sh calls it on a machine that lacks them.
set -euo pipefail
only_bench=""; [ "${1:-}" = bench ] && only_bench=1
MCP_SDK_VERSION=2.3.0
CHDB_VERSION=4.4.0
PYARROW_VERSION=26.0.1
PYYAML_VERSION=6.0.3
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
need=()
command -v python3 >/dev/null || need+=(python3)
# Debian's python3 comes without pip (a separate package).
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
command -v cc >/dev/null || need+=(gcc)
[ -n "$only_bench" ] || command -v chromium >/dev/null || need+=(chromium)
command -v curl >/dev/null || need+=(curl)
[ -x /usr/bin/time ] || need+=(time)
command -v h2load >/dev/null || need+=(nghttp2-client)
command -v nginx >/dev/null || need+=(nginx-light)
[ -e /usr/lib/nginx/modules/ngx_http_echo_module.so ] || need+=(libnginx-mod-http-echo)
if [ ${#need[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
if ! python3 -c "import mcp.server.mcpserver" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    "mcp==${MCP_SDK_VERSION}" \
    || python3 -m pip install --quiet --break-system-packages "mcp==${MCP_SDK_VERSION}"
fi
[ -z "$only_bench" ] || exit 0
pip_install() {
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$@" \
    || python3 -m pip install --quiet --break-system-packages "$@"
}
if ! python3 -c "import chdb, pyarrow, yaml" 2>/dev/null; then
  pip_install "chdb==${CHDB_VERSION}" "pyarrow==${PYARROW_VERSION}" "pyyaml==${PYYAML_VERSION}"
fi
"$(dirname "$0")/clickhouse.sh" install
# The fuzz targets (scripts/fuzz.sh, CI's short run) need nightly's cargo-fuzz.
if ! command -v cargo-fuzz >/dev/null && cargo +nightly --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked --quiet
fi
