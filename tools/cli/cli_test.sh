#!/usr/bin/env bash
# End-to-end tests of `higgins-cli arrow`: each case runs the real binary and compares stdout,
# stderr or the exit status with what a user should see.
# Usage: cli_test.sh HIGGINS_CLI SHARED_DIR INTEROP_DIR
set -uo pipefail
cli="$1"
shared="$2"
interop="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAIL %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
  fi
}

cat > "$work/config.toml" <<'TOML'
[storage.memory]
type = "memory"

[schema.amount]
id = "string"
data = "int32"

[schema.event]
key = { type = "string", nullable = false }
at = "timestamp(ms, UTC)"
price = "decimal(10,2)"
payload = "bytes"
day = "date32"
TOML

# 1. JSON -> Arrow stream -> NDJSON, every supported compression and both container formats.
input='[{"id":"a","data":1},{"id":"b","data":null},{"id":"c"}]'
expected='{"id":"a","data":1}
{"id":"b","data":null}
{"id":"c","data":null}'
for to in stream file; do
  for compression in none lz4 zstd; do
    out=$(echo "$input" | "$cli" arrow convert --config "$work/config.toml" --schema amount \
            --to "$to" --compression "$compression" | "$cli" arrow cat -)
    check "json round trip via $to/$compression" "$expected" "$out"
  done
done

# 2. NDJSON and CSV with richer types; output values use the documented renderings.
printf '{"key":"k1","at":"2024-03-01T10:00:00.5Z","price":"12.30","payload":"aGk=","day":"2024-03-01"}\n{"key":"k2","at":0,"price":-1,"payload":null,"day":19000}\n' \
  > "$work/events.ndjson"
out=$("$cli" arrow convert --config "$work/config.toml" --schema event --from ndjson \
        --input "$work/events.ndjson" | "$cli" arrow cat -)
check "ndjson rich types" '{"key":"k1","at":"2024-03-01T10:00:00.500Z","price":"12.30","payload":"aGk=","day":"2024-03-01"}
{"key":"k2","at":"1970-01-01T00:00:00.000Z","price":"-1.00","payload":null,"day":"2022-01-08"}' "$out"

printf 'data,id\n5,"x, quoted"\n,y\n' > "$work/amount.csv"
out=$("$cli" arrow convert --config "$work/config.toml" --schema amount --from csv \
        < "$work/amount.csv" | "$cli" arrow cat -)
check "csv" '{"id":"x, quoted","data":5}
{"id":"y","data":null}' "$out"

# 3. Real data: flights-200k.arrow (written by another Arrow implementation) has 200,000 rows.
flights="$interop/node_modules/vega-datasets/data/flights-200k.arrow"
rows=$("$cli" arrow cat "$flights" | wc -l)
check "flights-200k rows" "200000" "$rows"
first=$("$cli" arrow cat "$flights" | head -n 1)
check "flights-200k first row has its columns" "1" "$(echo "$first" | grep -c '"delay":')"

# 3b. cat follows a pipe: the rows of a complete batch print before the producer finishes.
stream="$work/follow.arrows"
echo '{"id":"a","data":1}' | "$cli" arrow convert --config "$work/config.toml" --schema amount > "$stream"
size=$(stat -c %s "$stream")
{ head -c $((size - 8)) "$stream"; sleep 5; tail -c 8 "$stream"; } | "$cli" arrow cat - > "$work/follow.out" &
follower=$!
sleep 2.5
check "cat prints a batch before the stream ends" '{"id":"a","data":1}' "$(cat "$work/follow.out")"
wait "$follower"

# 4. Gold file from the Arrow project, stream and file forms print the same rows.
gold="$shared/testdata/arrow-integration/1.0.0-littleendian/generated_primitive"
check "gold stream == gold file" "$("$cli" arrow cat "$gold.stream")" "$("$cli" arrow cat "$gold.arrow_file")"

# 5. Errors a user can hit: status 1 and a message naming the problem.
err=$("$cli" arrow cat "$work/missing.arrow" 2>&1 >/dev/null); code=$?
check "missing file status" "1" "$code"
check "missing file message" "1" "$(echo "$err" | grep -c "cannot open '$work/missing.arrow'")"

echo "not arrow at all" > "$work/garbage.arrow"
err=$("$cli" arrow cat "$work/garbage.arrow" 2>&1 >/dev/null); code=$?
check "garbage status" "1" "$code"
check "garbage message names corruption" "1" "$(echo "$err" | grep -c "Corruption")"

head -c 100 "$gold.stream" > "$work/truncated.arrows"
err=$("$cli" arrow cat "$work/truncated.arrows" 2>&1 >/dev/null); code=$?
check "truncated stream status" "1" "$code"
check "truncated stream message" "1" "$(echo "$err" | grep -c "Corruption: '$work/truncated.arrows'")"

: > "$work/empty.arrows"
err=$("$cli" arrow cat "$work/empty.arrows" 2>&1 >/dev/null); code=$?
check "empty input status" "1" "$code"
check "empty input message" "1" "$(echo "$err" | grep -c "is empty, not an Arrow IPC stream")"
err=$("$cli" arrow cat - < "$work/empty.arrows" 2>&1 >/dev/null); code=$?
check "empty stdin status" "1" "$code"
check "empty stdin named" "1" "$(echo "$err" | grep -c "standard input is empty, not an Arrow IPC stream")"

err=$("$cli" arrow cat "$shared/testdata/arrow-integration/1.0.0-littleendian/generated_nested.stream" 2>&1 >/dev/null); code=$?
check "unsupported type status" "1" "$code"
check "unsupported type message" "1" "$(echo "$err" | grep -c "NotSupported")"

err=$(echo '{"id":"a","data":"x"}' | "$cli" arrow convert --config "$work/config.toml" --schema amount 2>&1 >/dev/null); code=$?
check "bad value status" "1" "$code"
check "bad value names row and field" "1" "$(echo "$err" | grep -c "row 0, field 'data'")"

err=$(echo '{"id":"a","data":1}' | "$cli" arrow convert --config "$work/config.toml" --schema nope 2>&1 >/dev/null); code=$?
check "unknown schema status" "1" "$code"
check "unknown schema message" "1" "$(echo "$err" | grep -c "nope")"

err=$("$cli" arrow convert --config "$work/config.toml" --schema amount --to parquet </dev/null 2>&1 >/dev/null); code=$?
check "bad --to is a usage error (status 2)" "2" "$code"
check "bad --to message" "1" "$(echo "$err" | grep -c "parquet")"

if [ -w /dev/full ]; then
  err=$(echo '{"id":"a","data":1}' | "$cli" arrow convert --config "$work/config.toml" --schema amount 2>&1 >/dev/full); code=$?
  check "full disk status" "1" "$code"
  check "full disk message" "1" "$(echo "$err" | grep -c "cannot write to standard output")"
fi

echo "cli_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
