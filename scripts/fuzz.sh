#!/usr/bin/env bash
# Fuzzes every parser of outside input (fuzz/fuzz_targets/*) for SECONDS each [default: 60],
# one target after another, with libFuzzer through cargo-fuzz on nightly. Installs cargo-fuzz
# when missing. Prints executions per target; exits non-zero on the first crash, leaving the
# input in fuzz/artifacts/TARGET/ (turn it into a regression test in the normal suite).
#   scripts/fuzz.sh 600          # the full run: ten minutes a target
#   FUZZ_TARGETS="sse catalog" scripts/fuzz.sh 30
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/../fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# The code is safe Rust (unsafe is forbidden workspace-wide), so the hunt is for panics,
# overflows, runaway memory and time: no sanitizer, which doubles the executions.
flags=(--sanitizer none -O)
targets=${FUZZ_TARGETS:-$(cargo +nightly fuzz list)}
cargo +nightly fuzz build "${flags[@]}"
for target in $targets; do
  mkdir -p "corpus/$target"
  if [ "$target" = h1_answer ]; then
    # Seeds: the differential test's wire corpus, each as a GET's answer (first byte 0).
    for f in ../crawler/tests/wire-corpus/*.http; do
      { printf '\0'; cat "$f"; } > "corpus/$target/seed-$(basename "$f" .http)"
    done
  fi
  log=$(mktemp)
  if ! cargo +nightly fuzz run "${flags[@]}" "$target" "corpus/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 -max_len=262144 \
      -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $target CRASHED; input in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz: $target ok, $runs executions in ${seconds}s"
  rm -f "$log"
done
