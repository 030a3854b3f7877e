"""Static group membership (KIP-345, docs/kafka.md "Consumer groups") with real
python3-confluent-kafka consumers (librdkafka, JoinGroup v5 with group.instance.id): a static
member that restarts within its session timeout gets its partitions back without a rebalance of
the others; a dynamic member that does the same makes the group rebalance (the control). And
what a member commits when a rebalance revokes its partitions is kept: the next owner does not
read those records again.

Usage: kafka_static_members_test.py HIGGINS HIGGINS_CLI"""
import os
import shutil
import sys
import tempfile
import time

from confluent_kafka import Consumer, Producer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import FAILURES, Broker, check, free_port  # noqa: E402

PARTITIONS = 4


class Member:
    """A consumer of `orders` in group `group`, static when `instance` is set, recording every
    assignment and revocation it sees."""

    def __init__(self, bootstrap, group, name, instance=None, auto_commit=False):
        settings = {"bootstrap.servers": bootstrap, "group.id": group, "client.id": name,
                    "session.timeout.ms": 10000, "heartbeat.interval.ms": 300,
                    "enable.auto.commit": auto_commit, "auto.commit.interval.ms": 60000,
                    "auto.offset.reset": "earliest"}
        if instance:
            settings["group.instance.id"] = instance
        self.consumer = Consumer(settings)
        self.assigned, self.events, self.values = [], [], []

        def on_assign(c, partitions):
            self.assigned = sorted(p.partition for p in partitions)
            self.events.append(("assign", self.assigned))

        def on_revoke(c, partitions):
            self.events.append(("revoke", sorted(p.partition for p in partitions)))
            self.assigned = []

        self.consumer.subscribe(["orders"], on_assign=on_assign, on_revoke=on_revoke)


def poll_until(members, condition, seconds):
    """Polls every member (which runs their callbacks, and keeps what it reads) until
    `condition()` or `seconds` pass."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        for m in members:
            message = m.consumer.poll(0.05)
            if message is not None and not message.error():
                m.values.append(message.value())
        if condition():
            return True
    return condition()


def split(members):
    got = sorted(p for m in members for p in m.assigned)
    return got == list(range(PARTITIONS)) and all(m.assigned for m in members)


def restart_one(bootstrap, group, static):
    """Two members split the partitions; the first closes and comes back at once. Returns
    (events the second saw after the split, first's partitions before, after)."""
    a = Member(bootstrap, group, "a", "host-a" if static else None)
    b = Member(bootstrap, group, "b", "host-b" if static else None)
    check(poll_until([a, b], lambda: split([a, b]), 30),
          f"{group}: two members split the partitions: {a.assigned} {b.assigned}")
    before = list(a.assigned)
    seen_by_b = len(b.events)
    a.consumer.close()
    a2 = Member(bootstrap, group, "a", "host-a" if static else None)
    poll_until([a2, b], lambda: split([a2, b]) and len(b.events) > seen_by_b, 8)
    poll_until([a2, b], lambda: split([a2, b]), 20)
    after = list(a2.assigned)
    events = b.events[seen_by_b:]
    a2.consumer.close()
    b.consumer.close()
    return events, before, after


def commits_on_revoke_are_kept(bootstrap):
    """A reads every record with auto-commit (which commits on revoke); B joins; after the
    rebalance B must not read any of them again."""
    producer = Producer({"bootstrap.servers": bootstrap, "partitioner": "murmur2_random"})
    for n in range(40):
        producer.produce("orders", key=f"k{n}", value=f'{{"id":"k{n}","n":{n}}}')
    check(producer.flush(30) == 0, "40 records produced")
    a = Member(bootstrap, "revoke", "a", auto_commit=True)
    check(poll_until([a], lambda: len(a.values) >= 40, 30), f"a read {len(a.values)} of 40")
    b = Member(bootstrap, "revoke", "b", auto_commit=True)
    check(poll_until([a, b], lambda: split([a, b]), 30),
          f"revoke: b joined and the two split the partitions: {a.assigned} {b.assigned}")
    poll_until([a, b], lambda: False, 2)  # anything b would read again arrives by now
    check(b.values == [], f"what a committed on revoke is not read again by b: {len(b.values)}")
    a.consumer.close()
    b.consumer.close()


def main():
    binary, cli = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="higgins-kafka-static-")
    kafka_port = free_port()
    broker = Broker(binary, work, kafka_port)
    broker.start()
    bootstrap = f"127.0.0.1:{kafka_port}"
    try:
        broker.create_configuration(
            cli, '[storage.m]\ntype = "memory"\n[schema.order]\nid = "string"\nn = "int64"\n'
            f'[streams.orders]\nschema = "order"\npartition_key = "id"\nbuckets = {PARTITIONS}\n')

        events, before, after = restart_one(bootstrap, "static", static=True)
        check(events == [], f"static: the other member saw no rebalance: {events}")
        check(after == before, f"static: the restarted member got its partitions back: "
              f"{before} -> {after}")

        events, before, after = restart_one(bootstrap, "dynamic", static=False)
        check(any(kind == "revoke" for kind, _ in events),
              f"dynamic (the control): the other member was rebalanced: {events}")

        commits_on_revoke_are_kept(bootstrap)
    finally:
        broker.stop()
        if FAILURES:
            print(broker.log_tail())
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} checks failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
