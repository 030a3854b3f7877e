# Window streams are views over their base (docs/configuration.md, "Window streams"): `query
# --offset W` prints window W and `--latest` the latest window, with its state and bounds. The
# product README's window example: tumbling windows of 5 records.

$ cat > window.toml <<'TOML'
> [storage.memory]
> type = "memory"
>
> [schema.value]
> id = "string"
> some_data = "string"
> other_data = "string"
> i = "int32"
>
> [streams.value]
> schema = "value"
> partition_key = "id"
>
> [streams.value_windowed]
> base = "value"
> type = "window"
> partition_key = "id"
> schema = "value"
> window = { type = "count", interval = "5" } # grouped into 5 records each
> TOML
$ higgins-cli --port $PORT create-configuration --file window.toml
configuration applied

$ for i in 1 2 3 4 5 6 7 8 9; do
>   echo "{\"id\":\"1\",\"some_data\":\"s$i\",\"other_data\":\"o\",\"i\":$i}"
> done | higgins-cli --port $PORT produce --stream value > /dev/null

# Nine records: window 1, the latest, holds the last four and is open; window 0 is closed.

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --latest
window 1 (open): base offsets [5, 10), 4 records
offset  timestamp                 id  some_data  other_data  i
5       *  1   s6         o           6 (glob)
6       *  1   s7         o           7 (glob)
7       *  1   s8         o           8 (glob)
8       *  1   s9         o           9 (glob)

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --offset 0
window 0 (closed): base offsets [0, 5), 5 records
offset  timestamp                 id  some_data  other_data  i
0       *  1   s1         o           1 (glob)
1       *  1   s2         o           2 (glob)
2       *  1   s3         o           3 (glob)
3       *  1   s4         o           4 (glob)
4       *  1   s5         o           5 (glob)

# JSON and NDJSON: one object per window, its members inside.

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --latest --output ndjson
{"window":1,"closed":false,"type":"count","start":5,"end":10,"records":[{"offset":5,"timestamp":"*","record":{"id":"1","some_data":"s6","other_data":"o","i":6}},{"offset":6,"timestamp":"*","record":{"id":"1","some_data":"s7","other_data":"o","i":7}},{"offset":7,"timestamp":"*","record":{"id":"1","some_data":"s8","other_data":"o","i":8}},{"offset":8,"timestamp":"*","record":{"id":"1","some_data":"s9","other_data":"o","i":9}}]} (glob)

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --offset 0 --output json | cut -c1-70
[
{"window":0,"closed":true,"type":"count","start":0,"end":5,"records":[
]

# Arrow IPC: the members, with the window in the schema's metadata.

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --latest --output arrow > w.arrow
$ higgins-cli arrow cat w.arrow
{"id":"1","some_data":"s6","other_data":"o","i":6}
{"id":"1","some_data":"s7","other_data":"o","i":7}
{"id":"1","some_data":"s8","other_data":"o","i":8}
{"id":"1","some_data":"s9","other_data":"o","i":9}

$ grep -c 'higgins:window_closed' w.arrow
1

# The tenth record closes window 1.

$ echo '{"id":"1","some_data":"s10","other_data":"o","i":10}' | higgins-cli --port $PORT produce --stream value > /dev/null
$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --latest | head -1
window 1 (closed): base offsets [5, 10), 5 records

# Errors: a window past the latest and a missing partition (nothing there: exit 3), range and
# time queries, produces.

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --offset 2
higgins-cli: NotFound: stream 'value_windowed': window 2 of partition '1' does not exist yet (the latest is 1)
[exit 3]

$ higgins-cli --port $PORT query --stream value_windowed --partition 2 --latest
higgins-cli: NotFound: stream 'value_windowed': partition '2' has no records
[exit 3]

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --from 0
higgins-cli: InvalidArgument: stream 'value_windowed': window streams answer --offset and --latest queries
[exit 1]

$ higgins-cli --port $PORT query --stream value_windowed --partition 1 --at-time 0
higgins-cli: InvalidArgument: stream 'value_windowed': window streams answer --offset and --latest queries
[exit 1]

$ echo '{"id":"1","some_data":"s","other_data":"o","i":1}' | higgins-cli --port $PORT produce --stream value_windowed
higgins-cli: InvalidArgument: stream 'value_windowed' is derived (window): its records are produced by the broker, not by clients
[exit 1]

# A window stream lists its base's partitions, each counting its windows.

$ higgins-cli --port $PORT streams value_windowed
name            kind    schema  partition_key  storage  buckets  partitions  records  lag
value_windowed  window  value   id             memory   1        1           2        -

field       type    nullable
id          string  true
some_data   string  true
other_data  string  true
i           int32   true

partition  records  latest_offset
1          2        1
