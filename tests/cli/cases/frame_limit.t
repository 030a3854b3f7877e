# Replies that always fit: a broker with a small --max-frame-bytes sizes every reply with all it
# carries (here long partition keys, which are in each record's data and again in the reply's
# partition field). A range answers the records that fit and `query --from` asks again from
# there until the range is done; a record that cannot fit in any reply is ResourceExhausted,
# and the error quotes only the first 64 bytes of the key.

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
$ higgins --port=0 --kafka-port=0 --http-port=0 --dir=small --max-frame-bytes=4096 > small.log 2>&1 & SMALL=$!
$ for i in $(seq 100); do grep -qs 'listening on' small.log && break; sleep 0.05; done
$ P=$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' small.log | head -n 1)
$ higgins-cli --port $P create-configuration --file config.toml
configuration applied

# Three records under a 1500-byte key: one fits in a 4096-byte reply, two do not. The key is
# printed as <key> here.

$ key=$(head -c 1500 /dev/zero | tr '\0' k)
$ for i in 1 2 3; do echo "{\"id\":\"$key\",\"data\":$i}"; done | higgins-cli --port $P produce --stream amount --batch-rows 1
produced 3 records to amount in * s (* records/s) (glob)

$ higgins-cli --port $P query --stream amount --partition "$key" --from 0 --output ndjson | sed "s/$key/<key>/"; echo "exit ${PIPESTATUS[0]}"
{"offset":0,"timestamp":"*","record":{"id":"<key>","data":1}} (glob)
{"offset":1,"timestamp":"*","record":{"id":"<key>","data":2}} (glob)
{"offset":2,"timestamp":"*","record":{"id":"<key>","data":3}} (glob)
exit 0

$ higgins-cli --port $P query --stream amount --partition "$key" --from 1 --to 3 --output ndjson | sed "s/$key/<key>/"; echo "exit ${PIPESTATUS[0]}"
{"offset":1,"timestamp":"*","record":{"id":"<key>","data":2}} (glob)
{"offset":2,"timestamp":"*","record":{"id":"<key>","data":3}} (glob)
exit 0

# A record under a 3000-byte key can be produced (the request holds the key once) but no reply
# can carry it (twice).

$ big=$(head -c 3000 /dev/zero | tr '\0' b)
$ echo "{\"id\":\"$big\",\"data\":7}" | higgins-cli --port $P produce --stream amount
produced 1 record to amount in * s (* records/s) (glob)

$ higgins-cli --port $P query --stream amount --partition "$big" --offset 0
higgins-cli: ResourceExhausted: stream 'amount': the record at offset 0 of partition 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'…(3000 bytes) needs a reply of 6452 bytes, more than the frame limit of 4096 bytes
[exit 1]

$ higgins-cli --port $P query --stream amount --partition "$big" --from 0
higgins-cli: ResourceExhausted: stream 'amount': the record at offset 0 of partition 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'…(3000 bytes) needs a reply of 6452 bytes, more than the frame limit of 4096 bytes
[exit 1]

$ kill -TERM $SMALL; wait $SMALL
