#!/usr/bin/env bash
# Group commit on file storage, counted: one-row produce requests from many connections against
# how many fsync/fdatasync calls the server made meanwhile (docs/performance.md, "Small records").
# The calls are counted by the kernel's syscall tracepoints (`perf stat -e
# syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync -p <pid>`), for Higgins (file storage,
# fsync on) and for Redis with appendfsync always, under the same load from higgins-bench.
#
# Usage: bench/fsync_count.sh
# Environment (defaults in brackets):
#   BENCH_SECONDS [5]          measured seconds per run (after 1 s of warm-up)
#   BENCH_CONCURRENCY [50]     connections, one row per request, one request in flight each
#   BENCH_BUILD_DIR [build/release]; BENCH_SKIP_BUILD=1 reuses the binaries there
# Needs perf with tracepoint access (root, or kernel.perf_event_paranoid <= 1).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${BENCH_SECONDS:-5}"
concurrency="${BENCH_CONCURRENCY:-50}"
build="${BENCH_BUILD_DIR:-build/release}"

bench_name=fsync-count
# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_require perf redis-server cmake
bench_build
bench_tmp

# measure TARGET PORT PID: one run; prints "requests fsyncs p50 p99".
measure() {
  local target="$1" port="$2" pid="$3" counts="$tmp/perf.$1"
  "$bench" --json --target "$target" --port "$port" --stream bench_file --reset --warmup 1 \
    --duration "$seconds" --concurrency "$concurrency" --pipeline 1 --workload produce \
    --record-bytes 100 --rows-per-request 1 >"$tmp/run.$target" &
  local bench_pid=$!
  sleep 1  # the warm-up
  perf stat -x, -e syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync -p "$pid" \
    -o "$counts" -- sleep "$seconds" >/dev/null 2>&1
  wait "$bench_pid"
  local line syncs
  line="$(cat "$tmp/run.$target")"
  syncs="$(awk -F, '{ s += $1 } END { print s + 0 }' <(grep -v '^#' "$counts" | grep sys_enter))"
  echo "$(field "$line" requests_per_s) $syncs $(field "$line" p50_us) $(field "$line" p99_us)"
}

higgins_port="$(free_port)"
mkdir -p "$tmp/higgins"
"$higgins" --port "$higgins_port" --http-port 0 --dir "$tmp/higgins" --log-level warn >"$tmp/higgins.log" 2>&1 &
pids+=($!)
higgins_pid=$!
wait_listening "$higgins_port" higgins "$tmp/higgins.log"
"$bench" --port "$higgins_port" --setup --workload ping --duration 0.1 >/dev/null

redis_port="$(free_port)"
mkdir -p "$tmp/redis"
redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$tmp/redis" --appendonly yes \
  --appendfsync always --save '' --logfile "$tmp/redis.log" &
pids+=($!)
redis_pid=$!
wait_listening "$redis_port" redis-server "$tmp/redis.log"

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
  "broker $higgins; ${seconds} s per run;" \
  "${concurrency} connections x 1 one-row request in flight."
echo
echo "| server | requests/s | fsync+fdatasync/s | requests per sync | p50/p99 µs |"
echo "|---|---|---|---|---|"
for target in higgins redis; do
  if [[ "$target" == higgins ]]; then port="$higgins_port"; pid="$higgins_pid"
  else port="$redis_port"; pid="$redis_pid"; fi
  read -r rps syncs p50 p99 <<<"$(measure "$target" "$port" "$pid")"
  awk -v t="$target" -v r="$rps" -v s="$syncs" -v d="$seconds" -v p="$p50" -v q="$p99" 'BEGIN {
    sps = s / d
    printf "| %s | %.0f | %.0f | %s | %.0f / %.0f |\n", t, r, sps, (sps > 0 ? sprintf("%.1f", r / sps) : "n/a"), p, q
  }'
done
