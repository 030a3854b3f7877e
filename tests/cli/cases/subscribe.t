# `subscribe` follows a stream through a subscription, like `tail -f`: it creates a subscription
# (or resumes one given with --subscription), asks the broker for records in batches (--batch),
# prints each delivery as it arrives, then acknowledges exactly what it printed. It stops after
# --count records or on SIGINT / SIGTERM, and deletes the subscription it created unless --keep.
# Standard error names the subscription and sums up at the end. Subscription ids are random:
# they are matched with regular expressions, or kept in a variable.

$ cat > config.toml <<'TOML'
> [storage.memory]
> type = "memory"
>
> [schema.event]
> key = "string"
> n = "int64"
>
> [streams.events]
> schema = "event"
> partition_key = "key"
> TOML
$ higgins-cli --port $PORT create-configuration --file config.toml
configuration applied

$ cat > events.ndjson <<'JSON'
> {"key":"a","n":1}
> {"key":"a","n":2}
> {"key":"b","n":3}
> {"key":"a","n":4}
> {"key":"b","n":5}
> JSON
$ higgins-cli --port $PORT produce --stream events --file events.ndjson > /dev/null

# --from beginning --count N prints exactly N records (a partition column first: records come
# from every partition, each partition in offset order; then whether the record was delivered
# before), then deletes the subscription.

$ higgins-cli --port $PORT subscribe --stream events --from beginning --count 4
subscription [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} created on stream 'events' \(from beginning\) (re)
partition  redelivered  offset  timestamp                 key  n
a          false        0       *  a    1 (glob)
a          false        1       *  a    2 (glob)
a          false        2       *  a    4 (glob)
b          false        0       *  b    3 (glob)
4 records printed and acknowledged; subscription [0-9a-f-]{36} deleted (re)

$ higgins-cli --port $PORT subscriptions
id  stream  start  timeout_ms  consumers  unacknowledged  pending  durable

# --keep keeps it; the id is on standard error, to resume with --subscription. Each JSON object
# is query's, with "partition" and "redelivered" first.

$ higgins-cli --port $PORT subscribe --stream events --from beginning --count 3 --keep --output ndjson 2> subscribe.err
{"partition":"a","redelivered":false,"offset":0,"timestamp":"*","record":{"key":"a","n":1}} (glob)
{"partition":"a","redelivered":false,"offset":1,"timestamp":"*","record":{"key":"a","n":2}} (glob)
{"partition":"a","redelivered":false,"offset":2,"timestamp":"*","record":{"key":"a","n":4}} (glob)

$ id=$(grep -oE '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}' subscribe.err | head -1)
$ sed "s/$id/ID/g" subscribe.err
subscription ID created on stream 'events' (from beginning)
3 records printed and acknowledged; subscription ID kept (resume with --subscription ID)

# `subscriptions` lists them: the start, the visibility timeout (the broker's default), the
# connections consuming, records delivered and not acknowledged, and records not delivered yet.
# A stream in memory keeps no subscription across restarts (durable false).

$ higgins-cli --port $PORT subscriptions --stream events
id                                    stream  start      timeout_ms  consumers  unacknowledged  pending  durable
[0-9a-f-]{36}  events  beginning  30000       0          0               2        false (re)

# `subscription ID`: every offset below a partition's watermark is acknowledged.

$ higgins-cli --port $PORT subscription $id
id                                    stream  start      timeout_ms  consumers  unacknowledged  pending  durable
[0-9a-f-]{36}  events  beginning  30000       0          0               2        false (re)

partition  watermark  records  next_offset  unacknowledged  acknowledged_above
a          3          3        3            0               0
b          0          2        0            0               0

consumer  demand  in_flight

# Resuming continues after what was acknowledged (the id may be given in upper case too).

$ higgins-cli --port $PORT subscribe --subscription ${id^^} --count 2 --output ndjson
{"partition":"b","redelivered":false,"offset":0,"timestamp":"*","record":{"key":"b","n":3}} (glob)
{"partition":"b","redelivered":false,"offset":1,"timestamp":"*","record":{"key":"b","n":5}} (glob)
2 records printed and acknowledged

# Without --count it waits for new records until SIGINT or SIGTERM, then acknowledges what it
# printed and stops cleanly. (A new partition, c, is picked up too.)

$ higgins-cli --port $PORT subscribe --subscription $id --output ndjson > tail.out 2> tail.err & pid=$!
$ echo '{"key":"c","n":6}' | higgins-cli --port $PORT produce --stream events > /dev/null
$ for i in $(seq 200); do [ -s tail.out ] && break; sleep 0.05; done
$ kill -INT $pid; wait $pid; echo "exit $?"
exit 0
$ cat tail.out tail.err
{"partition":"c","redelivered":false,"offset":0,"timestamp":"*","record":{"key":"c","n":6}} (glob)
1 record printed and acknowledged

$ higgins-cli --port $PORT subscription $id | tail -n +4
partition  watermark  records  next_offset  unacknowledged  acknowledged_above
a          3          3        3            0               0
b          2          2        2            0               0
c          1          1        1            0               0

consumer  demand  in_flight

# The default start is `current` (like kafka-console-consumer without --from-beginning): only
# records committed after the subscription was created.

$ higgins-cli --port $PORT subscribe --stream events --count 2 --output ndjson > current.out 2> current.err & pid=$!
$ for i in $(seq 200); do grep -qs created current.err && break; sleep 0.05; done
$ printf '{"key":"a","n":7}\n{"key":"a","n":8}\n' | higgins-cli --port $PORT produce --stream events > /dev/null
$ wait $pid; echo "exit $?"
exit 0
$ cat current.out; sed -E 's/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/ID/g' current.err
{"partition":"a","redelivered":false,"offset":3,"timestamp":"*","record":{"key":"a","n":7}} (glob)
{"partition":"a","redelivered":false,"offset":4,"timestamp":"*","record":{"key":"a","n":8}} (glob)
subscription ID created on stream 'events' (from current)
2 records printed and acknowledged; subscription ID deleted

