# A derived stream declared over a base that already holds records first processes all of them
# (its catch-up, docs/configuration.md "Catch-up"): create-configuration says how many, and
# `streams` shows the lag (input records not yet derived) until it reaches 0.

$ cat > config.toml <<'TOML'
> [storage.memory]
> type = "memory"
>
> [schema.amount]
> id = "string"
> data = "int32"
>
> [streams.amount]
> schema = "amount"
> partition_key = "id"
> TOML
$ higgins-cli --port $PORT create-configuration --file config.toml
configuration applied

# 40 records under 4 keys, before any derived stream exists.

$ for i in $(seq 1 40); do printf '{"id":"k%d","data":%d}\n' $((i % 4)) $i; done > amount.ndjson
$ higgins-cli --port $PORT produce --stream amount --file amount.ndjson
produced 40 records to amount in * s (* records/s) (glob)

$ cp "$UDF_EXAMPLES/double.wasm" double.wasm
$ higgins-cli --port $PORT upload-module --name double --file double.wasm
module double version 1 uploaded (* bytes) (glob)

$ cat > map.toml <<'TOML'
> [streams.doubled]
> type = "map"
> base = "amount"
> schema = "amount"
> partition_key = "id"
> fn = "double"
> TOML
$ higgins-cli --port $PORT create-configuration --file map.toml
configuration applied
stream 'doubled' started catching up on 40 records already in its inputs (its lag: higgins-cli streams doubled)

# Declaring it again adds nothing, so nothing catches up.

$ higgins-cli --port $PORT create-configuration --file map.toml
configuration applied

# A query that waits for the derived stream returns once the partition is derived; after all
# four, the catch-up is over and the lag is 0.

$ for k in k0 k1 k2 k3; do higgins-cli --port $PORT query --stream doubled --partition $k --latest --wait-for-derived --output ndjson; done
{"offset":9,"timestamp":"*","record":{"id":"k0","data":80}} (glob)
{"offset":9,"timestamp":"*","record":{"id":"k1","data":74}} (glob)
{"offset":9,"timestamp":"*","record":{"id":"k2","data":76}} (glob)
{"offset":9,"timestamp":"*","record":{"id":"k3","data":78}} (glob)

$ higgins-cli --port $PORT streams
name            kind    schema  partition_key  storage  buckets  partitions  records  lag
amount          source  amount  id             memory   1        4           40       -
doubled         map     amount  id             memory   1        4           40       0
doubled/errors  errors          partition      memory   1        0           0        -

$ higgins-cli --port $PORT streams doubled --output json
[
{"name":"doubled","kind":"map","schema":"amount","partition_key":"id","storage":"memory","buckets":1,"partition_count":4,"record_count":40,"lag":0,"fields":[{"name":"id","type":"string","nullable":true},{"name":"data","type":"int32","nullable":true}],"partitions":[{"key":"k0","records":10},{"key":"k1","records":10},{"key":"k2","records":10},{"key":"k3","records":10}],"partitions_truncated":false}
]

# A stream and a map over it declared together: the base starts empty, so there is no catch-up.

$ cat > pair.toml <<'TOML'
> [streams.counted]
> schema = "amount"
> partition_key = "id"
>
> [streams.counted_doubled]
> type = "map"
> base = "counted"
> schema = "amount"
> partition_key = "id"
> fn = "double"
> TOML
$ higgins-cli --port $PORT create-configuration --file pair.toml
configuration applied

# With one record in the base, the next map over it catches up on that "record".

$ echo '{"id":"x","data":5}' | higgins-cli --port $PORT produce --stream counted > /dev/null
$ cat > again.toml <<'TOML'
> [streams.counted_again]
> type = "map"
> base = "counted"
> schema = "amount"
> partition_key = "id"
> fn = "double"
> TOML
$ higgins-cli --port $PORT create-configuration --file again.toml
configuration applied
stream 'counted_again' started catching up on 1 record already in its inputs (its lag: higgins-cli streams counted_again)

$ higgins-cli --port $PORT query --stream counted_again --partition x --latest --wait-for-derived --output ndjson
{"offset":0,"timestamp":"*","record":{"id":"x","data":10}} (glob)

$ higgins-cli --port $PORT streams counted_again
name           kind  schema  partition_key  storage  buckets  partitions  records  lag
counted_again  map   amount  id             memory   1        1           1        0

field  type    nullable
id     string  true
data   int32   true

partition  records  latest_offset
x          1        0
