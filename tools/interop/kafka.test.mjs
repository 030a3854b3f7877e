// kafkajs (from npm, unchanged) against a real broker's Kafka listener (docs/kafka.md), and Arrow
// IPC values sent through Kafka as streaming-Arrow pipelines send them (ctest kafka_js):
//   - a kafkajs idempotent producer and a kafkajs consumer group: a keyed round trip;
//   - 1000-row Arrow IPC files written by apache-arrow JS, and the Arrow project's
//     zstd-compressed gold file, as Kafka message values: every row is queryable with
//     higgins-cli and read back by a Kafka consumer;
//   - two batches whose `city` column is dictionary-encoded with different dictionaries,
//     produced natively (higgins-cli produce --format arrow) and through Kafka: both streams
//     answer the values apache-arrow decodes from the same bytes;
//   - a consumer whose client id asks for Arrow (`higgins.value=arrow`) gets each run of rows as
//     one Kafka record holding an Arrow IPC stream, which apache-arrow reads, at the offset of
//     its last row.
// Needs HIGGINS, HIGGINS_CLI and HIGGINS_SHARED_DIR (ctest sets them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { Field, Float64, Int64, Schema, Utf8, makeData, RecordBatch, Struct } from 'apache-arrow';
import { readIpc, writeIpc } from './lib/ipc.mjs';
import { startBroker, cli as runCli } from './lib/broker.mjs';
import { FRANCE, NORWAY, NORWAY_MORE, SCHEMA as CITY_SCHEMA, batch as cityBatch, jsRows } from './lib/cities.mjs';

const HIGGINS = process.env.HIGGINS;
const CLI = process.env.HIGGINS_CLI;
const SHARED = process.env.HIGGINS_SHARED_DIR;
if (!HIGGINS || !CLI || !SHARED) throw new Error('set HIGGINS, HIGGINS_CLI and HIGGINS_SHARED_DIR (ctest does)');
const GOLD = join(SHARED, 'testdata/arrow-integration/2.0.0-compression/generated_zstd.arrow_file');

const CONFIG = `
[storage.memory]
type = "memory"

[schema.event]
id = "string"
n = "int64"

[streams.kjs]
schema = "event"
partition_key = "id"
buckets = 3

[schema.reading]
sensor = { type = "string", nullable = false }
seq = { type = "int64", nullable = false }
value = { type = "float64", nullable = false }

[streams.readings]
schema = "reading"
partition_key = "sensor"
buckets = 2

[schema.gold]
ints = "int64"
strs = "string"

[streams.readings_arrow]
schema = "reading"
partition_key = "sensor"
buckets = 2

[streams.gold]
schema = "gold"
partition_key = "ints"

[schema.city]
id = { type = "int32", nullable = false }
city = "string"

[streams.cities_native]
schema = "city"
partition_key = "id"

[streams.cities_kafka]
schema = "city"
partition_key = "id"
`;

const dir = mkdtempSync(join(tmpdir(), 'higgins-kafkajs-'));
let broker;
let kafka;
const cli = (args, input) => runCli(CLI, broker.port, args, input);

before(async () => {
  broker = await startBroker(HIGGINS, dir);
  writeFileSync(join(dir, 'config.toml'), CONFIG);
  cli(['create-configuration', '--file', join(dir, 'config.toml')]);
  kafka = new Kafka({
    clientId: 'higgins-kafka-test', brokers: [`127.0.0.1:${broker.kafkaPort}`],
    logLevel: logLevel.ERROR, retry: { retries: 3 },
  });
});

