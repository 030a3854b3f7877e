# `streams` lists the broker's streams; with a name, also the stream's fields and partitions
# (records per partition and the latest offset, count - 1).

$ higgins-cli --port $PORT streams
name  kind  schema  partition_key  storage  buckets  partitions  records  lag

$ cat > config.toml <<'TOML'
> [storage.memory]
> type = "memory"
>
> [schema.amount]
> id = "string"
> data = "int32"
>
> [schema.reading]
> sensor = { type = "uint32", nullable = false }
> value = "float64"
>
> [streams.amount]
> schema = "amount"
> partition_key = "id"
>
> [streams.readings]
> schema = "reading"
> partition_key = "sensor"
> buckets = 4
> TOML
$ higgins-cli --port $PORT create-configuration --file config.toml
configuration applied

$ printf '{"id":"a","data":1}\n{"id":"b","data":2}\n{"id":"a","data":3}\n' | higgins-cli --port $PORT produce --stream amount > /dev/null
$ printf 'sensor,value\n7,0.5\n42,1e3\n' | higgins-cli --port $PORT produce --stream readings --format csv > /dev/null

$ higgins-cli --port $PORT streams
name      kind    schema   partition_key  storage  buckets  partitions  records  lag
amount    source  amount   id             memory   1        2           3        -
readings  source  reading  sensor         memory   4        2           2        -

$ higgins-cli --port $PORT streams amount
name    kind    schema  partition_key  storage  buckets  partitions  records  lag
amount  source  amount  id             memory   1        2           3        -

field  type    nullable
id     string  true
data   int32   true

partition  records  latest_offset
a          2        1
b          1        0

# Integer partition keys are their decimal text; partitions are listed in key order (bytewise).

$ higgins-cli --port $PORT streams readings
name      kind    schema   partition_key  storage  buckets  partitions  records  lag
readings  source  reading  sensor         memory   4        2           2        -

field   type     nullable
sensor  uint32   false
value   float64  true

partition  records  latest_offset
42         1        0
7          1        0

$ higgins-cli --port $PORT query --stream readings --partition 42 --latest --output ndjson
{"offset":0,"timestamp":"*","record":{"sensor":42,"value":1000}} (glob)

# JSON lists every stream with its fields and partitions.

$ higgins-cli --port $PORT streams --output json
[
{"name":"amount","kind":"source","schema":"amount","partition_key":"id","storage":"memory","buckets":1,"partition_count":2,"record_count":3,"lag":null,"fields":[{"name":"id","type":"string","nullable":true},{"name":"data","type":"int32","nullable":true}],"partitions":[{"key":"a","records":2},{"key":"b","records":1}],"partitions_truncated":false},
{"name":"readings","kind":"source","schema":"reading","partition_key":"sensor","storage":"memory","buckets":4,"partition_count":2,"record_count":2,"lag":null,"fields":[{"name":"sensor","type":"uint32","nullable":false},{"name":"value","type":"float64","nullable":true}],"partitions":[{"key":"42","records":1},{"key":"7","records":1}],"partitions_truncated":false}
]

$ higgins-cli --port $PORT streams nope
higgins-cli: NotFound: stream 'nope' does not exist (declared streams: amount, readings)
[exit 1]

$ higgins-cli --port $PORT streams ""
NAME: must not be empty
Run with --help or --help-all for more information.
[exit 2]
