#!/usr/bin/env bash
# CTest test demo_flights: runs the flights demo (scripts/demo) with the binaries of build folder
# $1, keeping its answers, then checks them against tests/demo/recompute.test.mjs, which
# recomputes them from the source files alone.
# Usage: tests/demo/run_demo_test.sh BUILD_DIR NODE
set -euo pipefail
build_dir=$1
node=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
answers=$(mktemp -d "${TMPDIR:-/tmp}/higgins-demo-test.XXXXXX")
trap 'rm -rf "$answers"' EXIT
"$repo/scripts/demo" --no-build --build-dir "$build_dir" --out "$answers"
DEMO_ANSWERS=$answers DEMO_DATA=$repo/tools/interop/node_modules/vega-datasets/data \
  "$node" --test --test-reporter=spec "$repo/tests/demo/recompute.test.mjs"