# create-subscription only creates one, with subscribe's --from and --visibility-timeout-ms: the
# id on standard output (for scripts), the same note as subscribe on standard error.

$ sub=$(higgins-cli --port $PORT create-subscription --stream events --from offset:4 2> create.err)
$ sed "s/$sub/ID/g" create.err
subscription ID created on stream 'events' (from offset 4)
$ higgins-cli --port $PORT subscriptions | grep -cE "^$sub  events  offset +30000 "
1

# --no-ack prints records and acknowledges none. Records printed and not acknowledged are
# delivered again (at once when their consumer goes, else after the visibility timeout), marked
# as redelivered: a column in the table, a member in JSON.

$ higgins-cli --port $PORT subscribe --subscription $sub --no-ack --count 1 --output ndjson
{"partition":"a","redelivered":false,"offset":4,"timestamp":"*","record":{"key":"a","n":8}} (glob)
1 record printed and not acknowledged (--no-ack)

$ higgins-cli --port $PORT subscribe --subscription $sub --count 1
partition  redelivered  offset  timestamp                 key  n
a          true         4       *  a    8 (glob)
1 record printed and acknowledged

# Arrow IPC holds the records alone, so a redelivery is noted on standard error.

$ echo '{"key":"a","n":9}' | higgins-cli --port $PORT produce --stream events > /dev/null
$ higgins-cli --port $PORT subscribe --subscription $sub --no-ack --count 1 --output arrow > first.arrows
1 record printed and not acknowledged (--no-ack)
$ higgins-cli --port $PORT subscribe --subscription $sub --count 1 --output arrow > again.arrows
redelivered: partition 'a', offset 5
1 record printed and acknowledged
$ higgins-cli arrow cat again.arrows
{"key":"a","n":9}

$ higgins-cli --port $PORT delete-subscription $sub > /dev/null

$ higgins-cli --port $PORT create-subscription --stream nope
higgins-cli: NotFound: stream 'nope' does not exist (declared streams: events)
[exit 1]

$ higgins-cli --port $PORT create-subscription --from beginning
--stream is required
Run with --help or --help-all for more information.
[exit 2]

# offset:N starts every partition at offset N; time:T at the first record committed at or after
# T (as query --at-time takes it). A JSON array is closed at the end.

$ higgins-cli --port $PORT subscribe --stream events --from offset:4 --count 1 --output json 2> /dev/null
[
{"partition":"a","redelivered":false,"offset":4,"timestamp":"*","record":{"key":"a","n":8}} (glob)
]

$ higgins-cli --port $PORT subscribe --stream events --from time:1970-01-01T00:00:00Z --count 1 --output ndjson 2> /dev/null
{"partition":"a","redelivered":false,"offset":0,"timestamp":"*","record":{"key":"a","n":1}} (glob)

# delete-subscription removes it.

$ higgins-cli --port $PORT delete-subscription $id
deleted subscription [0-9a-f-]{36} (re)

$ higgins-cli --port $PORT subscription $id
higgins-cli: NotFound: subscription [0-9a-f-]{36} does not exist (re)
[exit 1]

$ higgins-cli --port $PORT subscriptions
id  stream  start  timeout_ms  consumers  unacknowledged  pending  durable

# A subscription of a stream on file storage is durable: it outlives broker restarts.

$ cat > disk.toml <<'TOML'
> [storage.disk]
> type = "file"
>
> [streams.logged]
> schema = "event"
> partition_key = "key"
> storage = "disk"
> TOML
$ higgins-cli --port $PORT create-configuration --file disk.toml
configuration applied
$ echo '{"key":"k","n":1}' | higgins-cli --port $PORT produce --stream logged > /dev/null
$ higgins-cli --port $PORT subscribe --stream logged --from beginning --count 1 --keep --output ndjson 2> /dev/null
{"partition":"k","redelivered":false,"offset":0,"timestamp":"*","record":{"key":"k","n":1}} (glob)
$ higgins-cli --port $PORT subscriptions
id                                    stream  start      timeout_ms  consumers  unacknowledged  pending  durable
[0-9a-f-]{36}  logged  beginning  30000       0          0               0        true (re)

# Errors: an unknown stream or subscription, a malformed id, and usage errors.

$ higgins-cli --port $PORT subscribe --stream nope
higgins-cli: NotFound: stream 'nope' does not exist (declared streams: events, logged)
[exit 1]

$ higgins-cli --port $PORT subscribe --subscription 00000000-0000-0000-0000-000000000000
higgins-cli: NotFound: subscription 00000000-0000-0000-0000-000000000000 does not exist
[exit 1]

$ higgins-cli --port $PORT subscription not-an-id
higgins-cli: InvalidArgument: 'not-an-id' is not a subscription id: expected a UUID (8-4-4-4-12 hex digits, or 32 hex digits)
[exit 1]

$ higgins-cli --port $PORT subscribe --stream events --from latest
--from: 'latest' is not a start: expected beginning, current, offset:N or time:T (ms since the Unix epoch or ISO 8601)
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT subscribe --stream events --from offset:x
--from: 'offset:x': the offset must be a decimal integer below 2^64
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT subscribe --count 1
--stream: is required to create a subscription
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT subscribe --subscription 00000000-0000-0000-0000-000000000000 --from beginning
--from excludes --subscription
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT subscribe --stream events --count 0
--count: must be at least 1 (got '0')
Run with --help or --help-all for more information.
[exit 2]
