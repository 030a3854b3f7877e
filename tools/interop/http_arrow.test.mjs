// Arrow IPC over the HTTP API (docs/http.md, "Produce" and "Query") with apache-arrow (JS) at
// both ends: a record batch written by apache-arrow is POSTed as
// application/vnd.apache.arrow.stream and answered with its offsets; the partition is read back
// with Accept: application/vnd.apache.arrow.stream and decoded by apache-arrow, values equal to
// what was sent, and as JSON, the same values. A payload whose schema differs is a 400 that
// names the difference, and the broker keeps serving. Needs HIGGINS (ctest http_arrow_js).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Bool, Field, Float64, Int64, Schema, Table, Utf8, RecordBatch, makeData, Struct,
  tableFromIPC, tableToIPC, vectorFromArray,
} from 'apache-arrow';
import { startBroker } from './lib/broker.mjs';

const HIGGINS = process.env.HIGGINS;
if (!HIGGINS) throw new Error('set HIGGINS (ctest does)');

const ARROW = 'application/vnd.apache.arrow.stream';
const CONFIG = `
[storage.memory]
type = "memory"

[schema.obs]
id = "string"
n = "int64"
x = "float64"
ok = "bool"

[streams.obs]
schema = "obs"
partition_key = "id"
buckets = 2
`;

let dir;
let broker;
let base;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'higgins-http-arrow-'));
  broker = await startBroker(HIGGINS, dir, { http: true });
  base = `http://127.0.0.1:${broker.httpPort}`;
  const r = await fetch(`${base}/v1/configurations`, { method: 'POST', body: CONFIG });
  assert.equal(r.status, 200, await r.text());
});

after(async () => {
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** An Arrow IPC stream of `rows` under `fields` (name -> [arrow type, values]). */
function ipc(columns) {
  const fields = Object.entries(columns).map(([name, [type]]) => new Field(name, type, true));
  const children = Object.values(columns).map(([type, values]) => vectorFromArray(values, type).data[0]);
  const length = children[0].length;
  const schema = new Schema(fields);
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length, children }));
  return tableToIPC(new Table([batch]), 'stream');
}

const ids = ['a', 'b', 'a', 'c', 'a'];
const ns = [1n, -2n, 9007199254740993n, 0n, null];
const xs = [0.5, -1.25, 1e300, null, 3];
const oks = [true, false, null, true, false];

test('an Arrow IPC body is produced; queries answer Arrow IPC and JSON with the same values', async () => {
  const body = ipc({
    id: [new Utf8(), ids], n: [new Int64(), ns], x: [new Float64(), xs], ok: [new Bool(), oks],
  });
  const r = await fetch(`${base}/v1/streams/obs/records`, { method: 'POST', headers: { 'Content-Type': ARROW }, body });
  const produced = await r.json();
  assert.equal(r.status, 200, JSON.stringify(produced));
  assert.deepEqual(produced.records.map((p) => [p.partition_key, p.offset]),
    [['a', 0], ['b', 0], ['a', 1], ['c', 0], ['a', 2]]);

  const q = await fetch(`${base}/v1/streams/obs/records?key=a&from=0&to=3`, { headers: { Accept: ARROW } });
  assert.equal(q.status, 200);
  assert.equal(q.headers.get('content-type'), ARROW);
  assert.equal(q.headers.get('higgins-first-offset'), '0');
  const table = tableFromIPC(new Uint8Array(await q.arrayBuffer()));
  assert.deepEqual(table.schema.fields.map((f) => [f.name, String(f.type)]),
    [['id', 'Utf8'], ['n', 'Int64'], ['x', 'Float64'], ['ok', 'Bool']]);
  const rowsOfA = [0, 2, 4];
  assert.equal(table.numRows, 3);
  assert.deepEqual(table.getChild('id').toArray(), rowsOfA.map((i) => ids[i]));
  assert.deepEqual([...table.getChild('n')], rowsOfA.map((i) => ns[i]));
  assert.deepEqual([...table.getChild('x')], rowsOfA.map((i) => xs[i]));
  assert.deepEqual([...table.getChild('ok')], rowsOfA.map((i) => oks[i]));

  const j = await (await fetch(`${base}/v1/streams/obs/records?key=a&from=0&to=3`)).json();
  assert.deepEqual(j.records.map((rec) => rec.offset), [0, 1, 2]);
  assert.deepEqual(j.records.map((rec) => rec.record.x), rowsOfA.map((i) => xs[i]));
  assert.equal(j.records[1].record.n, 9007199254740993, 'int64 as a JSON number');
});

test('an Arrow IPC body of another schema is refused with 400, and nothing is produced', async () => {
  const before = (await (await fetch(`${base}/v1/streams/obs`)).json()).records;
  const body = ipc({ id: [new Utf8(), ['z']], n: [new Float64(), [1.5]] });
  const r = await fetch(`${base}/v1/streams/obs/records`, { method: 'POST', headers: { 'Content-Type': ARROW }, body });
  const error = await r.json();
  assert.equal(r.status, 400);
  assert.equal(error.error.code, 'invalid_argument');
  assert.match(error.error.message, /schema differs/);
  const garbage = await fetch(`${base}/v1/streams/obs/records`, {
    method: 'POST', headers: { 'Content-Type': ARROW }, body: new Uint8Array([0xff, 0xff, 0xff, 0xff, 8, 0, 0, 0, 1, 2]),
  });
  const damaged = await garbage.json();
  assert.equal(garbage.status, 400, JSON.stringify(damaged));
  assert.equal(damaged.error.code, 'corruption');
  assert.equal((await (await fetch(`${base}/v1/streams/obs`)).json()).records, before);
});
