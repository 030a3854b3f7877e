#!/usr/bin/env bash
# CTest test s3_storage: a real broker on loopback with `type = "s3"` storage against a real
# local S3 server (npm s3rver), checked from outside Higgins: objects listed and downloaded with
# boto3 (fetch_objects.py) and decoded with apache-arrow JS (decode_objects.mjs). Faults: the
# server stopped during produce and restarted, answering HTTP 500 (fault_proxy.mjs), broker
# kill -9 with uploads pending, reads while the server is down, the local limit; s3rver lacks
# ListMultipartUploads, which the broker tolerates with one warning per storage.
# Usage: tests/s3/run_s3_test.sh HIGGINS HIGGINS_CLI NODE
set -euo pipefail
higgins=$(realpath "$1")
cli=$(realpath "$2")
node=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
s3rver=$repo/tools/interop/node_modules/.bin/s3rver
work=$(mktemp -d "${TMPDIR:-/tmp}/higgins-s3-test.XXXXXX")
s3_pid= proxy_pid= broker_pid= s3_port= proxy_port= port=
cleanup() {
  {
    for p in $broker_pid $proxy_pid $s3_pid; do kill -KILL "$p" && wait "$p"; done
  } 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  echo "--- broker log (tail)"; tail -n 40 "$work/broker.log" 2>/dev/null || true
  exit 1
}
step() { echo "== $*"; }
wait_for_line() {  # FILE REGEX: waits up to 20 s for a line; prints the first capture group
  for _ in $(seq 1 400); do
    if [[ $(cat "$1" 2>/dev/null) =~ $2 ]]; then echo "${BASH_REMATCH[1]}"; return 0; fi
    sleep 0.05
  done
  return 1
}

start_s3() {  # on s3_port when set (a restart), else on a free port
  # s3rver's continuation tokens use DES, which Node 17+ (OpenSSL 3) offers only with the legacy
  # provider: without it every truncated listing is an HTTP 500.
  NODE_OPTIONS=--openssl-legacy-provider "$s3rver" -d "$work/s3" -p "${s3_port:-0}" --address 127.0.0.1 --configure-bucket higgins \
    >"$work/s3rver.log" 2>&1 &
  s3_pid=$!
  s3_port=$(wait_for_line "$work/s3rver.log" 'listening on 127\.0\.0\.1:([0-9]+)') ||
    { cat "$work/s3rver.log"; fail "s3rver did not start"; }
}
stop_s3() { kill -KILL "$s3_pid"; wait "$s3_pid" 2>/dev/null || true; s3_pid=; }
start_broker() {
  env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY "$higgins" --port=0 --kafka-port=0 --http-port=0 --dir="$work/data" \
    >>"$work/broker.log" 2>&1 &
  broker_pid=$!
  port=$(wait_for_line "$work/broker.log" 'listening on [^ ]*:([0-9]+)') ||
    fail "the broker did not start"
}
# The log of each earlier run moves to broker.old.log, so that start_broker sees the new port.
restart_broker() { cat "$work/broker.log" >>"$work/broker.old.log"; : >"$work/broker.log"; start_broker; }
cli() { "$cli" --port "$port" "$@"; }

# records FIRST COUNT: ndjson events seq FIRST.. for users u0..u4
records() {
  "$node" -e '
    const [first, count] = process.argv.slice(1).map(Number);
    const out = [];
    for (let i = first; i < first + count; i++)
      out.push(JSON.stringify({ user: "u" + (i % 5), seq: i, payload: "x".repeat(64) + i }));
    process.stdout.write(out.join("\n") + "\n");' "$1" "$2"
}
produce() {  # STREAM FIRST COUNT
  records "$2" "$3" >"$work/batch.ndjson"
  cli produce --stream "$1" --file "$work/batch.ndjson" --format ndjson >"$work/produce.out" 2>&1
}
# summary PREFIX: fetches (boto3) and decodes (apache-arrow) every object under PREFIX
summary() {
  rm -rf "$work/fetched" && mkdir -p "$work/fetched"
  /usr/bin/python3 "$here/fetch_objects.py" "http://127.0.0.1:$s3_port" higgins "$1" \
    "$work/fetched" >"$work/fetched.list"
  "$node" "$here/decode_objects.mjs" "$work/fetched" user seq
}
rows_of() { echo "$1" | "$node" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).rows))'; }
# wait_rows PREFIX N: until the objects under PREFIX hold N rows (30 s)
wait_rows() {
  local s=""
  for _ in $(seq 1 60); do
    s=$(summary "$1")
    [ "$(rows_of "$s")" = "$2" ] && { echo "$s" >"$work/summary.json"; return 0; }
    sleep 0.5
  done
  fail "objects under $1 hold $(rows_of "$s") rows, expected $2: $s"
}
# count_partition STREAM KEY: rows of one partition, read through the broker
count_partition() {
  cli query --stream "$1" --partition "$2" --from 0 --output ndjson | wc -l
}
check_all_partitions() {  # STREAM TOTAL
  local total=0 n
  for u in u0 u1 u2 u3 u4; do
    n=$(count_partition "$1" "$u") || fail "query of $1/$u failed"
    total=$((total + n))
  done
  [ "$total" = "$2" ] || fail "$1 holds $total records through the broker, expected $2"
}

