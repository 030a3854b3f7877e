#!/usr/bin/env bash
# The Kafka listener measured with librdkafka (`higgins-bench kafka`) beside the native protocol
# and Redis Streams' pipelined XADD, in the same run (docs/performance.md, "Kafka clients").
#
# Builds Release (unless BENCH_SKIP_BUILD=1), then:
#   1. Redis (no persistence): `higgins-bench --target redis --workload produce`, 1000 XADDs of
#      ~100-byte records pipelined per request, 4 connections x 4 requests in flight;
#   2. the same load against a Higgins broker with the native protocol (memory storage);
#   3. `higgins-bench kafka`: native produce, Kafka produce, Kafka consume and the
#      produce->consume latency, on a broker it starts (memory storage).
# Prints the JSON lines and the ratios. Everything it started is stopped on exit.
#
# Usage: bench/kafka_compare.sh
# Environment: BENCH_SECONDS [5] per load-generator run; BENCH_RECORDS [1000000] per Kafka
# phase; BENCH_BUILD_DIR [build/release]; BENCH_SKIP_BUILD=1 reuses the binaries there.
set -euo pipefail
cd "$(dirname "$0")/.."
bench_name=kafka_compare
seconds="${BENCH_SECONDS:-5}"
records="${BENCH_RECORDS:-1000000}"
build="${BENCH_BUILD_DIR:-build/release}"
# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_require redis-server cmake
bench_build
bench_tmp

redis_port="$(free_port)"
mkdir -p "$tmp/redis"
redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$tmp/redis" --appendonly no \
  --save '' --logfile "$tmp/redis.log" &
pids+=($!)
wait_listening "$redis_port" redis-server "$tmp/redis.log"

higgins_port="$(free_port)"
mkdir -p "$tmp/higgins"
"$higgins" --port "$higgins_port" --kafka-port 0 --dir "$tmp/higgins" --log-level warn \
  >"$tmp/higgins.log" 2>&1 &
pids+=($!)
wait_listening "$higgins_port" higgins "$tmp/higgins.log"

load() {  # TARGET PORT: one produce run of the load generator
  "$bench" --json --target "$1" --port "$2" --stream bench_mem --reset --setup --warmup 1 \
    --duration "$seconds" --concurrency 4 --pipeline 4 --workload produce \
    --rows-per-request 1000 --keys 1000 --record-bytes 100
}
redis_line="$(load redis "$redis_port")"
native_line="$(load higgins "$higgins_port")"
kafka_line="$("$bench" kafka --json --records "$records" --record-bytes 100 --keys 1000)"
echo "$redis_line"
echo "$native_line"
echo "$kafka_line"
redis_rate="$(field "$redis_line" records_per_s)"
native_rate="$(field "$native_line" records_per_s)"
kafka_rate="$(field "$kafka_line" kafka_produce)"
kafka_native="$(field "$kafka_line" native_produce)"
awk -v k="$kafka_rate" -v n="$kafka_native" -v r="$redis_rate" -v l="$native_rate" 'BEGIN {
  printf "Kafka produce / native produce (same broker, higgins-bench kafka): %.2f\n", k / n
  printf "Kafka produce / Redis pipelined XADD:                             %.2f\n", k / r
  printf "native produce (load generator) / Redis pipelined XADD:           %.2f\n", l / r
}'
