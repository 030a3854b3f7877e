#!/usr/bin/python3
"""Consumer groups with python3-confluent-kafka (librdkafka) against a real broker
(docs/kafka.md, "Consumer groups").

Usage: kafka_groups_test.py HIGGINS HIGGINS_CLI
       kafka_groups_test.py --consumer BOOTSTRAP GROUP NAME   (a consumer process, used by the test)

On a six-partition stream on file storage:
  - two consumers in one group split the partitions between them;
  - a third joins and the assignment rebalances over the three;
  - one is killed (SIGKILL) and its partitions move to the others within the session timeout;
  - the broker is killed (SIGKILL) and restarted: the committed offsets survive, the consumers
    carry on;
  - across the whole run every record is consumed at least once and none is skipped.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import FAILURES, Broker, check, free_port, wait_for  # noqa: E402

PARTITIONS = 6
SESSION_TIMEOUT_MS = 3000


def consumer_main(bootstrap, group, name):
    from confluent_kafka import Consumer
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group,
                         "client.id": name, "auto.offset.reset": "earliest",
                         "enable.auto.commit": False,
                         "session.timeout.ms": SESSION_TIMEOUT_MS,
                         "heartbeat.interval.ms": 300,
                         "partition.assignment.strategy": "range"})

    def assigned(c, partitions):
        print(json.dumps({"assigned": sorted(p.partition for p in partitions)}), flush=True)

    consumer.subscribe(["orders"], on_assign=assigned)
    since_commit = 0
    while True:
        message = consumer.poll(0.2)
        if message is None or message.error():
            if since_commit:
                try:
                    consumer.commit(asynchronous=False)
                    since_commit = 0
                except Exception:  # a rebalance or the broker's restart: commit again later
                    pass
            continue
        print(json.dumps({"n": json.loads(message.value())["n"], "p": message.partition()}),
              flush=True)
        since_commit += 1
        if since_commit >= 20:
            try:
                consumer.commit(asynchronous=False)
                since_commit = 0
            except Exception:
                pass


class ConsumerProcess:
    def __init__(self, bootstrap, name):
        self.name = name
        self.process = subprocess.Popen([sys.executable, __file__, "--consumer", bootstrap, "g",
                                         name], stdout=subprocess.PIPE, text=True)
        self.assigned = None
        self.seen = []
        self.lock = threading.Lock()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            event = json.loads(line)
            with self.lock:
                if "assigned" in event:
                    self.assigned = event["assigned"]
                else:
                    self.seen.append(event["n"])

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.assigned = []


def split_among(consumers):
    """Whether the consumers' assignments cover every partition exactly once, each non-empty."""
    parts = [c.assigned for c in consumers]
    if any(not p for p in parts):
        return False
    flat = sorted(x for p in parts for x in p)
    return flat == list(range(PARTITIONS))


def produce(bootstrap, first, count):
    from confluent_kafka import Producer
    producer = Producer({"bootstrap.servers": bootstrap, "partitioner": "murmur2_random",
                         "linger.ms": 5})
    errors = []
    for n in range(first, first + count):
        producer.produce("orders", key=f"k{n % 60}",
                         value=json.dumps({"id": f"k{n % 60}", "n": n}),
                         on_delivery=lambda err, msg: err and errors.append(err))
    producer.flush(30)
    return errors


def main():
    binary, cli = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="higgins-kafka-groups-")
    kafka_port = free_port()
    broker = Broker(binary, work, kafka_port)
    broker.start()
    bootstrap = f"127.0.0.1:{kafka_port}"
    consumers = []
    try:
        broker.create_configuration(
            cli, '[storage.disk]\ntype = "file"\n[schema.order]\nid = "string"\nn = "int64"\n'
            f'[streams.orders]\nschema = "order"\npartition_key = "id"\nbuckets = {PARTITIONS}\n')
        check(not produce(bootstrap, 0, 600), "600 records produced")

        a, b = ConsumerProcess(bootstrap, "a"), ConsumerProcess(bootstrap, "b")
        consumers = [a, b]
        check(wait_for(lambda: split_among([a, b]), 30),
              f"two consumers split the six partitions: {a.assigned} {b.assigned}")

        c = ConsumerProcess(bootstrap, "c")
        consumers.append(c)
        check(wait_for(lambda: split_among([a, b, c]) and
                       all(len(x.assigned) == 2 for x in (a, b, c)), 30),
              f"a third joins and each gets two: {a.assigned} {b.assigned} {c.assigned}")
        check(not produce(bootstrap, 600, 600), "600 more records produced")

        killed_at = time.time()
        c.kill()
        moved = wait_for(lambda: split_among([a, b]), 30)
        took = time.time() - killed_at
        check(moved and took < SESSION_TIMEOUT_MS / 1000 + 5,
              f"a killed consumer's partitions move to the others in {took:.1f} s "
              f"(session timeout {SESSION_TIMEOUT_MS / 1000:.0f} s): {a.assigned} {b.assigned}")

        # Everything so far consumed (and committed: the consumers commit every 20 records and
        # when idle), then the broker dies and comes back.
        wait_for(lambda: len(set(a.seen + b.seen + c.seen)) >= 1200, 30)
        time.sleep(2)
        from confluent_kafka import Consumer, TopicPartition
        probe_config = {"bootstrap.servers": bootstrap, "group.id": "g"}
        probe = Consumer(probe_config)
        before = {p.partition: p.offset for p in
                  probe.committed([TopicPartition("orders", i) for i in range(PARTITIONS)], 10)}
        probe.close()
        broker.kill9()
        broker.start()
        probe = Consumer(probe_config)
        after = {p.partition: p.offset for p in
                 probe.committed([TopicPartition("orders", i) for i in range(PARTITIONS)], 10)}
        probe.close()
        check(before == after and sum(after.values()) == 1200,
              f"committed offsets survive kill -9 of the broker: {before} / {after}")

        check(not produce(bootstrap, 1200, 600), "600 records produced after the restart")
        done = wait_for(lambda: set(range(1800)) <= set(a.seen + b.seen + c.seen), 60)
        everything = set(a.seen + b.seen + c.seen)
        missing = sorted(set(range(1800)) - everything)
        check(done and not missing,
              f"every record consumed at least once ({len(everything)} distinct of 1800; "
              f"missing {missing[:10]})")
        duplicates = len(a.seen + b.seen + c.seen) - len(everything)
        print(f"redelivered after the rebalances and the restart: {duplicates}")
    finally:
        for consumer in consumers:
            if consumer.process.poll() is None:
                consumer.kill()
        broker.stop()
    if FAILURES:
        print(broker.log_tail(3000))
        print(f"kafka_groups_test: {len(FAILURES)} failed")
        return 1
    print("kafka_groups_test: passed")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--consumer":
        consumer_main(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(main())
