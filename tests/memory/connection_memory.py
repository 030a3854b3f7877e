#!/usr/bin/env python3
"""What connections cost the broker in memory (docs/operations.md, "Connection memory").

Runs a real broker binary (a Release build: sanitizers change what memory costs) and measures
its resident size (VmRSS of /proc/<pid>/status) while clients misbehave:

  pipelined_pings  one connection sends a slow configuration (10 file streams of 1024 buckets),
                   then 100 pings of 8 MiB without reading a reply: the broker stops reading at
                   its byte limits, so it grows by at most 256 MB, and gives the memory back
                   once the client has gone (what stays is the ten streams' own, under 64 MB).
  idle_connections 10,000 connections, each after one ping: at most 16 KiB each. After they
                   close, part of it stays (asio keeps each socket's reactor state for the next
                   connection, and those pin the heap pages around them), so a second burst of
                   10,000 reuses that memory: it grows the broker by at most 8 MiB more.

Usage: tests/memory/connection_memory.py BROKER_BINARY [SCENARIO...]
Exit status 0 when every scenario holds; each prints its measurements.
"""
import os
import re
import resource
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

MIB = 1 << 20


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, data):
    return varint((number << 3) | 2) + varint(len(data)) + data


def frame(body):
    return struct.pack(">I", len(body)) + body


# higgins.Message (proto/higgins.proto): type = 1, ping = 9, createConfigurationRequest = 13,
# correlationId = 27; Ping.data = 1; CreateConfigurationRequest.data = 1.
PING, PONG, CREATE_CONFIGURATION = 7, 8, 11


def ping_frame(correlation_id, data=b""):
    body = field_varint(1, PING) + field_bytes(9, field_bytes(1, data)) + field_varint(27, correlation_id)
    return frame(body)


def configuration_frame(correlation_id, toml):
    body = (field_varint(1, CREATE_CONFIGURATION) + field_bytes(13, field_bytes(1, toml.encode()))
            + field_varint(27, correlation_id))
    return frame(body)


def read_frame(sock):
    header = recv_exactly(sock, 4)
    if header is None:
        return None
    (length,) = struct.unpack(">I", header)
    return recv_exactly(sock, length)


def recv_exactly(sock, n):
    chunks = bytearray()
    while len(chunks) < n:
        chunk = sock.recv(n - len(chunks))
        if not chunk:
            return None
        chunks += chunk
    return bytes(chunks)


def message_type(body):
    # Field 1 (type) is written first by the broker's protobuf encoder when it is not 0.
    if body and body[0] == 0x08:
        return body[1]
    return 0


class Broker:
    def __init__(self, binary, extra_args=()):
        self.dir = tempfile.mkdtemp(prefix="higgins-memory-")
        self.log_path = self.dir + ".log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [binary, "--port=0", "--kafka-port=0", "--http-port=0", "--dir=" + self.dir, *extra_args],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.port = None
        deadline = time.time() + 20
        while time.time() < deadline and self.port is None:
            with open(self.log_path) as f:
                m = re.search(r"listening on [^ ]*:(\d+)", f.read())
            if m:
                self.port = int(m.group(1))
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if self.port is None:
            raise RuntimeError("the broker did not start:\n" + open(self.log_path).read())

    def rss(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1)) * 1024

    def connect(self):
        return socket.create_connection(("127.0.0.1", self.port))

    def ping(self):
        with self.connect() as s:
            s.sendall(ping_frame(1))
            reply = read_frame(s)
            return reply is not None and message_type(reply) == PONG

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        os.unlink(self.log_path)


def slow_configuration():
    toml = '[storage.disk]\ntype = "file"\n\n[schema.s]\nid = "string"\nv = "int64"\n'
    for i in range(10):
        toml += f'\n[streams.slow{i}]\nschema = "s"\npartition_key = "id"\nstorage = "disk"\nbuckets = 1024\n'
    return toml


