#!/usr/bin/env bash
# Kills a crawl of a simulated web with SIGKILL at random moments, resuming it each time, then
# checks that every input line has exactly one record and every MCP site passed.
# usage: scripts/kill-resume.sh [--clickhouse URL [--both]] [KILLS] [SITES]
#   --clickhouse URL  records go to ClickHouse alone (a new database killresume_<pid>, dropped
#                     after); the check reads them back with FINAL
#   --both            with --clickhouse: to the embedded store too (both are checked)
# PROFILE=debug skips the release build.
set -euo pipefail
ch_url=""; both=0
while [ $# -gt 0 ]; do
  case $1 in
    --clickhouse) ch_url=$2; shift 2 ;;
    --both) both=1; shift ;;
    *) break ;;
  esac
done
kills=${1:-20}
sites=${2:-2000}
db="killresume_$$"
chq() { curl -sS --fail-with-body "$ch_url/" --data-binary "$1"; }
profile=${PROFILE:-release}
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
# The web writes its request count as it exits: wait for it before removing its folder.
trap 'exec 3>&-; [ -z "${web_pid:-}" ] || wait "$web_pid" 2>/dev/null; rm -rf "$work"; [ -z "$ch_url" ] || chq "DROP DATABASE IF EXISTS $db" >/dev/null || true' EXIT
flag=$([ "$profile" = release ] && echo --release || true)
cargo build $flag -q -p mcpcensus -p mcpcensus-simweb --bins --manifest-path "$top/Cargo.toml"
bin="$top/target/$profile"
web="$work/web"
mkfifo "$work/hold"
"$bin/simweb" "$web" "$sites" 50 < "$work/hold" &
web_pid=$!
exec 3> "$work/hold"
for _ in $(seq 600); do [ -f "$web/ready" ] && break; sleep 0.1; done
[ -f "$web/ready" ] || { echo "simweb did not start"; exit 1; }
store="$work/store"
crawl=("$bin/mcpcensus" crawl "$web/list.txt" --quiet
  --resolver "$(cat "$web/dns.txt")" --ca-file "$web/ca.pem" --allow-net 127.0.0.0/8
  --concurrency 100 --per-ip-rps 2000 --per-ip-connections 64)
if [ -z "$ch_url" ] || [ "$both" = 1 ]; then
  crawl+=(--out "$store")
else
  # ClickHouse alone: the store (manifest only) comes from the config, not --out.
  printf '[crawl]\nout = "%s"\n' "$store" > "$work/store.toml"
  crawl+=(--config "$work/store.toml")
fi
[ -z "$ch_url" ] || crawl+=(--clickhouse "$ch_url" --database "$db")
# Records so far: the store's, or ClickHouse's rows.
so_far() {
  if [ -n "$ch_url" ]; then chq "SELECT count() FROM $db.sites" 2>/dev/null || echo 0
  else "$bin/mcpcensus" export --from "$store" 2>/dev/null | wc -l; fi
}
started=$(date +%s.%N)
before=0
progress=()
ended_early=0
for i in $(seq "$kills"); do
  resume=()
  [ -d "$store/runs" ] && [ -n "$(ls "$store/runs" 2>/dev/null)" ] && resume=(--resume)
  # The binary itself in the background, so $! is the crawler's pid.
  "${crawl[@]}" "${resume[@]}" 2> "$work/crawl.log" &
  pid=$!
  # Each kill comes at a random moment after the run has written something new (a kill
  # before any site ends would only repeat the last one); the wait has a deadline.
  for _ in $(seq 600); do
    [ "$(so_far)" -gt "$before" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  sleep "$(( RANDOM % 2 )).$(( RANDOM % 10 ))$(( RANDOM % 10 ))"
  if kill -KILL "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null || true
    before=$(so_far)
    progress+=("$before")
    echo "kill $i: $before records so far"
  else
    wait "$pid" || { cat "$work/crawl.log"; exit 1; }
    echo "kill $i: the run had already ended (use more sites for more kills)"
    ended_early=1
    break
  fi
done
[ "$ended_early" = 1 ] || "${crawl[@]}" --resume || { echo "the final resume failed"; exit 1; }
ended=$(date +%s.%N)
if [ -n "$ch_url" ]; then
  run=$(ls "$store/runs")
  chq "SELECT record_json FROM $db.sites FINAL WHERE run_id = '$run' FORMAT TSVRaw" > "$work/records.jsonl"
  echo "ClickHouse: $(chq "SELECT count(), uniqExact(site_key) FROM $db.sites WHERE run_id = '$run' FORMAT TSV" | tr '\t' ' ') (raw rows, site keys)"
  if [ "$both" = 1 ]; then
    "$bin/mcpcensus" export --from "$store" | wc -l | sed 's/^/embedded store: /; s/$/ records/'
  fi
else
  "$bin/mcpcensus" export --from "$store" > "$work/records.jsonl"
fi
python3 - "$web/list.txt" "$work/records.jsonl" <<'PY'
import json, sys, collections
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
records = [json.loads(l) for l in open(sys.argv[2])]
per_line = collections.Counter(r["input_line"] for r in records)
doubled = [l for l, n in per_line.items() if n > 1]
missing = [i for i in range(1, len(lines) + 1) if i not in per_line]
placeholders = [r["input"] for r in records if r["outcome"] == "not_started"]
mcp = [r for r in records if r["input"].startswith("site") and int(r["input"][4:].split(".")[0]) % 10 == 0]
failed = [r["input"] for r in mcp if r["outcome"] != "pass"]
print(f"{len(lines)} input lines, {len(records)} records, {len(doubled)} doubled, "
      f"{len(missing)} missing, {len(placeholders)} not_started, "
      f"{len(mcp) - len(failed)}/{len(mcp)} MCP sites pass")
sys.exit(1 if doubled or missing or placeholders or failed else 0)
PY
echo "kill test passed: ${#progress[@]} kills (records after each: ${progress[*]}), $(awk -v a="$started" -v b="$ended" 'BEGIN {printf "%.1f", b - a}') s in all"
