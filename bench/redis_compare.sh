#!/usr/bin/env bash
# Broker throughput and query latency of Higgins against Redis Streams, measured by the same
# load generator (tools/bench, `higgins-bench`) in the same run (docs/performance.md, "Broker
# throughput against Redis Streams").
#
# Builds Release, starts one `higgins` and two `redis-server`s (no persistence for the memory
# rows; AOF with appendfsync always for the file rows) on free ports with temporary folders,
# runs every row Higgins first then Redis, and prints markdown tables. Everything it started is
# stopped on exit.
#
# Usage: bench/redis_compare.sh
# Environment (defaults in brackets):
#   BENCH_SECONDS [5]          measured seconds per run
#   BENCH_WARMUP [1]           unmeasured seconds before each run
#   BENCH_CONCURRENCY [4]      connections
#   BENCH_PIPELINE [4]         requests in flight per connection (produce rows)
#   BENCH_QUERY_PIPELINE [1]   requests in flight per connection (query rows)
#   BENCH_QUERY_RECORDS [1000000]  records produced before the query rows
#   BENCH_QUERY_KEYS [1]       partition keys those records are spread over
#   BENCH_HIGGINS_THREADS [2]  `higgins --threads`
#   BENCH_BUILD_DIR [build/release]; BENCH_SKIP_BUILD=1 reuses the binaries there
#   BENCH_RESULTS [unset]      file that receives every run's JSON line
#   BENCH_PHASES ["produce query"]  which tables to measure
#   BENCH_STORAGES ["memory file"]; BENCH_ROWS ["1 1000"]; BENCH_KEYS ["1 10000"]  which rows
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${BENCH_SECONDS:-5}"
warmup="${BENCH_WARMUP:-1}"
concurrency="${BENCH_CONCURRENCY:-4}"
pipeline="${BENCH_PIPELINE:-4}"
query_pipeline="${BENCH_QUERY_PIPELINE:-1}"
query_records="${BENCH_QUERY_RECORDS:-1000000}"
query_keys="${BENCH_QUERY_KEYS:-1}"
higgins_threads="${BENCH_HIGGINS_THREADS:-2}"
build="${BENCH_BUILD_DIR:-build/release}"
results="${BENCH_RESULTS:-}"
phases="${BENCH_PHASES:-produce query}"
storages="${BENCH_STORAGES:-memory file}"
row_counts="${BENCH_ROWS:-1 1000}"
key_counts="${BENCH_KEYS:-1 10000}"

bench_name=redis-compare
# shellcheck source=bench/lib.sh
source bench/lib.sh
bench_require redis-server redis-cli cmake
bench_build
bench_tmp

higgins_port="$(free_port)"
mkdir -p "$tmp/higgins"
"$higgins" --port "$higgins_port" --http-port 0 --dir "$tmp/higgins" --log-level warn \
  --threads "$higgins_threads" >"$tmp/higgins.log" 2>&1 &
pids+=($!)
wait_listening "$higgins_port" higgins "$tmp/higgins.log"

redis_mem_port="$(free_port)"
mkdir -p "$tmp/redis-mem"
redis-server --bind 127.0.0.1 --port "$redis_mem_port" --dir "$tmp/redis-mem" \
  --appendonly no --save '' --logfile "$tmp/redis-mem.log" &
pids+=($!)
wait_listening "$redis_mem_port" "redis-server (memory)" "$tmp/redis-mem.log"

redis_aof_port="$(free_port)"
mkdir -p "$tmp/redis-aof"
redis-server --bind 127.0.0.1 --port "$redis_aof_port" --dir "$tmp/redis-aof" \
  --appendonly yes --appendfsync always --save '' --logfile "$tmp/redis-aof.log" &
pids+=($!)
wait_listening "$redis_aof_port" "redis-server (AOF)" "$tmp/redis-aof.log"