after(async () => {
  if (broker) await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Every record of `topic` as a kafkajs consumer group reads it from the beginning: resolves
// once `count` have arrived (or rejects after 30 s), to [{partition, offset, key, value, headers}].
// With `arrow`, the consumer's client id asks for Arrow values: `value` is then the raw bytes,
// and `count` counts rows (the higgins.rows headers).
// `seek` ({partition, offset}) moves the consumer there as it starts.
async function consume(topic, count, groupId, { arrow = false, seek } = {}) {
  const client = arrow
    ? new Kafka({
      clientId: 'dashboard;higgins.value=arrow', brokers: [`127.0.0.1:${broker.kafkaPort}`],
      logLevel: logLevel.ERROR, retry: { retries: 3 },
    })
    : kafka;
  const consumer = client.consumer({ groupId, maxWaitTimeInMs: 200, sessionTimeout: 10000, heartbeatInterval: 500 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const got = [];
  let rows = 0;
  let done;
  const all = new Promise((resolve) => { done = resolve; });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const headers = Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, v.toString()]));
      got.push({
        partition, offset: Number(message.offset), key: message.key?.toString(),
        value: arrow ? message.value : JSON.parse(message.value.toString()), headers,
      });
      rows += arrow ? Number(headers['higgins.rows']) : 1;
      if (rows >= count) done();
    },
  });
  if (seek) consumer.seek({ topic, ...seek });
  let timeout;
  const timer = new Promise((_, reject) => {
    timeout = setTimeout(
      () => reject(new Error(`${topic}: ${rows} of ${count} records after 30 s`)), 30000);
  });
  try {
    await Promise.race([all, timer]);
  } finally {
    clearTimeout(timeout);
    await consumer.disconnect();
  }
  return got;
}

// Records of one partition key, as higgins-cli query prints them (--output json).
function query(stream, key) {
  return JSON.parse(cli(['query', '--stream', stream, '--partition', String(key), '--from', '0', '--output', 'json']));
}

async function send(topic, messages) {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    return await producer.send({ topic, acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

test('kafkajs: an idempotent producer and a consumer group, round trip', async () => {
  const messages = [];
  for (let n = 0; n < 300; ++n) {
    const id = `user-${n % 17}`;
    messages.push({ key: id, value: JSON.stringify({ id, n }) });
  }
  const answers = await send('kjs', messages);
  assert.ok(answers.every((a) => a.errorCode === 0), JSON.stringify(answers));
  const got = await consume('kjs', 300, 'kjs-group');
  assert.equal(got.length, 300);
  assert.deepEqual(got.map((m) => m.value.n).sort((a, b) => a - b), [...Array(300).keys()]);
  for (const m of got) assert.equal(m.key, m.value.id, 'the Kafka key is the partition key');
  // kafkajs' default partitioner is Java's murmur2: each key in one partition, dense offsets.
  const partitionsOf = new Map();
  for (const m of got) partitionsOf.set(m.key, (partitionsOf.get(m.key) ?? new Set()).add(m.partition));
  assert.ok([...partitionsOf.values()].every((s) => s.size === 1), 'one partition per key');
  // higgins.offset is the native offset of the record under its key.
  const native = query('kjs', 'user-3');
  const viaKafka = got.filter((m) => m.key === 'user-3').sort((a, b) => a.offset - b.offset);
  assert.deepEqual(viaKafka.map((m) => Number(m.headers['higgins.offset'])), native.map((r) => r.offset));
  assert.deepEqual(viaKafka.map((m) => m.value), native.map((r) => r.record));
});

test('kafkajs admin: listGroups, describeGroups, setOffsets and fetchOffsets', async () => {
  const admin = kafka.admin();
  await admin.connect();
  const consumer = kafka.consumer({ groupId: 'kjs-described', maxWaitTimeInMs: 200, sessionTimeout: 10000, heartbeatInterval: 500 });
  try {
    // A running member: the group is Stable, with its assignment.
    await consumer.connect();
    await consumer.subscribe({ topic: 'kjs', fromBeginning: true });
    let first;
    const consumed = new Promise((resolve) => { first = resolve; });
    await consumer.run({ eachMessage: async () => first() });
    await consumed;
    const { groups: [running] } = await admin.describeGroups(['kjs-described']);
    assert.equal(running.state, 'Stable');
    assert.equal(running.protocolType, 'consumer');
    assert.equal(running.protocol, 'RoundRobinAssigner');
    assert.equal(running.members.length, 1);
    assert.equal(running.members[0].clientId, 'higgins-kafka-test');
    assert.ok(running.members[0].memberAssignment.length > 0, 'the leader\'s assignment is shown');
    await consumer.disconnect();
    const { groups: [left] } = await admin.describeGroups(['kjs-described']);
    assert.equal(left.state, 'Empty');
    assert.deepEqual(left.members, []);

    // Both groups of this file so far are listed, with their protocol type.
    const { groups } = await admin.listGroups();
    for (const groupId of ['kjs-group', 'kjs-described']) {
      assert.deepEqual(groups.find((g) => g.groupId === groupId), { groupId, protocolType: 'consumer' });
    }
    // An empty group's offsets can be set by an admin tool, and are fetched back.
    await admin.setOffsets({ groupId: 'kjs-group', topic: 'kjs', partitions: [{ partition: 1, offset: '3' }] });
    const [offsets] = await admin.fetchOffsets({ groupId: 'kjs-group', topics: ['kjs'] });
    assert.equal(offsets.partitions.find((p) => p.partition === 1).offset, '3');
    const { groups: [unknown] } = await admin.describeGroups(['no-such-group']);
    assert.equal(unknown.state, 'Dead');
  } finally {
    await consumer.disconnect();
    await admin.disconnect();
  }
});

// A 1000-row batch of readings: sensors s0..s9, seq from `first`.
function readingsBatch(first) {
  const schema = new Schema([
    new Field('sensor', new Utf8(), false), new Field('seq', new Int64(), false),
    new Field('value', new Float64(), false),
  ]);
  const rows = [...Array(1000).keys()].map((i) => ({ sensor: `s${(first + i) % 10}`, seq: first + i, value: (first + i) / 4 }));
  const strings = rows.map((r) => r.sensor);
  const encoder = new TextEncoder();
  const bytes = strings.map((s) => encoder.encode(s));
  const valueOffsets = new Int32Array(rows.length + 1);
  bytes.forEach((b, i) => { valueOffsets[i + 1] = valueOffsets[i] + b.length; });
  const data = new Uint8Array(valueOffsets[rows.length]);
  bytes.forEach((b, i) => data.set(b, valueOffsets[i]));
  const children = [
    makeData({ type: new Utf8(), length: rows.length, valueOffsets, data }),
    makeData({ type: new Int64(), length: rows.length, data: BigInt64Array.from(rows.map((r) => BigInt(r.seq))) }),
    makeData({ type: new Float64(), length: rows.length, data: Float64Array.from(rows.map((r) => r.value)) }),
  ];
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children }));
  return { schema, batch, rows };
}

