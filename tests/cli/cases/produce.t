# `produce` converts JSON, NDJSON or CSV to Arrow record batches with the stream's schema, or
# sends Arrow IPC as it is, in batches of --batch-rows records. Without a terminal on stderr it
# prints one line at the end (the timing varies, hence the regular expressions).

$ cat > config.toml <<'TOML'
> [storage.memory]
> type = "memory"
>
> [schema.amount]
> id = "string"
> data = { type = "int32", nullable = false }
>
> [streams.amount]
> schema = "amount"
> partition_key = "id"
> TOML
$ higgins-cli --port $PORT create-configuration --file config.toml
configuration applied

# JSON (the default format): one object, an array of objects, or NDJSON.

$ echo '{"id":"a","data":1}' | higgins-cli --port $PORT produce --stream amount
produced 1 record to amount in * s (* records/s) (glob)

$ echo '[{"id":"a","data":2}, {"id":"b","data":3}]' | higgins-cli --port $PORT produce --stream amount
produced 2 records to amount in * s (* records/s) (glob)

$ printf '{"id":"a","data":4}\n\n{"id":"b","data":5}\n' > more.ndjson
$ higgins-cli --port $PORT produce --stream amount --file more.ndjson
produced 2 records to amount in * s (* records/s) (glob)

# --format ndjson insists on one object per line; an object may still span lines in JSON.

$ printf '{\n  "id": "c",\n  "data": 6\n}\n' | higgins-cli --port $PORT produce --stream amount
produced 1 record to amount in * s (* records/s) (glob)

$ printf '{"id":"c","data":7}\n' | higgins-cli --port $PORT produce --stream amount --format ndjson
produced 1 record to amount in * s (* records/s) (glob)

# CSV has a header row; columns are matched by name.

$ printf 'data,id\n8,a\n9,"b"\n' > amount.csv
$ higgins-cli --port $PORT produce --stream amount --file amount.csv --format csv
produced 2 records to amount in * s (* records/s) (glob)

# Arrow IPC, a stream or a file (made here with `arrow convert`), is sent as it is, re-cut into
# batches of --batch-rows records.

$ printf '{"id":"d","data":10}\n{"id":"d","data":11}\n{"id":"d","data":12}\n' > d.ndjson
$ higgins-cli arrow convert --config config.toml --schema amount --input d.ndjson > d.arrows
$ higgins-cli --port $PORT produce --stream amount --file d.arrows --format arrow --batch-rows 2
produced 3 records to amount in * s (* records/s) (glob)

$ higgins-cli arrow convert --config config.toml --schema amount --input d.ndjson --to file > d.arrow
$ higgins-cli --port $PORT produce --stream amount --format arrow < d.arrow
produced 3 records to amount in * s (* records/s) (glob)

$ higgins-cli --port $PORT streams amount
name    kind    schema  partition_key  storage  buckets  partitions  records  lag
amount  source  amount  id             memory   1        4           15       -

field  type    nullable
id     string  true
data   int32   false

partition  records  latest_offset
a          4        3
b          3        2
c          2        1
d          6        5

# An empty input produces nothing, successfully.

$ higgins-cli --port $PORT produce --stream amount < /dev/null
produced 0 records to amount in * s (* records/s) (glob)

# A CSV header alone is still checked against the schema; a JSON line given as CSV fails.

$ printf 'zz,yy\n' | higgins-cli --port $PORT produce -s amount --format csv
higgins-cli: InvalidArgument: standard input: header: column 'zz' is not in the schema; no records were produced
[exit 1]

$ echo '{"id":"a","data":1}' | higgins-cli --port $PORT produce -s amount --format csv
higgins-cli: InvalidArgument: standard input: not CSV: the input looks like JSON; use --format json; no records were produced
[exit 1]

$ printf 'data,id\n' | higgins-cli --port $PORT produce -s amount --format csv
produced 0 records to amount in * s (* records/s) (glob)

# A bad row fails the command with its row number in the whole input (rows count from 0) and
# its field. Batches before it were produced and stay committed; a retry produces them again.

