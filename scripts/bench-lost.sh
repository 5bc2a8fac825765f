#!/usr/bin/env bash
# MCP servers lost to the crawler's own saturation: the crawl bench over SITES sites (realistic
# mix) with DELAY_MS added to every answer, at each concurrency. Each line: the bench's
# figures; "mcp_lost" is the target (0) and the indented lines say why each was lost.
# usage: scripts/bench-lost.sh [SITES] [DELAY_MS] [CONCURRENCY...]
set -euo pipefail
sites=${1:-20000}
delay_ms=${2:-100}
shift $(( $# < 2 ? $# : 2 ))
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(1000 5000 10000 20000)
# Every site in flight holds a socket in the crawler and one in the web.
ulimit -n "$(ulimit -Hn)"
echo "open files limit: $(ulimit -n)"
for concurrency in "${levels[@]}"; do
  "$(dirname "$0")/bench-crawl.sh" "$sites" "$concurrency" "$delay_ms" realistic \
    || echo "concurrency $concurrency: the bench failed"
done
