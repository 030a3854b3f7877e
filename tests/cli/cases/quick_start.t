# The quick start of the reference README, exactly: upload the topography, then check the broker.
# Each case file gets its own broker on a free port ($PORT) and a scratch folder ($DATA, the
# working directory).

$ cat > config.toml <<'TOML'
> [storage.memory]
> type = "memory"
> [schema.amount]
> id = "string"
> data = "int32"
> [streams.amount]
> schema = "amount"
> partition_key = "id"
> TOML

$ higgins-cli --port $PORT create-configuration --file=config.toml
configuration applied

$ higgins-cli --port $PORT ping
PONG from 127.0.0.1:* in *.?? ms (glob)

# Then produce a record and read the latest record of its partition back, as the reference's
# client example does.

$ echo '{"id":"key","data":21}' | higgins-cli --port $PORT produce --stream amount
produced 1 record to amount in * s (* records/s) (glob)

$ higgins-cli --port $PORT query --stream amount --partition key --latest --output ndjson
{"offset":0,"timestamp":"*","record":{"id":"key","data":21}} (glob)
