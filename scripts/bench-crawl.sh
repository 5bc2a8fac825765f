#!/usr/bin/env bash
# Crawl benchmark over a web on loopback, the web in its own processes (its CPU is measured
# apart): the simulated web, or with BENCH_WEB=nginx the same sites served by nginx
# (scripts/nginx-web-start.sh). Prints sites/s, the crawler's CPU
# ms per site, peak RSS, the most sites in flight at once, requests per site, MCP servers found/present (and why any was
# lost), and achieved ÷ ideal throughput,
# the ideal being the CPU-bound ceiling: cores ÷ (crawler + web CPU per site), against the
# steady-state rate (the middle 80% of the records, apart from start-up and the slow tail).
# usage: scripts/bench-crawl.sh [SITES] [CONCURRENCY] [DELAY_MS] [MIX]
#   MIX: realistic (default: 97% plain, 2% card + MCP server, 1% 401/429/503/redirect)
#        or tenth (one in ten an MCP server, plus the demo sites)
#        or plain / servers (only the realistic mix's no-MCP / card + MCP server sites: the
#        CPU a site of each kind, apart)
#        or shapes (the real web's shapes: tests/src/shapes.rs)
# Extra crawl flags can be given in BENCH_CRAWL_FLAGS; BENCH_BIN names another crawler binary
# (e.g. a kept copy of an earlier build, to compare in one run); BENCH_WRAP is put before the
# crawl command (taskset, nice, or a profiler: "perf record -g -o FILE --", "valgrind --tool=callgrind");
# BENCH_KEEP_EXPORT=FILE keeps the run's records as JSON lines.
# BENCH_COMPARE names flags to compare in one run: the benchmark runs twice over the same
# arguments, without them and then with them (e.g. BENCH_COMPARE=--readiness: the readiness
# level's requests and CPU per site against the survey alone), each on a fresh web.
set -euo pipefail
if [[ -n "${BENCH_COMPARE:-}" ]]; then
  echo "== without ${BENCH_COMPARE}: ${BENCH_CRAWL_FLAGS:-(no extra flags)}"
  BENCH_COMPARE='' "$0" "$@"
  # Into a variable first: assignments before a command expand left to right, so one that
  # empties BENCH_COMPARE before naming it would lose the flags being compared.
  with="${BENCH_CRAWL_FLAGS:-} ${BENCH_COMPARE}"
  echo "== with ${BENCH_COMPARE}: ${with}"
  BENCH_COMPARE='' BENCH_CRAWL_FLAGS="$with" "$0" "$@"
  exit 0
fi
sites=${1:-10000}
concurrency=${2:-1000}
delay_ms=${3:-0}
export BENCH_MIX=${4:-realistic}
case ${BENCH_WEB:-simweb} in
  simweb) source "$(dirname "$0")/simweb-start.sh" "$sites" 50 "$BENCH_MIX" "$delay_ms" ;;
  nginx) source "$(dirname "$0")/nginx-web-start.sh" "$sites" 50 "$BENCH_MIX" "$delay_ms" ;;
  *) echo "BENCH_WEB: simweb or nginx, not ${BENCH_WEB}"; exit 2 ;;
esac
# BENCH_WEB_CPUS=LIST pins the web's processes and threads to those CPUs (taskset's list), so
# with the crawler pinned to the others (BENCH_WRAP="taskset -c 0") the crawler's sites/s a
# core is measured, not shared with the web.
if [ -n "${BENCH_WEB_CPUS:-}" ]; then
  for pid in ${NGINX_PID:-} $( [ -n "${NGINX_PID:-}" ] && pgrep -P "$NGINX_PID") $SIMWEB_PID; do
    taskset -a -p -c "$BENCH_WEB_CPUS" "$pid" > /dev/null
  done
fi
web_before=$(web_cpu)
simweb_before=$(simweb_cpu)
bin=${BENCH_BIN:-$release/mcpcensus}
# Samples the store's size, the crawler's RSS and its open files twice a second: the steady-state rate is
# read off the middle of the run (10% to 90% of the records), apart from the start-up and the
# slow tail, and the RSS at each quarter of the records shows whether memory stays flat.
( while sleep 0.5; do
    # Before the crawler starts (a loaded machine) there is none yet: no RSS, not an error.
    pid=$(pgrep -n -f -- "--out $work/store" || true)
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    # Open files: every descriptor the crawler holds (sockets, store files, the runtime's).
    fds=$( { [ -n "$pid" ] && find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; } || echo 0)
    echo "$(date +%s.%N) $(find "$work/store" -type f -printf '%s\n' 2>/dev/null | awk '{s+=$1} END {printf "%.0f", s}') ${rss:-0} ${fds:-0}"
  done > "$work/progress.txt" ) &
sampler=$!
# shellcheck disable=SC2086 # BENCH_WRAP and BENCH_CRAWL_FLAGS are word lists
/usr/bin/time -v ${BENCH_WRAP:-} "$bin" crawl "$WEB_DIR/list.txt" --quiet \
  --out "$work/store" --resolver "$(cat "$WEB_DIR/dns.txt")" --ca-file "$WEB_DIR/ca.pem" \
  --allow-net 127.0.0.0/8 --allow-net ::1/128 --concurrency "$concurrency" --per-ip-rps 100000 \
  --per-ip-connections 100000 --stats-json "$work/stats.json" ${BENCH_CRAWL_FLAGS:-} \
  2> "$work/time.txt" \
  || { kill "$sampler"; cat "$work/time.txt"; exit 1; }
web_after=$(web_cpu)
simweb_after=$(simweb_cpu)
kill "$sampler" 2> /dev/null || true
web_stop
"$bin" export --from "$work/store" --format jsonl -o "$work/export.jsonl"
# BENCH_KEEP_EXPORT=FILE keeps the records (bench-capacity.sh compares two runs' verdicts).
[ -z "${BENCH_KEEP_EXPORT:-}" ] || cp "$work/export.jsonl" "$BENCH_KEEP_EXPORT"
python3 "$top/scripts/bench/summary.py" "$work/export.jsonl" "$WEB_DIR/kinds.txt" \
  "$WEB_DIR/requests.txt" "$work/time.txt" "$(awk -v a="$web_after" -v b="$web_before" 'BEGIN {print a - b}')" \
  "$concurrency" "$delay_ms" "$work/progress.txt" "$work/stats.json"
# The web's CPU a site split: the simulated web (its DNS server answering every site's
# look-ups, and the MCP servers) and the rest (nginx, on the nginx web).
awk -v a="$simweb_after" -v b="$simweb_before" -v w="$web_after" -v wb="$web_before" -v n="$sites" \
  'BEGIN { printf "web_cpu_ms_per_site_simweb=%.2f web_cpu_ms_per_site_rest=%.2f\n", (a - b) * 1000 / n, ((w - wb) - (a - b)) * 1000 / n }'
