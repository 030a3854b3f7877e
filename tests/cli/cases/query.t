# `query` reads the records of one partition: at an offset, the latest, a range of offsets, or
# the first at or after a time. The output is a table (default), JSON, NDJSON or Arrow IPC.
# Commit timestamps vary from run to run, hence the regular expressions.

$ cat > config.toml <<'TOML'
> [storage.memory]
> type = "memory"
>
> [schema.event]
> key = "string"
> n = "int64"
> price = "decimal(10,2)"
> at = "timestamp(ms, UTC)"
> note = "string"
>
> [streams.events]
> schema = "event"
> partition_key = "key"
> TOML
$ higgins-cli --port $PORT create-configuration --file config.toml
configuration applied

$ cat > events.ndjson <<'JSON'
> {"key":"k1","n":1,"price":"12.3","at":"2026-11-29T12:00:00Z","note":"first"}
> {"key":"k1","n":2,"price":-0.5,"at":0,"note":null}
> {"key":"k2","n":3,"price":7,"at":"2026-11-29T12:00:00.250Z","note":"say \"hi\"\nbye"}
> {"key":"k1","n":4,"price":"1.00","at":null,"note":"four"}
> JSON
$ higgins-cli --port $PORT produce --stream events --file events.ndjson > /dev/null

# One record by offset, as a table: offset and commit timestamp (UTC, ms; * here, as it varies),
# then the fields, rendered as in docs/json.md without the quotes of strings.

$ higgins-cli --port $PORT query --stream events --partition k1 --offset 1
offset  timestamp                 key  n  price  at                        note
1       *  k1   2  -0.50  1970-01-01T00:00:00.000Z  null (glob)

$ higgins-cli --port $PORT query --stream events --partition k2 --latest
offset  timestamp                 key  n  price  at                        note
0       *  k2   3  7.00   2026-11-29T12:00:00.250Z  say \"hi\"\nbye (glob)

# A range is --from (inclusive) to --to (exclusive); without --to it runs to the partition's end.

$ higgins-cli --port $PORT query --stream events --partition k1 --from 0 --to 2
offset  timestamp                 key  n  price  at                        note
0       *  k1   1  12.30  2026-11-29T12:00:00.000Z  first (glob)
1       *  k1   2  -0.50  1970-01-01T00:00:00.000Z  null (glob)

$ higgins-cli --port $PORT query --stream events --partition k1 --from 1
offset  timestamp                 key  n  price  at                        note
1       *  k1   2  -0.50  1970-01-01T00:00:00.000Z  null (glob)
2       *  k1   4  1.00   null                      four (glob)

# --to past the end stops at the end.

$ higgins-cli --port $PORT query --stream events --partition k1 --from 2 --to 100 --output ndjson
{"offset":2,"timestamp":"*","record":{"key":"k1","n":4,"price":"1.00","at":null,"note":"four"}} (glob)

# JSON: one array; NDJSON: one object per line. Each record is
# {"offset":N,"timestamp":"...","record":{...}}.

$ higgins-cli --port $PORT query --stream events --partition k1 --from 0 --output json
[
{"offset":0,"timestamp":"*","record":{"key":"k1","n":1,"price":"12.30","at":"2026-11-29T12:00:00.000Z","note":"first"}}, (glob)
{"offset":1,"timestamp":"*","record":{"key":"k1","n":2,"price":"-0.50","at":"1970-01-01T00:00:00.000Z","note":null}}, (glob)
{"offset":2,"timestamp":"*","record":{"key":"k1","n":4,"price":"1.00","at":null,"note":"four"}} (glob)
]

$ higgins-cli --port $PORT query --stream events --partition k2 --offset 0 --output ndjson
{"offset":0,"timestamp":"*","record":{"key":"k2","n":3,"price":"7.00","at":"2026-11-29T12:00:00.250Z","note":"say \"hi\"\nbye"}} (glob)

# Arrow: an IPC stream of the records alone.

$ higgins-cli --port $PORT query --stream events --partition k1 --from 0 --output arrow > k1.arrows
$ higgins-cli arrow cat k1.arrows
{"key":"k1","n":1,"price":"12.30","at":"2026-11-29T12:00:00.000Z","note":"first"}
{"key":"k1","n":2,"price":"-0.50","at":"1970-01-01T00:00:00.000Z","note":null}
{"key":"k1","n":4,"price":"1.00","at":null,"note":"four"}

# Arrow is refused when standard output is a terminal (`script` runs the command on a
# pseudo-terminal).

$ (set -o pipefail; script -qec "higgins-cli --port $PORT query --stream events --partition k1 --latest --output arrow" /dev/null | tr -d '\r')
higgins-cli: InvalidArgument: refusing to write Arrow IPC to a terminal; redirect standard output to a file or a pipe
[exit 1]

