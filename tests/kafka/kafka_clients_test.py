#!/usr/bin/python3
"""Kafka clients against a real broker (docs/kafka.md): kcat and python3-confluent-kafka
(librdkafka), from Debian, unchanged.

Usage: kafka_clients_test.py HIGGINS HIGGINS_CLI

Starts `higgins` on file storage with a Kafka listener on a free port, declares streams with
higgins-cli, then checks:
  - `kcat -L` lists every stream as a topic with its partition count (window streams are not);
  - 10,000 keyed JSON lines produced with `kcat -P` under each of gzip, snappy, lz4 and zstd are
    consumed back exactly by `kcat -C -o beginning -e`, each with the `higgins.offset` header
    that `higgins-cli query` gives the same record;
  - `kcat -C -o s@<ms>` starts at the first record committed at or after that time;
  - a four-partition stream: records land in their key's partition (murmur2), as Java and
    kafkajs clients compute it;
  - confluent-kafka produces and consumes a round trip; a bad record is refused with
    INVALID_RECORD and nothing of its batch is stored; a derived stream is read-only.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import EVENT_CONFIG, FAILURES, Broker, check, free_port, run  # noqa: E402

HIGGINS, CLI = sys.argv[1], sys.argv[2]


CONFIG = EVENT_CONFIG + """
[streams.events]
schema = "event"
partition_key = "id"

[streams.wide]
schema = "event"
partition_key = "id"
buckets = 4

[streams.late]
schema = "event"
partition_key = "id"

[streams.py]
schema = "event"
partition_key = "id"

