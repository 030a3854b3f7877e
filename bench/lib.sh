# Shared by the comparison scripts of bench/ (sourced, not run): tool checks, the Release build of
# the broker and the load generator, a temporary folder and the servers started in it (stopped
# and removed on exit), free ports, and fields of higgins-bench's --json line.
# The sourcing script sets `bench_name` (for messages) and `build` (the build folder) first.

# bench_require TOOL...: exits naming the first tool that is not installed.
bench_require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$bench_name: $tool is not installed" >&2; exit 1; }
  done
}

# bench_build: builds higgins and higgins-bench into $build (unless BENCH_SKIP_BUILD=1) and sets
# $higgins and $bench to them.
bench_build() {
  if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHIGGINS_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j 2 --target higgins higgins-bench >&2
  fi
  higgins="$build/src/server/higgins"
  bench="$build/tools/bench/higgins-bench"
}

# bench_tmp: makes $tmp; every process whose pid is added to `pids` is stopped on exit, then
# $tmp is removed.
bench_tmp() {
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/higgins-$bench_name.XXXXXX")"
  pids=()
  trap bench_cleanup EXIT
  trap 'exit 130' INT TERM
}
bench_cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}

# A port nothing listens on (another process may still take it before we bind: then the
# server's start fails and so does the script).
free_port() {
  local port
  while true; do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

wait_listening() {  # port name log
  local i
  for i in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return; fi
    sleep 0.1
  done
  echo "$bench_name: $2 did not start; its log:" >&2
  cat "$3" >&2
  exit 1
}

# field JSON NAME: a number or string field of higgins-bench's --json line.
field() {
  local v
  v="$(grep -o "\"$2\":[^,}]*" <<<"$1" | head -n 1 | cut -d: -f2-)"
  v="${v#\"}"
  echo "${v%\"}"
}
