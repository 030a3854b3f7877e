#!/usr/bin/python3
"""Idempotent producers (docs/kafka.md, "Idempotent producers") with librdkafka, through a proxy
that drops connections after the broker has appended.

Usage: kafka_idempotence_test.py HIGGINS HIGGINS_CLI IDEMPOTENT_PRODUCER

The broker advertises the proxy's port (--kafka-advertised-port), so every connection of the
client goes through it. The proxy forwards Kafka frames both ways; every seventh Produce
response it swallows and closes the connection instead: the broker appended the batch, the
client never heard so and sends it again on a new connection.
  - idempotent_producer (a small C program on Debian's librdkafka) with enable.idempotence
    produces 3,000 records: every record is stored exactly once;
  - the same without idempotence (the control): the dropped responses do make duplicates, so
    the proxy tests what it claims to;
(Sequence gaps, old epochs and lost producers, byte by byte: tests/e2e/kafka_protocol_test.cc.)
"""
import collections
import json
import os
import socket
import struct
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import EVENT_CONFIG, FAILURES, Broker, check, free_port, run  # noqa: E402

HIGGINS, CLI, PRODUCER = sys.argv[1], sys.argv[2], sys.argv[3]
RECORDS = 3000
DROP_EVERY = 7
PRODUCE = 0

CONFIG = EVENT_CONFIG + """
[streams.idem]
schema = "event"
partition_key = "id"
buckets = 3

[streams.plain]
schema = "event"
partition_key = "id"
buckets = 3
"""


def read_frame(sock):
    """One Kafka frame (size prefix included), or None at the end of the stream."""
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            return None
        head += chunk
    size = struct.unpack(">i", head)[0]
    body = b""
    while len(body) < size:
        chunk = sock.recv(min(65536, size - len(body)))
        if not chunk:
            return None
        body += chunk
    return head + body


class DroppingProxy:
    """Forwards Kafka connections from `port` to the broker; swallows every DROP_EVERY-th
    Produce response and closes that connection."""

    def __init__(self, port, broker_port):
        self.port, self.broker_port = port, broker_port
        self.produce_responses = 0
        self.dropped = 0
        self.lock = threading.Lock()
        self.server = socket.create_server(("127.0.0.1", port))
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            broker = socket.create_connection(("127.0.0.1", self.broker_port))
            produce_ids = set()
            ids_lock = threading.Lock()
            threading.Thread(target=self.requests, args=(client, broker, produce_ids, ids_lock),
                             daemon=True).start()
            threading.Thread(target=self.responses, args=(client, broker, produce_ids, ids_lock),
                             daemon=True).start()

    @staticmethod
    def close(*sockets):
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def requests(self, client, broker, produce_ids, ids_lock):
        try:
            while (frame := read_frame(client)) is not None:
                api_key, _, correlation = struct.unpack(">hhi", frame[4:12])
                if api_key == PRODUCE:
                    with ids_lock:
                        produce_ids.add(correlation)
                broker.sendall(frame)
        except OSError:
            pass
        self.close(client, broker)

    def responses(self, client, broker, produce_ids, ids_lock):
        try:
            while (frame := read_frame(broker)) is not None:
                correlation = struct.unpack(">i", frame[4:8])[0]
                with ids_lock:
                    is_produce = correlation in produce_ids
                    produce_ids.discard(correlation)
                if is_produce:
                    with self.lock:
                        self.produce_responses += 1
                        drop = self.produce_responses % DROP_EVERY == 0
                        self.dropped += drop
                    if drop:
                        break  # appended, and the client never hears so
                client.sendall(frame)
        except OSError:
            pass
        self.close(client, broker)


def stored(bootstrap, stream):
    """The value of n of every record of `stream`, read back with kcat."""
    out = run(["kcat", "-b", bootstrap, "-C", "-t", stream, "-o", "beginning", "-e", "-q",
               "-f", "%s\n"])
    return [json.loads(line)["n"] for line in out.splitlines() if line.strip()]


def produce_through_proxy(bootstrap, stream, idempotent):
    result = run([PRODUCER, bootstrap, stream, str(RECORDS), "1" if idempotent else "0"],
                 timeout=180)
    check(result.strip() == f"delivered {RECORDS} failed 0",
          f"{stream}: librdkafka delivers every record ({result.strip()})")


def main():
    work = tempfile.mkdtemp(prefix="higgins-kafka-idempotence-")
    kafka_port, proxy_port = free_port(), free_port()
    broker = Broker(HIGGINS, work, kafka_port, [f"--kafka-advertised-port={proxy_port}"])
    broker.start()
    try:
        broker.create_configuration(CLI, CONFIG)
        proxy = DroppingProxy(proxy_port, kafka_port)
        bootstrap = f"127.0.0.1:{proxy_port}"

        produce_through_proxy(bootstrap, "idem", idempotent=True)
        dropped = proxy.dropped
        check(dropped >= 3, f"the proxy dropped {dropped} Produce responses after the append")
        counts = collections.Counter(stored(bootstrap, "idem"))
        missing = [n for n in range(RECORDS) if counts[n] == 0]
        twice = [n for n, c in counts.items() if c > 1]
        check(not missing and not twice and len(counts) == RECORDS,
              f"idempotent: each of {RECORDS} records stored once "
              f"({len(missing)} missing, {len(twice)} twice)")

        produce_through_proxy(bootstrap, "plain", idempotent=False)
        counts = collections.Counter(stored(bootstrap, "plain"))
        twice = sum(c - 1 for c in counts.values() if c > 1)
        check(len(counts) == RECORDS and twice > 0,
              f"control, without idempotence: {twice} duplicates from "
              f"{proxy.dropped - dropped} dropped responses")
    finally:
        broker.stop()
    if FAILURES:
        print(broker.log_tail())
        print(f"kafka_idempotence_test: {len(FAILURES)} failed")
        sys.exit(1)
    print("kafka_idempotence_test: passed")


if __name__ == "__main__":
    main()