[streams.by_two]
type = "window"
schema = "event"
partition_key = "id"
base = "events"
window = { type = "count", interval = 2 }
"""


def main():
    work = tempfile.mkdtemp(prefix="higgins-kafka-")
    kafka_port = free_port()
    broker = Broker(HIGGINS, work, kafka_port)
    broker.start()
    try:
        cli = broker.cli(CLI)
        broker.create_configuration(CLI, CONFIG)
        bootstrap = f"127.0.0.1:{kafka_port}"
        kcat = ["kcat", "-b", bootstrap]
        list_topics(kcat)
        produce_and_consume(kcat, cli)
        from_timestamp(kcat)
        partitions_by_key(kcat)
        confluent_round_trip(bootstrap, cli)
    finally:
        broker.stop()
    if FAILURES:
        print(broker.log_tail())
        print(f"kafka_clients_test: {len(FAILURES)} failed")
        return 1
    print("kafka_clients_test: passed")
    return 0


def list_topics(kcat):
    metadata = json.loads(run(kcat + ["-L", "-J"]))
    topics = {t["topic"]: len(t["partitions"]) for t in metadata["topics"]}
    check(topics.get("events") == 1 and topics.get("wide") == 4,
          f"kcat -L lists the streams with their partition counts: {topics}")
    check("by_two" not in topics, "a window stream is not a topic")
    check(len(metadata["brokers"]) == 1, "one broker in the metadata")


def produce_and_consume(kcat, cli):
    expected = {}
    for c, codec in enumerate(["gzip", "snappy", "lz4", "zstd"]):
        lines = []
        for i in range(2500):
            n = c * 2500 + i
            record = {"id": f"k{n % 50}", "n": n, "city": f"city {codec} {i}"}
            expected[n] = record
            lines.append(f"{record['id']}|{json.dumps(record, separators=(',', ':'))}")
        run(kcat + ["-P", "-t", "events", "-z", codec, "-K", "|"], "\n".join(lines) + "\n")
    out = run(kcat + ["-C", "-t", "events", "-o", "beginning", "-e", "-J"])
    got = [json.loads(line) for line in out.splitlines() if line.strip()]
    values = [json.loads(m["payload"]) for m in got]
    check(len(values) == 10_000, f"kcat -C reads the 10,000 records back (got {len(values)})")
    check(sorted(v["n"] for v in values) == list(range(10_000)),
          "every record exactly once")
    check(all(expected[v["n"]] == v for v in values), "each value as produced")
    check(all(m["key"] == json.loads(m["payload"])["id"] for m in got),
          "the Kafka key is the partition key")
    check([m["offset"] for m in got] == list(range(len(got))),
          "Kafka offsets are dense per partition: 0, 1, 2, ...")
    # Each record's higgins.offset is the offset the native query gives it.
    sample = [m for m in got if json.loads(m["payload"])["id"] == "k7"]
    native = json.loads(run(cli + ["query", "--stream", "events", "--partition", "k7",
                                   "--from", "0", "--output", "json"]))
    headers = [int(dict(zip(m["headers"][0::2], m["headers"][1::2]))["higgins.offset"])
               for m in sample] if sample and "headers" in sample[0] else []
    check(headers == [r["offset"] for r in native] and
          [json.loads(m["payload"]) for m in sample] == [r["record"] for r in native],
          f"higgins.offset headers match the native offsets of partition k7 ({len(native)} records)")


def from_timestamp(kcat):
    run(kcat + ["-P", "-t", "late", "-K", "|"],
        "".join(f"a|{json.dumps({'id': 'a', 'n': i, 'city': 'before'})}\n" for i in range(5)))
    time.sleep(0.05)
    middle = int(time.time() * 1000)
    time.sleep(0.05)
    run(kcat + ["-P", "-t", "late", "-K", "|"],
        "".join(f"a|{json.dumps({'id': 'a', 'n': i, 'city': 'after'})}\n" for i in range(5, 8)))
    out = run(kcat + ["-C", "-t", "late", "-o", f"s@{middle}", "-e", "-f", "%o %s\n"])
    rows = [line.split(" ", 1) for line in out.splitlines()]
    check([int(o) for o, _ in rows] == [5, 6, 7] and
          all(json.loads(v)["city"] == "after" for _, v in rows),
          f"-o s@<ms> starts at the first record committed at or after that time: {rows}")


def partitions_by_key(kcat):
    lines = "".join(f"user{i}|{json.dumps({'id': f'user{i}', 'n': i, 'city': 'x'})}\n"
                    for i in range(200))
    run(kcat + ["-P", "-t", "wide", "-K", "|", "-X", "partitioner=murmur2_random"], lines)
    out = run(kcat + ["-C", "-t", "wide", "-o", "beginning", "-e", "-f", "%p %k\n"])
    seen = [line.split(" ") for line in out.splitlines()]
    check(len(seen) == 200, f"the four-partition stream holds the 200 records ({len(seen)})")
    check(all(int(p) == murmur2_partition(k.encode(), 4) for p, k in seen),
          "each record is in the partition Kafka's murmur2 gives its key")
    check(len({p for p, _ in seen}) == 4, "all four partitions are used")


def murmur2_partition(data, partitions):
    """Kafka's default partitioner (Utils.murmur2, then toPositive, then modulo)."""
    m, r = 0x5bd1e995, 24
    length = len(data)
    h = (0x9747b28c ^ length) & 0xffffffff
    for i in range(0, length - length % 4, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & 0xffffffff
        k ^= k >> r
        k = (k * m) & 0xffffffff
        h = (h * m) & 0xffffffff
        h ^= k
    tail = length % 4
    base = length - tail
    if tail == 3:
        h ^= data[base + 2] << 16
    if tail >= 2:
        h ^= data[base + 1] << 8
    if tail >= 1:
        h ^= data[base]
        h = (h * m) & 0xffffffff
    h ^= h >> 13
    h = (h * m) & 0xffffffff
    h ^= h >> 15
    return (h & 0x7fffffff) % partitions


def confluent_round_trip(bootstrap, cli):
    from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
    reports = []
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5,
                         "compression.type": "lz4"})
    for i in range(100):
        producer.produce("py", key=f"p{i % 3}",
                         value=json.dumps({"id": f"p{i % 3}", "n": i, "city": "py"}),
                         on_delivery=lambda err, msg: reports.append((err, msg.offset())))
    producer.flush(30)
    check(len(reports) == 100 and all(err is None for err, _ in reports),
          f"confluent-kafka: 100 records acknowledged ({len(reports)})")
    check(sorted(offset for _, offset in reports) == list(range(100)),
          "confluent-kafka: delivery reports carry offsets 0-99")
    # A bad record: its whole batch is refused with INVALID_RECORD, nothing stored.
    errors = []
    producer.produce("py", key="p0", value=json.dumps({"id": "p0", "n": "not a number"}),
                     on_delivery=lambda err, msg: errors.append(err))
    producer.flush(30)
    check(len(errors) == 1 and errors[0] is not None and
          errors[0].code() == KafkaError.INVALID_RECORD,
          f"a record that does not fit the schema gets INVALID_RECORD: {errors}")
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "unused",
                         "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    consumer.assign([TopicPartition("py", 0, 0)])
    seen = []
    deadline = time.time() + 30
    while len(seen) < 100 and time.time() < deadline:
        msg = consumer.poll(1.0)
        if msg is None or msg.error():
            continue
        seen.append(json.loads(msg.value()))
    consumer.close()
    check(sorted(v["n"] for v in seen) == list(range(100)),
          f"confluent-kafka consumes the 100 records ({len(seen)}), and not the refused one")


if __name__ == "__main__":
    sys.exit(main())
