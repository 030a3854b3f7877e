# What `produce` reports when a batch fails part-way through an input: what stays committed, what
# was not, and what is in doubt. These cases start a second broker of their own ($P2), with a
# limit of 5 records per request, so the broker itself refuses some batches (and of 2000 records
# per range reply).

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

# An Arrow batch too large for one request (4 records of 20 MB) is split in halves until the
# requests fit.

$ printf '[schema.blob]\nid = "string"\npad = "string"\n[streams.blob]\nschema = "blob"\npartition_key = "id"\n' > blob.toml
$ higgins-cli --port $PORT create-configuration --file blob.toml
configuration applied

$ awk 'BEGIN { for (r = 0; r < 4; r++) { printf "{\"id\":\"b\",\"pad\":\""; for (i = 0; i < 20000; i++) printf "%01000d", r; printf "\"}\n" } }' > blob.ndjson
$ higgins-cli arrow convert --config blob.toml --schema blob --from ndjson --input blob.ndjson > blob.arrows
$ higgins-cli --port $PORT produce --stream blob --file blob.arrows --format arrow
produced 4 records to blob in * s (* records/s) (glob)

# A record too large for one request (64 MiB; here its 70 MB field) is refused before anything of
# it is sent, and nothing is sent after it. Its row counts in the whole input.

$ awk 'BEGIN { printf "{\"id\":\"h\",\"pad\":\"1\"}\n{\"id\":\"h\",\"pad\":\"2\"}\n{\"id\":\"h\",\"pad\":\""; for (i = 0; i < 70000; i++) printf "%01000d", 0; printf "\"}\n{\"id\":\"h\",\"pad\":\"4\"}\n" }' > huge.ndjson
$ higgins-cli --port $PORT produce --stream blob --file huge.ndjson --batch-rows 2
higgins-cli: ResourceExhausted: row 2 of 'huge.ndjson' is * bytes as a request; the largest request is 67108864 bytes (--max-frame-bytes of the broker); 2 records were produced before the error and stay committed (glob)
[exit 1]

$ higgins-cli --port $PORT query --stream blob --partition h --from 0 --output ndjson
{"offset":0,"timestamp":"*","record":{"id":"h","pad":"1"}} (glob)
{"offset":1,"timestamp":"*","record":{"id":"h","pad":"2"}} (glob)

$ start_second_broker() {
>   higgins --port=0 --kafka-port=0 --http-port=0 --dir=b2 --max-records-per-request=5 --max-range-records=2000 > b2.log 2>&1 &
>   B2=$!
>   for i in $(seq 100); do grep -qs 'listening on' b2.log && break; sleep 0.05; done
>   P2=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' b2.log | head -n 1)
>   higgins-cli --port $P2 create-configuration --file config.toml
> }
$ start_second_broker
configuration applied

# Batches of 6 records are refused by this broker; the last batch, of 3, is committed although it
# was sent after the failing one (up to 8 requests are in flight): the message says so.

$ seq 0 14 | awk '{ printf "{\"id\":\"k\",\"data\":%d}\n", $1 }' > fifteen.ndjson
$ higgins-cli --port $P2 produce --stream amount --file fifteen.ndjson --batch-rows 6
higgins-cli: ResourceExhausted: rows 0 to 5: *; no records were produced before the error; of the batches already sent after the failing one (rows 6 to 14), 3 records were committed and 6 were not (glob)
[exit 1]

$ higgins-cli --port $P2 query --stream amount --partition k --from 0 --output ndjson
{"offset":0,"timestamp":"*","record":{"id":"k","data":12}} (glob)
{"offset":1,"timestamp":"*","record":{"id":"k","data":13}} (glob)
{"offset":2,"timestamp":"*","record":{"id":"k","data":14}} (glob)

# A query interrupted by a connection failure says how far it got. The reader of the output is
# slow, so the broker is stopped (SIGSTOP) while the first reply (offsets 0 to 1999) is printed;
# the second query gets no reply within --timeout.

$ seq 0 2999 | awk '{ printf "{\"id\":\"q\",\"data\":%d}\n", $1 }' | higgins-cli --port $P2 produce --stream amount --batch-rows 5
produced 3000 records to amount in * s (* records/s) (glob)

$ higgins-cli --port $P2 --timeout 1 query --stream amount --partition q --from 0 --output ndjson | { sleep 1; kill -STOP $B2; wc -l; }
higgins-cli: DeadlineExceeded: *; interrupted after offset 1999 (2000 records printed) (glob)
2000

$ kill -CONT $B2

# The connection failing (here the broker stops answering: SIGSTOP, and --timeout 2) leaves the
# batches sent without a reply in doubt: they may or may not have been committed. Rows 0 to 9
# were acknowledged before the broker stopped (the input waits until the broker holds them,
# however slowly the machine runs); rows 10 to 14 and 15 to 19 were sent after.

$ rows() { seq $1 $2 | awk '{ printf "{\"id\":\"s\",\"data\":%d}\n", $1 }'; }
$ held() { higgins-cli --port $P2 query --stream amount --partition s --from 0 --output ndjson 2>/dev/null | wc -l; }
$ (rows 0 9; until [ "$(held)" -eq 10 ]; do sleep 0.05; done; kill -STOP $B2; rows 10 19) | higgins-cli --port $P2 --timeout 2 produce --stream amount --batch-rows 5
higgins-cli: DeadlineExceeded: rows 10 to 14: no reply to the produce request within 2000 ms; 10 records were acknowledged and stay committed; rows 10 to 19 (10 records) were in flight and may or may not be committed (glob)
[exit 1]

$ kill -CONT $B2; kill -TERM $B2; wait $B2