def pipelined_pings(binary):
    broker = Broker(binary)
    try:
        assert broker.ping()
        baseline = broker.rss()
        client = broker.connect()
        client.sendall(configuration_frame(1, slow_configuration()))
        payload = b"p" * (8 * MIB - 64)
        sent = [0]

        def write():
            try:
                for i in range(100):
                    client.sendall(ping_frame(2 + i, payload))
                    sent[0] += 1
            except OSError:
                pass

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        peak = baseline
        last_change, last_sent = time.time(), -1
        # Until every ping is sent, or sending has stalled for 3 s (the broker stopped reading).
        while writer.is_alive() and time.time() - last_change < 3:
            peak = max(peak, broker.rss())
            if sent[0] != last_sent:
                last_sent, last_change = sent[0], time.time()
            time.sleep(0.05)
        for _ in range(20):
            peak = max(peak, broker.rss())
            time.sleep(0.05)
        growth = peak - baseline
        # shutdown first: close() alone leaves the connection open while the writer thread is
        # blocked in send() on it.
        client.shutdown(socket.SHUT_RDWR)
        client.close()
        writer.join(timeout=10)
        # Configuration changes run one after another: once this one is answered, the slow one
        # is done, and the pings it held back have run and found their client gone.
        with broker.connect() as other:
            other.sendall(configuration_frame(1, '[schema.after]\nid = "string"\n'))
            assert read_frame(other) is not None, "no reply to the second configuration"
        after = settled_rss(broker) - baseline  # memory goes back a second after a close
        print(f"pipelined_pings: sent {sent[0]} of 100 pings of 8 MiB before the broker stopped "
              f"reading; grew by {growth / MIB:.1f} MiB at the peak (limit 256), "
              f"{after / MIB:.1f} MiB after the client closed (limit 64: the ten streams of "
              f"1024 buckets stay)")
        ok = growth <= 256 * MIB and after <= 64 * MIB
        assert broker.ping(), "the broker no longer answers"
        return ok
    finally:
        broker.stop()


def settled_rss(broker, quiet=2.0, longest=20.0):
    """The broker's RSS once it has stopped falling for `quiet` seconds (at most `longest`).

    The broker gives memory back a second after the last of a burst of closes reaches it; on a
    busy machine the 10,000 closes take a while to arrive, so a fixed sleep measures too early."""
    start = time.time()
    lowest, since = broker.rss(), time.time()
    while time.time() - since < quiet and time.time() - start < longest:
        time.sleep(0.25)
        now = broker.rss()
        if now < lowest - 64 * 1024:
            lowest, since = now, time.time()
    return min(lowest, broker.rss())


def idle_connections(binary, count=10_000):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    broker = Broker(binary, [f"--max-connections={count + 16}"])
    try:
        assert broker.ping()
        baseline = settled_rss(broker)  # the release after the ping's connection closed

        def burst(back_to=None):
            sockets = []
            for i in range(count):
                s = broker.connect()
                s.sendall(ping_frame(1))
                sockets.append(s)
            for s in sockets:
                reply = read_frame(s)
                assert reply is not None and message_type(reply) == PONG, "no PONG"
            time.sleep(0.5)
            open_rss = broker.rss()
            for s in sockets:
                s.close()
            if back_to is None:
                return open_rss, settled_rss(broker)
            # The broker closes 10,000 connections and gives their memory back a second after
            # the last: wait for it to get back to where the first burst left it (on a busy
            # machine the closes take seconds), up to 30 s, then keep the lowest RSS seen.
            lowest, deadline = broker.rss(), time.time() + 30
            while lowest > back_to and time.time() < deadline:
                time.sleep(0.25)
                lowest = min(lowest, broker.rss())
            return open_rss, lowest

        first_open, first_after = burst()
        second_open, second_after = burst(back_to=first_after + 8 * MIB)
        per_connection = (first_open - baseline) / count
        print(f"idle_connections: {count} connections after one ping each cost "
              f"{per_connection / 1024:.1f} KiB each (limit 16); after they closed "
              f"{(first_after - baseline) / MIB:.1f} MiB of their "
              f"{(first_open - baseline) / MIB:.1f} MiB stayed; a second burst of {count} "
              f"grew the broker by {(second_open - first_open) / MIB:.1f} MiB more (limit 8), "
              f"{(second_after - first_after) / MIB:.1f} MiB more after it closed")
        return (per_connection <= 16 * 1024 and second_open - first_open <= 8 * MIB
                and second_after - first_after <= 8 * MIB)
    finally:
        broker.stop()


SCENARIOS = {"pipelined_pings": pipelined_pings, "idle_connections": idle_connections}


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    names = sys.argv[2:] or list(SCENARIOS)
    failed = [name for name in names if not SCENARIOS[name](binary)]
    for name in failed:
        print(f"connection_memory: FAIL {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
