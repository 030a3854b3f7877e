#!/usr/bin/env bash
# run_node_test.sh NODE TEST_FILE: runs one node --test file of tools/interop for ctest.
# Fails (never skips) when the npm dependencies are missing, so CI cannot pass without them.
set -euo pipefail
node="$1"
test_file="$2"
interop_dir="$(cd "$(dirname "$0")/../../tools/interop" && pwd)"
if [[ ! -d "$interop_dir/node_modules/apache-arrow" ]]; then
  echo "tools/interop/node_modules is missing: run scripts/install-deps" \
       "(or: npm ci --prefix tools/interop)" >&2
  exit 1
fi
cd "$interop_dir"
exec "$node" --test --test-reporter=spec "$test_file"