test('Arrow IPC files as Kafka values: apache-arrow JS files and the zstd gold file', async () => {
  // Five files of 1000 rows, as a streaming-Arrow pipeline sends them: one file per message.
  const expected = [];
  const messages = [];
  for (let f = 0; f < 5; ++f) {
    const { schema, batch, rows } = readingsBatch(f * 1000);
    expected.push(...rows);
    messages.push({ key: `file-${f}`, value: Buffer.from(writeIpc(schema, [batch], 'file')) });
  }
  const answers = await send('readings', messages);
  assert.ok(answers.every((a) => a.errorCode === 0), JSON.stringify(answers));
  // Kafka orders records within a partition only: the files of different partitions may be
  // committed in any order, so rows are compared by seq.
  const bySeq = (a, b) => a.seq - b.seq;
  for (let s = 0; s < 10; ++s) {
    const records = query('readings', `s${s}`).map((r) => r.record).sort(bySeq);
    assert.deepEqual(records, expected.filter((r) => r.sensor === `s${s}`), `higgins-cli query of sensor s${s}`);
  }
  const got = await consume('readings', 5000, 'readings-group');
  assert.deepEqual(got.map((m) => m.value).sort(bySeq), expected);

  // The Arrow project's gold file, zstd-compressed bodies: bytes the test did not build.
  const gold = readFileSync(GOLD);
  const goldAnswers = await send('gold', [{ key: null, value: gold }]);
  assert.ok(goldAnswers.every((a) => a.errorCode === 0), JSON.stringify(goldAnswers));
  const goldRows = cli(['arrow', 'cat', GOLD]).split('\n').filter((l) => l).map((l) => JSON.parse(l));
  assert.equal(goldRows.length, 60);
  const stored = await consume('gold', goldRows.length, 'gold-group');
  assert.deepEqual(stored.map((m) => m.value), goldRows, 'a Kafka consumer reads every row in order');
  assert.deepEqual(query('gold', goldRows[7].ints).map((r) => r.record), [goldRows[7]]);
});