$ for i in 0 1 2 3 4; do echo "{\"id\":\"e\",\"data\":$i}"; done > bad.ndjson
$ echo '{"id":"e","data":"x"}' >> bad.ndjson
$ higgins-cli --port $PORT produce --stream amount --file bad.ndjson --batch-rows 2
higgins-cli: InvalidArgument: 'bad.ndjson': row 5, field 'data': int32 expects an integer (got "x"); 4 records were produced before the error and stay committed
[exit 1]

$ printf 'id,data\nf,1\nf,\n' | higgins-cli --port $PORT produce --stream amount --format csv
higgins-cli: InvalidArgument: standard input: row 1, field 'data': empty (null) value for a non-nullable field; no records were produced
[exit 1]

$ echo '{"id":"f","data":1,"extra":true}' | higgins-cli --port $PORT produce --stream amount
higgins-cli: InvalidArgument: standard input: row 0, field 'extra': not in the schema; no records were produced
[exit 1]

$ printf '{"id":"f","data":1}\n{"id":"f","data":2' | higgins-cli --port $PORT produce --stream amount
higgins-cli: InvalidArgument: standard input: row 1: malformed JSON near byte 38: the text ends inside an object; no records were produced
[exit 1]

$ printf '{"id":"f","data":1}}\n' | higgins-cli --port $PORT produce --stream amount
higgins-cli: InvalidArgument: standard input: row 0: malformed JSON near byte 19: '}' closes nothing; no records were produced
[exit 1]

$ printf '[{"id":"f","data":1},\n {"id":"g","data":2' | higgins-cli --port $PORT produce --stream amount
higgins-cli: InvalidArgument: standard input: row 0: malformed JSON near byte 41: the text ends inside an object; no records were produced
[exit 1]

# CSV given as JSON (the default format) is named too.

$ printf 'id,data\na,1\n' > orders.csv
$ higgins-cli --port $PORT produce --stream amount --file orders.csv
higgins-cli: InvalidArgument: 'orders.csv': not JSON: records are JSON objects, and the input starts with 'i'; the input looks like CSV; use --format csv; no records were produced
[exit 1]

# Arrow given as JSON, or text given as Arrow, is named.

$ higgins-cli --port $PORT produce --stream amount --file d.arrows
higgins-cli: InvalidArgument: 'd.arrows': not JSON: the input looks like Arrow IPC; use --format arrow; no records were produced
[exit 1]

$ higgins-cli --port $PORT produce --stream amount --file d.arrow --format csv
higgins-cli: InvalidArgument: 'd.arrow': not CSV: the input looks like Arrow IPC; use --format arrow; no records were produced
[exit 1]

# Other inputs that cannot be text are named before anything is sent: gzip, UTF-16.
# A CSV holding only a UTF-8 byte order mark (an empty sheet saved as "CSV UTF-8") is empty.

$ printf 'id,data\na,1\n' | gzip > orders.csv.gz
$ higgins-cli --port $PORT produce --stream amount --file orders.csv.gz --format csv
higgins-cli: InvalidArgument: 'orders.csv.gz': not CSV: the input is gzip-compressed; decompress it first (zcat FILE | higgins-cli produce ...); no records were produced
[exit 1]

$ printf '\xff\xfei\x00d\x00,\x00d\x00a\x00t\x00a\x00\n\x00' > utf16.csv
$ higgins-cli --port $PORT produce --stream amount --file utf16.csv --format csv
higgins-cli: InvalidArgument: 'utf16.csv': not CSV: the input is UTF-16 (it starts with a UTF-16 byte order mark); convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8 FILE); no records were produced
[exit 1]

$ printf '\xef\xbb\xbf' | higgins-cli --port $PORT produce --stream amount --format csv
produced 0 records to amount in * s (* records/s) (glob)

$ printf '\xef\xbb\xbfid,data\r\nbom,7\r\n' | higgins-cli --port $PORT produce --stream amount --format csv
produced 1 record to amount in * s (* records/s) (glob)

$ higgins-cli --port $PORT produce --stream amount --file d.ndjson --format arrow
higgins-cli: Corruption: 'd.ndjson': not an Arrow IPC stream: expected the continuation marker 0xFFFFFFFF, got 1684611707 (as a pre-0.15 metadata length it exceeds the limit of 16777216 bytes); the input looks like JSON; use --format json; no records were produced
[exit 1]