step "start s3rver, a fault proxy and the broker"
start_s3
"$node" "$here/fault_proxy.mjs" "$s3_port" "$work/fail500" >"$work/proxy.log" 2>&1 &
proxy_pid=$!
proxy_port=$(wait_for_line "$work/proxy.log" 'proxy listening on ([0-9]+)') || fail "no proxy"
start_broker
cat >"$work/config.toml" <<TOML
[storage.objects]
type = "s3"
aws_endpoint = "http://127.0.0.1:$s3_port"
aws_region = "us-east-1"
aws_access_key_id = "S3RVER"
aws_secret_access_key = "S3RVER"
bucket = "higgins"
prefix = "test"
segment_bytes = 65536
segment_max_age_ms = 300
local_limit_bytes = 1500000
read_cache_bytes = 0

[storage.flaky]
type = "s3"
aws_endpoint = "http://127.0.0.1:$proxy_port"
aws_access_key_id = "S3RVER"
aws_secret_access_key = "S3RVER"
bucket = "higgins"
prefix = "flaky/"
segment_max_age_ms = 200

[schema.event]
user = "string"
seq = "int64"
payload = "string"

[streams.events]
schema = "event"
partition_key = "user"
storage = "objects"
buckets = 2

[streams.flaky_events]
schema = "event"
partition_key = "user"
storage = "flaky"
TOML
cli create-configuration --file="$work/config.toml" >/dev/null || fail "configuration refused"
# s3rver answers ListMultipartUploads with 501: each storage opens anyway, with one warning.
for name in objects flaky; do
  n=$(grep -c "storage '$name': the server does not list multipart uploads" "$work/broker.log" || true)
  [ "$n" = 1 ] || fail "storage '$name' logged $n warnings about the multipart upload listing"
done

step "bad declarations are refused with clear errors"
printf '[storage.nobucket]\ntype = "s3"\naws_access_key_id = "a"\naws_secret_access_key = "b"\n' >"$work/bad.toml"
cli create-configuration --file="$work/bad.toml" >"$work/bad.out" 2>&1 && fail "a storage without a bucket was accepted"
grep -q "storage 'nobucket': type 's3' needs a bucket" "$work/bad.out" || fail "$(cat "$work/bad.out")"
printf '[storage.nokeys]\ntype = "s3"\nbucket = "higgins"\naws_endpoint = "http://127.0.0.1:%s"\n' "$s3_port" >"$work/bad.toml"
cli create-configuration --file="$work/bad.toml" >"$work/bad.out" 2>&1 && fail "a storage without credentials was accepted"
grep -q "storage 'nokeys': no credentials" "$work/bad.out" || fail "$(cat "$work/bad.out")"
cat >"$work/bad.toml" <<TOML
[storage.wrongsecret]
type = "s3"
aws_endpoint = "http://127.0.0.1:$s3_port"
aws_access_key_id = "NOT-A-KEY"
aws_secret_access_key = "not-the-secret"
bucket = "higgins"
[schema.one]
a = "int64"
[streams.one]
schema = "one"
partition_key = "a"
storage = "wrongsecret"
TOML
cli create-configuration --file="$work/bad.toml" >"$work/bad.out" 2>&1 && fail "unknown credentials were accepted"
grep -q "storage 'wrongsecret'" "$work/bad.out" || fail "$(cat "$work/bad.out")"
grep -q "not-the-secret" "$work/bad.out" "$work/broker.log" && fail "the secret was printed"
echo "   $(head -c 240 "$work/bad.out")"

step "a second storage (another owner) on the same bucket and prefix is refused"
cat >"$work/twin.toml" <<TOML
[storage.twin]
type = "s3"
aws_endpoint = "http://127.0.0.1:$s3_port"
aws_access_key_id = "S3RVER"
aws_secret_access_key = "S3RVER"
bucket = "higgins"
prefix = "test/"
TOML
cli create-configuration --file="$work/twin.toml" >"$work/twin.out" 2>&1 && fail "a second owner of test/ was accepted"
grep -q "prefix 'test/' belongs to another broker" "$work/twin.out" || fail "$(cat "$work/twin.out")"