test('dictionary-encoded cities with different dictionaries, natively and through Kafka', async () => {
  const bytes = writeIpc(CITY_SCHEMA, [
    cityBatch([1, 2, 3, 4], [0, 2, null, 1], FRANCE),
    cityBatch([5, 6, 7], [1, 1, 0], NORWAY),  // a replacement dictionary
    cityBatch([8, 9], [2, 0], NORWAY_MORE),   // a delta
  ], 'stream');
  const expected = jsRows(bytes);
  assert.equal(expected.length, 9);
  cli(['produce', '--stream', 'cities_native', '--format', 'arrow'], bytes);
  const answers = await send('cities_kafka', [{ key: null, value: Buffer.from(bytes) }]);
  assert.ok(answers.every((a) => a.errorCode === 0), JSON.stringify(answers));
  for (const stream of ['cities_native', 'cities_kafka']) {
    const rows = expected.map((r) => query(stream, r.id).map((q) => q.record)).flat();
    assert.deepEqual(rows, expected, `${stream} answers what apache-arrow decodes`);
  }
});

test('a consumer that asks for Arrow values reads Arrow IPC streams, at their last row\'s offset', async () => {
  const expected = [];
  const messages = [];
  for (let f = 0; f < 3; ++f) {
    const { schema, batch, rows } = readingsBatch(f * 1000);
    expected.push(...rows);
    messages.push({ key: `file-${f}`, value: Buffer.from(writeIpc(schema, [batch], 'file')) });
  }
  const answers = await send('readings_arrow', messages);
  assert.ok(answers.every((a) => a.errorCode === 0), JSON.stringify(answers));
  const got = await consume('readings_arrow', expected.length, 'readings-arrow-group', { arrow: true });
  const decoded = [];
  const byPartition = new Map();
  for (const m of got) {
    assert.equal(m.key, undefined, 'an Arrow value holds many partition keys: no Kafka key');
    const table = readIpc(new Uint8Array(m.value));
    const rows = table.batches.reduce((n, b) => n + b.numRows, 0);
    assert.equal(rows, Number(m.headers['higgins.rows']));
    assert.ok(rows >= 1 && rows <= 1000, `${rows} rows in one value`);
    for (const b of table.batches) {
      for (let i = 0; i < b.numRows; ++i) {
        decoded.push({ sensor: b.getChild('sensor').get(i), seq: Number(b.getChild('seq').get(i)), value: b.getChild('value').get(i) });
      }
    }
    byPartition.set(m.partition, [...(byPartition.get(m.partition) ?? []), { last: m.offset, rows }]);
  }
  const bySeq = (a, b) => a.seq - b.seq;
  assert.deepEqual(decoded.sort(bySeq), expected, 'every row, decoded by apache-arrow');
  // Each value's rows are the offsets up to the record's own: together, every offset of the
  // partition from 0, once.
  for (const [partition, values] of byPartition) {
    values.sort((a, b) => a.last - b.last);
    let next = 0;
    for (const v of values) {
      assert.equal(v.last - v.rows + 1, next, `partition ${partition}: the value after offset ${next - 1}`);
      next = v.last + 1;
    }
  }
  // A consumer that starts mid-run (at offset 10 of partition 0) gets the rows from there on.
  const fromTen = await consume('readings_arrow', expected.length - 10, 'readings-arrow-from-10', {
    arrow: true, seek: { partition: 0, offset: '10' },
  });
  const first = fromTen.filter((m) => m.partition === 0).sort((a, b) => a.offset - b.offset)[0];
  assert.equal(first.offset - Number(first.headers['higgins.rows']) + 1, 10, 'the first value starts at offset 10');
});