# An Arrow input with another schema is refused by the broker, which names the difference.

$ printf '[schema.other]\nid = "string"\ndata = "int64"\n' > other.toml
$ higgins-cli arrow convert --config other.toml --schema other --input d.ndjson > other.arrows
$ higgins-cli --port $PORT produce --stream amount --file other.arrows --format arrow
higgins-cli: InvalidArgument: rows 0 to 2: produce to stream 'amount': the payload's schema differs from the stream's: field 'data' is int64, the stream has int32; no records were produced
[exit 1]

# Unknown streams, missing files and bad options.

$ echo '{"id":"a","data":1}' | higgins-cli --port $PORT produce --stream nope
higgins-cli: NotFound: stream 'nope' does not exist (declared streams: amount)
[exit 1]

$ higgins-cli --port $PORT produce --stream amount --file missing.json
higgins-cli: IOError: cannot open 'missing.json': No such file or directory
[exit 1]

$ higgins-cli --port $PORT produce --file d.ndjson
--stream is required
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT produce --stream amount --format xml
--format: xml not in {json,ndjson,csv,arrow}
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT produce --stream amount --batch-rows 1e3
--batch-rows: not a number: expected an integer (got '1e3')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT produce --stream "" < /dev/null
--stream: must not be empty
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT produce --stream amount --batch-rows 0
--batch-rows: Value 0 not in range 1 to 1000000
Run with --help or --help-all for more information.
[exit 2]

# Of the failed commands above, only the first two batches of bad.ndjson (partition e) were
# committed.

$ higgins-cli --port $PORT streams amount
name    kind    schema  partition_key  storage  buckets  partitions  records  lag
amount  source  amount  id             memory   1        6           20       -

field  type    nullable
id     string  true
data   int32   false

partition  records  latest_offset
a          4        3
b          3        2
bom        1        0
c          2        1
d          6        5
e          4        3

# Partition keys are checked before sending, and named by their row in the whole input.

$ seq 0 12 | awk '{ printf "{\"id\":%s,\"data\":%d}\n", ($1 == 11 ? "null" : "\"g\""), $1 }' > nullkey.ndjson
$ higgins-cli --port $PORT produce --stream amount --file nullkey.ndjson --batch-rows 5
higgins-cli: InvalidArgument: 'nullkey.ndjson': row 11, field 'id': the partition key is null; 10 records were produced before the error and stay committed
[exit 1]

$ echo '{"id":"","data":1}' | higgins-cli --port $PORT produce --stream amount
higgins-cli: InvalidArgument: standard input: row 0, field 'id': the partition key is empty; no records were produced
[exit 1]

$ printf '{"id":"%05000d","data":1}\n' 0 | higgins-cli --port $PORT produce --stream amount
higgins-cli: InvalidArgument: standard input: row 0, field 'id': the partition key has 5000 bytes, more than the limit of 4096; no records were produced
[exit 1]

# From a pipe or a terminal, complete records are sent once they have waited --linger-ms (100 by
# default), without waiting for a full batch: the query in the middle sees the first record
# while the input is still open.

$ (echo '{"id":"slow","data":1}'; sleep 2; higgins-cli --port $PORT query --stream amount --partition slow --latest --output ndjson | cut -c1-12 >&2; sleep 0.2) | higgins-cli --port $PORT produce --stream amount
{"offset":0,
produced 1 record to amount in * s (* records/s) (glob)

# Ctrl-C (SIGINT) stops reading; what was sent is still acknowledged and counted.

$ (for i in $(seq 1 100); do echo "{\"id\":\"int\",\"data\":$i}"; sleep 0.05; done) | higgins-cli --port $PORT produce --stream amount 2> int.err & producer=$!; sleep 1.5; kill -INT $producer; wait $producer; echo "exit $?"
exit 1

$ sed -E 's/[0-9]+ records/N records/' int.err
higgins-cli: IOError: interrupted (SIGINT or SIGTERM) before the end of standard input; N records were produced before the error and stay committed

$ test "$(grep -oE '[0-9]+ records' int.err | cut -d' ' -f1)" = "$(higgins-cli --port $PORT query --stream amount --partition int --from 0 --output ndjson | wc -l)" && echo same
same
