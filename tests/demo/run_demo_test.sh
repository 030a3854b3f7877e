#!/usr/bin/env bash
# CTest test demo_flights: runs the flights demo (scripts/demo) with the binaries of build folder
# $1, keeping its answers and its broker, then checks the answers against
# tests/demo/recompute.test.mjs, which recomputes them from the source files alone, and runs
# docs/http.md's curl examples against the broker the demo left running (tests/http/doc_examples.py).
# Usage: tests/demo/run_demo_test.sh BUILD_DIR NODE
set -euo pipefail
build_dir=$1
node=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
answers=$(mktemp -d "${TMPDIR:-/tmp}/higgins-demo-test.XXXXXX")
broker_pid=
demo_work=
cleanup() {
  [ -n "$broker_pid" ] && kill -TERM "$broker_pid" 2>/dev/null || true
  [ -n "$demo_work" ] && rm -rf "$demo_work"
  rm -rf "$answers"
}
trap cleanup EXIT
http_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$repo/scripts/demo" --no-build --build-dir "$build_dir" --out "$answers" --keep \
  --http-port "$http_port" | tee "$answers/demo.out"
broker_pid=$(sed -n 's/^stop it with: kill \([0-9]*\)$/\1/p' "$answers/demo.out")
demo_work=$(sed -n 's/^port [0-9]*, data in \(.*\)\/data, answers in .*/\1/p' "$answers/demo.out")
[ -n "$broker_pid" ] || { echo "run_demo_test: the demo did not say its broker's pid" >&2; exit 1; }
DEMO_ANSWERS=$answers DEMO_DATA=$repo/tools/interop/node_modules/vega-datasets/data \
  "$node" --test --test-reporter=spec "$repo/tests/demo/recompute.test.mjs"
python3 "$repo/tests/http/doc_examples.py" "$repo/docs/http.md" "$http_port"
