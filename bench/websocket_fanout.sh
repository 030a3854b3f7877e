#!/usr/bin/env bash
# WebSocket fan-out and HTTP one-record produce (`higgins-bench websocket`), repeated
# (docs/performance.md, "WebSocket fan-out and HTTP produce").
#
# Builds Release (unless BENCH_SKIP_BUILD=1), then runs `higgins-bench websocket --json` BENCH_RUNS
# times, each against a broker of its own (memory storage): R WebSocket readers of one stream
# while records are POSTed at a fixed rate, every delivery checked and timed; then one-record
# produces over HTTP beside the native protocol. Prints each JSON line, then one line per run
# with the figures of the section's table.
#
# Usage: bench/websocket_fanout.sh [more higgins-bench websocket flags, e.g. --readers 2000]
# Environment: BENCH_RUNS [3]; BENCH_BUILD_DIR [build/release]; BENCH_SKIP_BUILD=1 reuses the
# binaries there.
set -euo pipefail
cd "$(dirname "$0")/.."
bench_name=websocket_fanout
runs="${BENCH_RUNS:-3}"
build="${BENCH_BUILD_DIR:-build/release}"
# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_require cmake
bench_build

lines=()
for run in $(seq "$runs"); do
  status=0
  line="$("$bench" websocket --json "$@")" || status=$?
  echo "$line"
  [[ "$status" == 0 ]] || echo "$bench_name: run $run exited with $status" >&2
  lines+=("$line")
done

echo
printf '%-4s %8s %9s %8s %9s %9s %9s %9s %8s %8s %11s %11s %6s\n' run readers delivered \
  missing p50_ms p99_ms p999_ms max_ms brk_cpu bch_cpu http_rec/s nat_rec/s ratio
run=0
for line in "${lines[@]}"; do
  run=$((run + 1))
  printf '%-4s %8s %9s %8s %9s %9s %9s %9s %8s %8s %11s %11s %6s\n' "$run" \
    "$(field "$line" readers_live)" "$(field "$line" deliveries_received)" \
    "$(field "$line" missing)" "$(field "$line" latency_ms_p50)" "$(field "$line" latency_ms_p99)" \
    "$(field "$line" latency_ms_p999)" "$(field "$line" latency_ms_max)" \
    "$(field "$line" fanout_broker_cpu_s)" "$(field "$line" fanout_bench_cpu_s)" \
    "$(field "$line" http_records_per_s)" "$(field "$line" native_records_per_s)" \
    "$(field "$line" http_native_ratio)"
done