step "produce 5000 records; the objects appear and decode with apache-arrow"
for i in 0 1 2 3 4; do produce events $((i * 1000)) 1000 || fail "$(cat "$work/produce.out")"; done
wait_rows test/ 5000
s=$(cat "$work/summary.json")
echo "$s" | "$node" -e '
  let s=""; process.stdin.on("data",d=>s+=d).on("end",()=>{
    const j = JSON.parse(s);
    const want = ["user:Utf8","seq:Int64","payload:Utf8"];
    if (JSON.stringify(j.fields) !== JSON.stringify(want)) { console.log("fields", j.fields); process.exit(1); }
    if (j.duplicates !== 0) { console.log("duplicates", j.duplicates); process.exit(1); }
    for (const u of ["u0","u1","u2","u3","u4"]) if (j.keys[u] !== 1000) { console.log(u, j.keys[u]); process.exit(1); }
    if (j.objects < 4) { console.log("objects", j.objects); process.exit(1); }
  })' || fail "decoded objects disagree: $s"
grep -Eq '^test/1/[01]/[0-9]{20}\.arrow [0-9]+$' "$work/fetched.list" || fail "object keys: $(head -3 "$work/fetched.list")"
grep -Evq '^(test/1/[01]/[0-9]{20}\.arrow|test/higgins-owner) [0-9]+$' "$work/fetched.list" &&
  fail "unexpected keys: $(cat "$work/fetched.list")"
grep -q '^test/higgins-owner ' "$work/fetched.list" || fail "no owner marker: $(cat "$work/fetched.list")"
check_all_partitions events 5000
first_object=$(head -1 "$work/fetched.list" | cut -d' ' -f1)
"$cli" arrow cat "$work/fetched/$first_object" >"$work/cat.ndjson" || fail "arrow cat of an object"
grep -q '"user":"u[0-4]","seq":[0-9]*,' "$work/cat.ndjson" || fail "arrow cat: $(head -2 "$work/cat.ndjson")"
echo "   $(wc -l <"$work/fetched.list") objects"

step "credentials appear neither in get-topography nor in the log"
cli get-topography >"$work/topography.out" 2>&1 || fail "get-topography: $(cat "$work/topography.out")"
grep -q 'aws_secret_access_key = "<redacted>"' "$work/topography.out" || fail "not redacted: $(cat "$work/topography.out")"
grep -q S3RVER "$work/topography.out" && fail "a credential in get-topography"
grep -q S3RVER "$work/broker.log" && fail "a credential in the broker log"
true

step "s3rver stopped during produce: produce goes on, uploads resume after its restart"
stop_s3
produce events 5000 1000 || fail "produce with s3 down: $(cat "$work/produce.out")"
produce events 6000 1000 || fail "produce with s3 down: $(cat "$work/produce.out")"
[ "$(count_partition events u3)" = 1400 ] || fail "u3 after produce with s3 down"
start_s3
wait_rows test/ 7000

step "broker kill -9 with uploads pending: replayed and uploaded after the restart"
stop_s3
produce events 7000 1000 || fail "$(cat "$work/produce.out")"
kill -KILL "$broker_pid"; wait "$broker_pid" 2>/dev/null || true
start_s3
restart_broker
wait_rows test/ 8000
check_all_partitions events 8000

step "reads of uploaded records fail clearly while s3rver is down, and work after"
kill -TERM "$broker_pid"; wait "$broker_pid" 2>/dev/null || true
restart_broker  # empty caches
stop_s3
if cli query --stream events --partition u1 --from 0 --output ndjson >"$work/query.out" 2>&1; then
  fail "a read of uploaded records succeeded with s3rver down"
fi
grep -q "from object storage" "$work/query.out" || fail "unclear read error: $(cat "$work/query.out")"
echo "   $(head -c 300 "$work/query.out")"
start_s3
[ "$(count_partition events u1)" = 1600 ] || fail "u1 after s3rver came back"

step "the local limit: produce fails clearly once it is reached, and nothing acknowledged is lost"
stop_s3
acked=8000
refused=
for i in $(seq 0 40); do
  if produce events $acked 1000; then
    acked=$((acked + 1000))
  else
    refused=$(cat "$work/produce.out"); break
  fi
done
[ -n "$refused" ] || fail "no refusal after $acked records"
echo "   refused after $acked records: $(echo "$refused" | head -c 300)"
echo "$refused" | grep -q "local_limit_bytes" || fail "unclear refusal: $refused"
start_s3
wait_rows test/ "$acked"
produce events "$acked" 1000 || fail "produce after s3rver came back: $(cat "$work/produce.out")"
acked=$((acked + 1000))
check_all_partitions events "$acked"

step "s3 answering HTTP 500: uploads are retried, then land"
touch "$work/fail500"
produce flaky_events 0 500 || fail "$(cat "$work/produce.out")"
sleep 1.5
grep -q "served 500" "$work/proxy.log" || fail "the proxy served no 500"
[ "$(rows_of "$(summary flaky/)")" = 0 ] || fail "objects appeared while the server answered 500"
rm "$work/fail500"
wait_rows flaky/ 500
echo "   $(grep -c 'served 500' "$work/proxy.log") requests answered 500 before the upload landed"
check_all_partitions flaky_events 500

kill -TERM "$broker_pid"; wait "$broker_pid" || fail "the broker did not stop cleanly"
broker_pid=
echo "s3_storage: all checks passed"
