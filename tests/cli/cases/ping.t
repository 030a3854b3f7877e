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
higgins-cli: IOError: cannot resolve 'no-such-host.invalid': * (glob)
[exit 1]

$ higgins-cli --host no-such-host.invalid --port $PORT ping 2>&1 | grep 'start one' | wc -l
0

# An IPv6 address may be written in brackets (nothing listens on ::1 port 1 here).

$ higgins-cli --host '[::1]' --port 1 ping
higgins-cli: IOError: cannot connect to *::1*; is a broker running on [::1]:1? start one with: higgins --port=1 --dir=data (glob)
[exit 1]

# Usage errors exit with status 2.

$ higgins-cli --port 70000 ping
--port: Value 70000 not in range 1 to 65535
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port abc ping
--port: not a number: expected an integer (got 'abc')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --port -1 ping
--port: must not be negative (got '-1')
Run with --help or --help-all for more information.
[exit 2]

$ higgins-cli --host 127.0.0.1:80 ping
--host: '127.0.0.1:80' includes a port; give the host alone and the port with --port
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
