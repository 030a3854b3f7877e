# A large NDJSON input is streamed: read, converted and sent a batch at a time, with up to 8
# produce requests in flight. 20,000 records into 2 partitions:

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

$ seq 0 19999 | awk '{ printf "{\"id\":\"%s\",\"data\":%d}\n", ($1 < 15000 ? "big" : "small"), $1 }' > big.ndjson
$ higgins-cli --port $PORT produce --stream amount --file big.ndjson
produced 20000 records to amount in * s (* records/s) (glob)

$ higgins-cli --port $PORT streams amount
name    kind    schema  partition_key  storage  buckets  partitions  records  lag
amount  source  amount  id             memory   1        2           20000    -

field  type    nullable
id     string  true
data   int32   true

partition  records  latest_offset
big        15000    14999
small      5000     4999

# A range longer than the broker's limit per reply (10,000 records) is fetched in several
# requests.

$ higgins-cli --port $PORT query --stream amount --partition big --from 0 --output ndjson | wc -l
15000

$ higgins-cli --port $PORT query --stream amount --partition big --from 9998 --to 10002 --output ndjson
{"offset":9998,"timestamp":"*","record":{"id":"big","data":9998}} (glob)
{"offset":9999,"timestamp":"*","record":{"id":"big","data":9999}} (glob)
{"offset":10000,"timestamp":"*","record":{"id":"big","data":10000}} (glob)
{"offset":10001,"timestamp":"*","record":{"id":"big","data":10001}} (glob)

$ higgins-cli --port $PORT query --stream amount --partition big --latest --output ndjson
{"offset":14999,"timestamp":"*","record":{"id":"big","data":14999}} (glob)

$ higgins-cli --port $PORT query --stream amount --partition small --offset 0 --output ndjson
{"offset":0,"timestamp":"*","record":{"id":"small","data":15000}} (glob)

# The same records as CSV, in batches of 3000 and with a bad value in row 12345: the batches
# before it (12,000 records) are committed.

$ (echo id,data; seq 0 19999 | awk '{ print "csv," ($1 == 12345 ? "x" : $1) }') > big.csv
$ higgins-cli --port $PORT produce --stream amount --file big.csv --format csv --batch-rows 3000
higgins-cli: InvalidArgument: 'big.csv': row 12345, field 'data': int32 expects an integer (got "x"); 12000 records were produced before the error and stay committed
[exit 1]

$ higgins-cli --port $PORT query --stream amount --partition csv --latest --output ndjson
{"offset":11999,"timestamp":"*","record":{"id":"csv","data":11999}} (glob)

# On a terminal, stderr shows a progress line (percent of the file read, records, records/s),
# redrawn at most 10 times a second and erased before the final line. `script` runs the command
# on a pseudo-terminal; sed and grep keep the final line.

$ script -qec "higgins-cli --port $PORT produce --stream amount --file big.ndjson" /dev/null | sed 's/\r/\n/g; s/\x1b\[K//g' | grep -a '^produced'
produced 20000 records to amount in * s (* records/s) (glob)

# The broker lists at most 10,000 partitions of a stream, the first in key order (big, csv,
# key00000 ... key09997 here); `streams NAME` says when there are more.

$ seq 0 10000 | awk '{ printf "{\"id\":\"key%05d\",\"data\":%d}\n", $1, $1 }' | higgins-cli --port $PORT produce --stream amount > /dev/null
$ higgins-cli --port $PORT streams amount | tail -n 3
key09996   1        0
key09997   1        0
(the broker listed 10000 of 10004 partitions)