# --at-time: the first record committed at or after a time, given in ms since the Unix epoch or
# as ISO 8601. Time 0 is the first record.

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time 0 --output ndjson
{"offset":0,"timestamp":"*","record":{"key":"k1","n":1,"price":"12.30","at":"2026-11-29T12:00:00.000Z","note":"first"}} (glob)

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time 1970-01-01T00:00:00Z --output ndjson
{"offset":0,"timestamp":"*","record":{"key":"k1","n":1,"price":"12.30","at":"2026-11-29T12:00:00.000Z","note":"first"}} (glob)

$ sleep 0.05; before=$(date +%s%3N); sleep 0.05
$ echo '{"key":"k1","n":5}' | higgins-cli --port $PORT produce --stream events > /dev/null
$ higgins-cli --port $PORT query --stream events --partition k1 --at-time $before --output ndjson
{"offset":3,"timestamp":"*","record":{"key":"k1","n":5,"price":null,"at":null,"note":null}} (glob)

$ iso=$(date -u -d @$((before / 1000)) +%Y-%m-%dT%H:%M:%S).$(printf %03d $((before % 1000)))Z
$ higgins-cli --port $PORT query --stream events --partition k1 --at-time $iso --output ndjson
{"offset":3,"timestamp":"*","record":{"key":"k1","n":5,"price":null,"at":null,"note":null}} (glob)

# What does not exist is NotFound. A query of a stream that exists and holds nothing where it
# looks (a partition, an offset or a time past the end) exits 3; an unknown stream is a failure
# (1), and lists the declared streams.

$ higgins-cli --port $PORT query --stream events --partition k1 --offset 99
higgins-cli: NotFound: stream 'events': partition 'k1' has no offset 99 (latest is 3)
[exit 3]

$ higgins-cli --port $PORT query --stream events --partition nope --latest
higgins-cli: NotFound: stream 'events': partition 'nope' has no records
[exit 3]

$ higgins-cli --port $PORT query --stream nope --partition k1 --latest
higgins-cli: NotFound: stream 'nope' does not exist (declared streams: events)
[exit 1]

$ higgins-cli --port $PORT query --stream events --partition k1 --from 99
higgins-cli: NotFound: stream 'events': partition 'k1' has no offset 99 (latest is 3)
[exit 3]

$ higgins-cli --port $PORT query --stream events --partition k1 --from 4
higgins-cli: NotFound: stream 'events': partition 'k1' has no offset 4 (latest is 3)
[exit 3]

$ higgins-cli --port $PORT query --stream events --partition k1 --from 4 --to 9 --output json
higgins-cli: NotFound: stream 'events': partition 'k1' has no offset 4 (latest is 3)
[exit 3]

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time 2999-01-01T00:00:00Z
higgins-cli: NotFound: stream 'events': partition 'k1' has no record at or after 32472144000000 ms
[exit 3]

# Exactly one selector, and a well-formed time, or it is a usage error.

$ higgins-cli --port $PORT query --stream events --partition k1
query: give exactly one of --offset N, --latest, --from A [--to B] or --at-time T
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --latest --offset 0
query: give exactly one of --offset N, --latest, --from A [--to B] or --at-time T
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --to 5
--to requires --from
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --from 5 --to 5
--to: must be greater than --from (the range is [from, to))
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time yesterday
--at-time: time 'yesterday': not an ISO 8601 date-time (expected milliseconds since the Unix epoch or an ISO 8601 time such as 2026-11-29T12:00:00Z)
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --latest --output xml
--output: xml not in {table,json,ndjson,arrow}
Run with --help or --help-all for more information.
[exit 2]

# Offsets are decimal integers: negative numbers, numbers past 2^64 - 1 and other text are usage
# errors, never wrapped or clamped.

$ higgins-cli --port $PORT query --stream events --partition k1 --offset -1
--offset: must not be negative (got '-1')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --from -3
--from: must not be negative (got '-3')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --from 0 --to -1
--to: must not be negative (got '-1')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --offset 18446744073709551616
--offset: too large: at most 18446744073709551615 (got '18446744073709551616')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --offset 1e3
--offset: not a number: expected an integer (got '1e3')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream "" --partition k1 --latest
--stream: must not be empty
Run with --help or --help-all for more information.
[exit 2]

# Times before the epoch or past the largest timestamp are usage errors.

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time 9223372036854775808
--at-time: time '9223372036854775808' is beyond the largest timestamp (9223372036854775807 ms)
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time 99999999999999999999
--at-time: time '99999999999999999999' is beyond the largest timestamp (9223372036854775807 ms)
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port $PORT query --stream events --partition k1 --at-time -1
--at-time: time '-1' is before the Unix epoch (1970-01-01T00:00:00Z)
Run with --help or --help-all for more information.
[exit 2]
