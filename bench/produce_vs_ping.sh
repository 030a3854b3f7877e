#!/usr/bin/env bash
# One-row produce throughput as a fraction of the broker's own PING throughput at the same
# concurrency (docs/performance.md, "Small records"): the network path alone against the network
# path plus a produce. Each run gets a fresh broker (temporary --dir).
#
# Usage: bench/produce_vs_ping.sh
# Environment (defaults in brackets):
#   BENCH_SECONDS [4]          measured seconds per run (after 1 s of warm-up)
#   BENCH_LOADS ["4x4 50x1"]   connections x requests in flight per connection
#   BENCH_STREAM [bench_mem]   bench_mem (memory storage) or bench_file (file storage, fsync on)
#   BENCH_BUILD_DIR [build/release]; BENCH_SKIP_BUILD=1 reuses the binaries there
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${BENCH_SECONDS:-4}"
loads="${BENCH_LOADS:-4x4 50x1}"
stream="${BENCH_STREAM:-bench_mem}"
build="${BENCH_BUILD_DIR:-build/release}"

bench_name=produce-vs-ping
# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_require cmake
bench_build
bench_tmp

# run WORKLOAD CONNECTIONS PIPELINE: one run against a fresh broker; prints its JSON line.
run() {
  local port dir="$tmp/run.$RANDOM"
  port="$(free_port)"
  mkdir -p "$dir"
  "$higgins" --port "$port" --http-port 0 --dir "$dir" --log-level warn >"$dir.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  wait_listening "$port" higgins "$dir.log"
  "$bench" --port "$port" --setup --workload ping --duration 0.1 >/dev/null
  "$bench" --json --port "$port" --stream "$stream" --reset --warmup 1 --duration "$seconds" \
    --workload "$1" --concurrency "$2" --pipeline "$3" --record-bytes 100 --rows-per-request 1
  kill "$pid" && wait "$pid" 2>/dev/null || true
}

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
  "broker $higgins; stream $stream; ${seconds} s per run; one ~100-byte row per produce."
echo
echo "| load | PING req/s | produce req/s | produce/PING | produce p50/p99 µs |"
echo "|---|---|---|---|---|"
for load in $loads; do
  connections="${load%x*}"
  pipeline="${load#*x}"
  ping="$(run ping "$connections" "$pipeline")"
  produce="$(run produce "$connections" "$pipeline")"
  awk -v l="$load" -v a="$(field "$ping" requests_per_s)" -v b="$(field "$produce" requests_per_s)" \
      -v p="$(field "$produce" p50_us)" -v q="$(field "$produce" p99_us)" 'BEGIN {
    printf "| %s | %.0f | %.0f | **%.2f** | %.0f / %.0f |\n", l, a, b, (a > 0 ? b / a : 0), p, q
  }'
done
