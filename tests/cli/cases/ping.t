# `ping` checks that a broker answers and prints the round-trip time.

$ higgins-cli --port $PORT ping
PONG from 127.0.0.1:* in *.?? ms (glob)

# The global options may also follow the command, and come from the environment.

$ higgins-cli ping --host 127.0.0.1 --port $PORT --timeout 2
PONG from 127.0.0.1:* in *.?? ms (glob)

$ HIGGINS_HOST=localhost HIGGINS_PORT=$PORT higgins-cli ping
PONG from localhost:* in *.?? ms (glob)

# With no broker listening, the command fails with the reason and a hint (port 1 is closed).

$ higgins-cli --port 1 ping
higgins-cli: IOError: cannot connect to 127.0.0.1:1: Connection refused; is a broker running on 127.0.0.1:1? start one with: higgins --port=1 --dir=data
[exit 1]

$ higgins-cli --host no-such-host.invalid --port $PORT ping
higgins-cli: IOError: cannot resolve 'no-such-host.invalid': *; is a broker running on no-such-host.invalid:*\? start one with: higgins --port=* --dir=data (glob)
[exit 1]

# Usage errors exit with status 2.

$ higgins-cli --port 70000 ping
--port: Value 70000 not in range 1 to 65535
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --timeout 0 ping
--timeout: must be a number of seconds from 0.001 to 86400 (got '0')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli pong
unknown command: pong
Run with --help or --help-all for more information.
[exit 2]
