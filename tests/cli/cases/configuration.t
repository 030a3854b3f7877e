# Configurations: upload (create-configuration), read back (get-topography), delete
# (delete-configuration), and WebAssembly modules (upload-module).

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

$ higgins-cli --port $PORT create-configuration --file=config.toml
configuration applied

# Uploading the same declarations again changes nothing; `-f -` reads standard input.

$ higgins-cli --port $PORT create-configuration -f - < config.toml
configuration applied

# The topography holds every declaration, with defaults resolved.

$ higgins-cli --port $PORT get-topography
[storage.memory]
type = "memory"

[schema.amount]
id = "string"
data = "int32"

[streams.amount]
schema = "amount"
partition_key = "id"
storage = "memory"
buckets = 1

# A declaration that differs from the one in the topography is refused, naming the difference.

$ printf '[schema.amount]\nid = "string"\ndata = "int64"\n' > conflict.toml
$ higgins-cli --port $PORT create-configuration --file conflict.toml
higgins-cli: AlreadyExists: schema 'amount' conflicts with the declaration already in the topography: field 'data' type int64 instead of int32
[exit 1]

# Every problem of a configuration is reported, one per line, and nothing is applied.

$ cat > bad.toml <<'TOML'
> [storage.a]
> type = "disk"
>
> [schema.other]
> id = "strin"
>
> [streams.other]
> schema = "other"
> TOML
$ higgins-cli --port $PORT create-configuration --file bad.toml
higgins-cli: InvalidArgument: line 2: storage 'a': 'type' must be "memory", "file" or "s3" (got 'disk')
higgins-cli: InvalidArgument: line 5: schema 'other', field 'id': unknown type tag 'strin' (did you mean string?); valid tags: string, large_string, bytes, large_bytes, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, date32, date64, decimal, decimal(P,S), timestamp, timestamp(UNIT[,TZ]), time32(s|ms), time64(us|ns), duration(UNIT), fixed_size_binary(N), null
higgins-cli: InvalidArgument: line 7: streams 'other': missing 'partition_key'
[exit 1]

# A mistyped type tag gets the nearest valid one; a time zone must be in the tz database
# (/usr/share/zoneinfo, Debian's tzdata package) or be an offset.

$ cat > types.toml <<'TOML'
> [schema.typos]
> n = "int23"
> at = "timestamp(ms, Not/AZone)"
> paris = "timestamp(ms, Europe/Paris)"
> later = "timestamp(ms, +02:00)"
> TOML
$ higgins-cli --port $PORT create-configuration --file types.toml
higgins-cli: InvalidArgument: line 2: schema 'typos', field 'n': unknown type tag 'int23' (did you mean int32?); valid tags: string, large_string, bytes, large_bytes, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, date32, date64, decimal, decimal(P,S), timestamp, timestamp(UNIT[,TZ]), time32(s|ms), time64(us|ns), duration(UNIT), fixed_size_binary(N), null
higgins-cli: InvalidArgument: line 3: schema 'typos', field 'at': unknown type tag 'timestamp(ms, Not/AZone)' (time zone 'Not/AZone' is not in the tz database (/usr/share/zoneinfo): use a zone name like UTC or Europe/Paris, or an offset like +02:00); valid tags: string, large_string, bytes, large_bytes, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, date32, date64, decimal, decimal(P,S), timestamp, timestamp(UNIT[,TZ]), time32(s|ms), time64(us|ns), duration(UNIT), fixed_size_binary(N), null
[exit 1]

$ printf '[schema.x\n' > syntax.toml
$ higgins-cli --port $PORT create-configuration --file syntax.toml
higgins-cli: InvalidArgument: TOML syntax error at line 1, column 10: Error while parsing table header: expected ']', saw '\n'
[exit 1]

$ higgins-cli --port $PORT create-configuration --file missing.toml
higgins-cli: IOError: cannot open 'missing.toml': No such file or directory
[exit 1]

$ higgins-cli --port $PORT create-configuration
--file is required
Run with --help or --help-all for more information.
[exit 2]

# A module is any bytes today (the broker does not validate WebAssembly yet); a map stream may
# then name it as its `fn`.

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

# The records a map stream fails on are in its errors stream, doubled/errors. A query that finds
# nothing there exits 3 (nothing there), not 1 (a failure).

$ higgins-cli --port $PORT query --stream doubled/errors --partition a --from 0
higgins-cli: NotFound: stream 'doubled/errors': partition 'a' has no records
[exit 3]

$ higgins-cli --port $PORT upload-module --name double
--file is required
Run with --help or --help-all for more information.
[exit 2]

# A declaration others refer to cannot be deleted; delete the derived stream first.

$ higgins-cli --port $PORT delete-configuration streams.amount
higgins-cli: InvalidArgument: cannot delete streams 'amount': used by streams 'doubled'
[exit 1]

$ higgins-cli --port $PORT delete-configuration streams.doubled
deleted streams.doubled

$ higgins-cli --port $PORT delete-configuration amount
deleted amount

$ higgins-cli --port $PORT delete-configuration schema.amount
deleted schema.amount

$ higgins-cli --port $PORT delete-configuration streams.amount
higgins-cli: NotFound: streams 'amount' is not in the topography
[exit 1]

$ higgins-cli --port $PORT get-topography
[storage.memory]
type = "memory"

# A configuration or module travels in one request: more than 64 MiB is refused after reading
# just past that, not after reading the whole input.

$ higgins-cli --port $PORT create-configuration -f /dev/zero
higgins-cli: ResourceExhausted: '/dev/zero' is larger than the largest request (67108864 bytes, --max-frame-bytes of the broker)
[exit 1]

$ higgins-cli --port $PORT upload-module --name zero -f /dev/zero
higgins-cli: ResourceExhausted: '/dev/zero' is larger than the largest request (67108864 bytes, --max-frame-bytes of the broker)
[exit 1]

# The broker checks a module before it takes it, and lists every problem.

$ printf '\0asm\1\0\0\0' > empty-module.wasm
$ higgins-cli --port $PORT upload-module --name nothing --file empty-module.wasm
higgins-cli: InvalidArgument: module 'nothing' is not a valid UDF: the module has no memory; it must define one and export it as 'memory'
higgins-cli: InvalidArgument: the module does not export '_malloc'
higgins-cli: InvalidArgument: the module does not export 'run'
[exit 1]

# Modules are 1 byte to 32 MiB.

$ higgins-cli --port $PORT upload-module --name empty -f - < /dev/null
higgins-cli: InvalidArgument: module 'empty' is empty
[exit 1]

$ head -c 33554433 /dev/zero | higgins-cli --port $PORT upload-module --name big -f -
higgins-cli: ResourceExhausted: module 'big' has 33554433 bytes, more than the limit of 33554432
[exit 1]

$ higgins-cli --port $PORT delete-configuration ""
KEY: must not be empty
Run with --help or --help-all for more information.
[exit 2]
