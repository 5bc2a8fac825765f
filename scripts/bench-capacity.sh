#!/usr/bin/env bash
# Capacity: how many sites a day one box measures at default politeness (two requests a
# second a host), set by how many sites it keeps in flight within its open-files limit.
# Crawls the nginx web with DELAY_MS added to every answer twice, each on a fresh web: at
# CONCURRENCY (lowered by the crawler itself to what the open-files limit covers, as in
# production) and at COMPARE_CONCURRENCY, then checks both runs gave every site the same
# verdict. Prints each run's bench-crawl summary: sites/s from the first record to the last,
# the peak in flight, the peak open files and open files a site in flight, peak RSS, the
# crawler's and the web's CPU a site, MCP servers found; then the verdict comparison. The
# crawler and the web each run on half of the CPUs (BENCH_PIN below).
# usage: scripts/bench-capacity.sh [SITES] [CONCURRENCY] [DELAY_MS] [COMPARE_CONCURRENCY]
#   defaults 100000 16000 100 1000; COMPARE_CONCURRENCY 0 skips the second run.
# Second looks are off (`--no-second-look`): the 1% of sites that answer 429/503 would
# otherwise hold the last record back by the second-look delay, which is not capacity.
# BENCH_CRAWL_FLAGS adds crawl flags to both runs; BENCH_NO_BUILD=1 and BENCH_BIN as for
# bench-crawl.sh. The open-files limit is the shell's (`ulimit -n`): run it as the census
# would run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sites=${1:-100000}
concurrency=${2:-16000}
delay_ms=${3:-100}
compare=${4:-1000}
# BENCH_OUT=DIR keeps both runs' records there (high.jsonl, low.jsonl).
if [ -n "${BENCH_OUT:-}" ]; then
  out=$BENCH_OUT
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
export BENCH_WEB=nginx
# Two nginx workers: one worker cannot answer the TLS handshakes of 16,000 sites in flight on
# 50 addresses (a lab web; the census's sites are on as many servers), and the sessions of the
# MCP sites behind it ran out of time (346 of 400 lost at 20,000 sites, one worker).
export NGINX_WORKERS=${NGINX_WORKERS:-2}
# The crawler and the lab web on their own cores (BENCH_PIN=1, the default on a box of two
# CPUs or more): the lower half of the CPUs for the crawler, the upper half for nginx and the
# simulated web. The census's servers are not on its box: sharing cores, each slowed the other
# (every wake of one preempting the other) and an MCP server starved of CPU by the crawler
# missed the session's 12 s (4 of 2,000 at 16,000 in flight). On its own cores the crawler's
# sites/s is what its cores make, and the web's cores show whether it kept up.
# BENCH_PIN=0 shares the cores, the crawler at `nice -n 10` below the web instead.
cpus=$(nproc)
if [ "${BENCH_PIN:-1}" = 1 ] && [ "$cpus" -ge 2 ]; then
  crawler_cpus="0-$(( (cpus + 1) / 2 - 1 ))"
  export BENCH_WEB_CPUS="$(( (cpus + 1) / 2 ))-$((cpus - 1))"
  export BENCH_WRAP=${BENCH_WRAP:-taskset -c $crawler_cpus}
  placement="crawler on CPUs $crawler_cpus, the web on CPUs $BENCH_WEB_CPUS"
else
  export BENCH_WRAP=${BENCH_WRAP:-nice -n 10}
  placement="crawler and web sharing the CPUs, the crawler at nice 10"
fi
export BENCH_CRAWL_FLAGS="--no-second-look ${BENCH_CRAWL_FLAGS:-}"
echo "== capacity: $sites sites, concurrency $concurrency, +${delay_ms} ms, open-files limit $(ulimit -n), $placement"
BENCH_KEEP_EXPORT="$out/high.jsonl" "$here/bench-crawl.sh" "$sites" "$concurrency" "$delay_ms"
[ "$compare" = 0 ] && exit 0
# Later builds of this script keep the binaries just built.
export BENCH_NO_BUILD=1
echo "== the same at concurrency $compare"
BENCH_KEEP_EXPORT="$out/low.jsonl" "$here/bench-crawl.sh" "$sites" "$compare" "$delay_ms"
python3 "$here/bench/same_verdicts.py" "$out/high.jsonl" "$out/low.jsonl"
