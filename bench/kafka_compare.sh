#!/usr/bin/env bash
# The Kafka listener measured with librdkafka (`higgins-bench kafka`) beside the native protocol,
# Redis Streams' pipelined XADD and NATS JetStream, in the same run (docs/performance.md, "Kafka
# clients").
#
# Builds Release (unless BENCH_SKIP_BUILD=1), starts redis-server (no persistence), a broker and
# nats-server -js (temporary store dir) on free ports, then:
#   1. Redis: `higgins-bench --target redis --workload produce`, 1000 XADDs of ~100-byte records
#      pipelined per request, 4 connections x 4 requests in flight;
#   2. the same load against the broker with the native protocol (memory storage);
#   3. `higgins-bench kafka` once per shape of BENCH_KAFKA_SHAPES, on a broker of its own (memory
#      storage): native produce on C connections x F requests in flight, Kafka produce on C
#      librdkafka producers, Kafka consume, the produce->consume latency, then JetStream produce
#      on C connections and consume, against the nats-server (memory stream). Redis and the
#      first broker are stopped by then.
# Prints the JSON lines and the ratios. Everything it started is stopped on exit.
#
# Usage: bench/kafka_compare.sh
# Environment: BENCH_SECONDS [5] per load-generator run; BENCH_RECORDS [1000000] per Kafka and
# JetStream phase; BENCH_KAFKA_SHAPES ["1x8 4x4"] connections x native requests in flight of each
# `higgins-bench kafka` run (4x4 is the load generator's shape); BENCH_BUILD_DIR [build/release];
# BENCH_SKIP_BUILD=1 reuses the binaries there.
set -euo pipefail
cd "$(dirname "$0")/.."
bench_name=kafka_compare
seconds="${BENCH_SECONDS:-5}"
records="${BENCH_RECORDS:-1000000}"
shapes="${BENCH_KAFKA_SHAPES:-1x8 4x4}"
build="${BENCH_BUILD_DIR:-build/release}"
# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_require redis-server nats-server cmake
bench_build
bench_tmp

redis_port="$(free_port)"
mkdir -p "$tmp/redis"
redis-server --bind 127.0.0.1 --port "$redis_port" --dir "$tmp/redis" --appendonly no \
  --save '' --logfile "$tmp/redis.log" &
redis_pid=$!
pids+=("$redis_pid")
wait_listening "$redis_port" redis-server "$tmp/redis.log"

higgins_port="$(free_port)"
mkdir -p "$tmp/higgins"
"$higgins" --port "$higgins_port" --kafka-port 0 --http-port 0 --dir "$tmp/higgins" --log-level warn \
  >"$tmp/higgins.log" 2>&1 &
higgins_pid=$!
pids+=("$higgins_pid")
wait_listening "$higgins_port" higgins "$tmp/higgins.log"

nats_port="$(free_port)"
mkdir -p "$tmp/nats"
nats-server -js -a 127.0.0.1 -p "$nats_port" -sd "$tmp/nats" >"$tmp/nats.log" 2>&1 &
nats_pid=$!
pids+=("$nats_pid")
wait_listening "$nats_port" nats-server "$tmp/nats.log"

load() {  # TARGET PORT: one produce run of the load generator
  "$bench" --json --target "$1" --port "$2" --stream bench_mem --reset --setup --warmup 1 \
    --duration "$seconds" --concurrency 4 --pipeline 4 --workload produce \
    --rows-per-request 1000 --keys 1000 --record-bytes 100
}
redis_line="$(load redis "$redis_port")"
native_line="$(load higgins "$higgins_port")"
echo "$redis_line"
echo "$native_line"
redis_rate="$(field "$redis_line" records_per_s)"
native_rate="$(field "$native_line" records_per_s)"
# Done with them: stopped, they take no CPU from the runs below.
kill "$redis_pid" "$higgins_pid"
wait "$redis_pid" "$higgins_pid" || true
kafka_lines=()
for shape in $shapes; do
  line="$("$bench" kafka --json --records "$records" --record-bytes 100 --keys 1000 \
    --connections "${shape%x*}" --in-flight "${shape#*x}" --jetstream-port "$nats_port" \
    --jetstream-pid "$nats_pid")"
  echo "$line"
  kafka_lines+=("$line")
done

echo
awk -v n="$native_rate" -v r="$redis_rate" 'BEGIN {
  printf "load generator, 4 x 4 in flight: native produce / Redis pipelined XADD: %.2f\n", n / r
}'
i=0
for shape in $shapes; do
  line="${kafka_lines[$i]}"
  i=$((i + 1))
  awk -v shape="$shape" -v r="$redis_rate" -v l="$native_rate" \
    -v k="$(field "$line" kafka_produce)" -v n="$(field "$line" native_produce)" \
    -v c="$(field "$line" kafka_consume)" -v jp="$(field "$line" jetstream_produce)" \
    -v jc="$(field "$line" jetstream_consume)" 'BEGIN {
    printf "higgins-bench kafka, %s (connections x native in flight):\n", shape
    printf "  Kafka produce / native produce of the same shape:    %.2f\n", k / n
    printf "  Kafka produce / load generator native 4 x 4:         %.2f\n", k / l
    printf "  Kafka produce / Redis pipelined XADD:                %.2f\n", k / r
    printf "  Kafka produce / JetStream produce (same connections): %.2f\n", k / jp
    printf "  Kafka consume / JetStream consume:                   %.2f\n", c / jc
  }'
done