# run TARGET STORAGE EXTRA_ARGS...: one higgins-bench run; prints its JSON line.
run() {
  local target="$1" storage="$2"
  shift 2
  local port stream
  if [[ "$storage" == memory ]]; then stream=bench_mem; else stream=bench_file; fi
  if [[ "$target" == higgins ]]; then
    port="$higgins_port"
  elif [[ "$storage" == memory ]]; then
    port="$redis_mem_port"
  else
    port="$redis_aof_port"
  fi
  local line
  line="$("$bench" --json --target "$target" --port "$port" --stream "$stream" --reset \
            --warmup "$warmup" --duration "$seconds" --concurrency "$concurrency" "$@")" || true
  if [[ -z "$line" ]]; then
    line="{\"target\":\"$target\",\"errors\":-1,\"first_error\":\"higgins-bench failed\"}"
  fi
  [[ -n "$results" ]] && echo "$line" >>"$results"
  echo "$line"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else print "n/a" }'; }
num() { awk -v a="$1" 'BEGIN { if (a == "") print "n/a"; else printf "%.0f", a }'; }
errors_note() {
  local e
  e="$(field "$1" errors)"
  if [[ "$e" != 0 ]]; then
    local text
    text="$(field "$1" first_error)"
    echo " (${e} errors: ${text//|//})"
  fi
}

echo "Machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
  "$(redis-server --version | cut -d' ' -f1-3); ${seconds} s per run after ${warmup} s warm-up;" \
  "${concurrency} connections x ${pipeline} in flight (produce), x ${query_pipeline} (query)."
if [[ " $phases " == *" produce "* ]]; then
echo
echo "| workload | Higgins rec/s | Redis rec/s | Higgins/Redis | Higgins p50/p99 µs | Redis p50/p99 µs |"
echo "|---|---|---|---|---|---|"
for storage in $storages; do
  for rows in $row_counts; do
    for keys in $key_counts; do
      echo "running produce: $storage, $rows rows per request, $keys keys" >&2
      args=(--workload produce --record-bytes 100 --rows-per-request "$rows" --keys "$keys"
            --pipeline "$pipeline")
      h="$(run higgins "$storage" "${args[@]}")"
      r="$(run redis "$storage" "${args[@]}")"
      hr="$(field "$h" records_per_s)"
      rr="$(field "$r" records_per_s)"
      row_word=rows; key_word=keys
      [[ "$rows" == 1 ]] && row_word=row
      [[ "$keys" == 1 ]] && key_word=key
      echo "| produce, $storage, $rows $row_word/req, $keys $key_word" \
        "| $(num "$hr")$(errors_note "$h") | $(num "$rr")$(errors_note "$r")" \
        "| **$(ratio "$hr" "$rr")**" \
        "| $(num "$(field "$h" p50_us)") / $(num "$(field "$h" p99_us)")" \
        "| $(num "$(field "$r" p50_us)") / $(num "$(field "$r" p99_us)") |"
    done
  done
done
fi

[[ " $phases " == *" query "* ]] || exit 0
echo
echo "Point reads of one record at a random existing position, after $query_records records" \
  "over $query_keys key(s) (Higgins GetIndex OFFSET, Redis XRANGE id id COUNT 1):"
echo
echo "| storage | Higgins p50/p99/p999 µs | Redis p50/p99/p999 µs | p50 ratio | p99 ratio | Higgins reads/s | Redis reads/s |"
echo "|---|---|---|---|---|---|---|"
for storage in $storages; do
  echo "running query: $storage (prefill $query_records records)" >&2
  args=(--workload query --record-bytes 100 --rows-per-request 1 --keys "$query_keys"
        --prefill "$query_records" --pipeline "$query_pipeline")
  h="$(run higgins "$storage" "${args[@]}")"
  r="$(run redis "$storage" "${args[@]}")"
  echo "| $storage" \
    "| $(num "$(field "$h" p50_us)") / $(num "$(field "$h" p99_us)") / $(num "$(field "$h" p999_us)")$(errors_note "$h")" \
    "| $(num "$(field "$r" p50_us)") / $(num "$(field "$r" p99_us)") / $(num "$(field "$r" p999_us)")$(errors_note "$r")" \
    "| **$(ratio "$(field "$h" p50_us)" "$(field "$r" p50_us)")**" \
    "| $(ratio "$(field "$h" p99_us)" "$(field "$r" p99_us)")" \
    "| $(num "$(field "$h" records_per_s)") | $(num "$(field "$r" records_per_s)") |"
done
