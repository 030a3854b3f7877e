// The WebSocket channels and the HTTP API's tokens (docs/http.md, docs/auth.md) with real clients:
// the `ws` npm package and Node's fetch against a real broker holding a JWT secret (ctest
// websocket_js). Tokens are signed here with Node's crypto (HS256), independently of the broker.
//   - the auth table: no token, bad signature, expired at connect, wrong channel (refused at the
//     handshake), read-only token writing (closed with 1008), a token expiring during the
//     connection (closed with 3001), and the same for HTTP requests (401/403);
//   - pushes: every record produced over HTTP arrives once, in offset order per partition,
//     with its offset, partition key, bucket, commit time and record; from=beginning,
//     from=<offset> with key=, and one connection on two channels (/v1/ws/{jwt}); batch=true
//     (arrays of the same objects, live and catching up);
//   - writes: JSON text frames produced and answered with their offsets, a record of the wrong
//     type answered with an error frame on a connection that stays open;
//   - bad input: an oversized frame (1009), a binary frame (1003), invalid UTF-8 (1007), a slow
//     reader (1013); after all of it the broker still answers.
// Needs HIGGINS (ctest sets it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startBroker } from './lib/broker.mjs';

const HIGGINS = process.env.HIGGINS;
if (!HIGGINS) throw new Error('set HIGGINS (ctest does)');

const SECRET = 'a-shared-secret-of-at-least-32-bytes-for-hs256';
const CONFIG = `
[storage.memory]
type = "memory"

[schema.event]
id = "string"
n = "int64"

[streams.events]
schema = "event"
partition_key = "id"
buckets = 4

[streams.other]
schema = "event"
partition_key = "id"

[schema.blob]
id = "string"
text = "string"

[streams.slow]
schema = "blob"
partition_key = "id"
`;

const b64url = (value) => Buffer.from(value).toString('base64url');
/** An HS256 token with `claims` signed with `secret`. */
function token(claims, secret = SECRET) {
  const body = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);

let dir;
let broker;
let base;
let wsBase;
const ADMIN = token({ mode: 'rw', channel: '*' });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'higgins-ws-'));
  writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
  broker = await startBroker(HIGGINS, dir, {
    http: true,
    args: [`--jwt-secret-file=${join(dir, 'secret')}`, '--http-require-token',
      '--ws-max-message-bytes=65536', '--ws-max-queued-bytes=262144'],
  });
  base = `http://127.0.0.1:${broker.httpPort}`;
  wsBase = `ws://127.0.0.1:${broker.httpPort}`;
  const r = await fetch(`${base}/v1/configurations`, {
    method: 'POST', body: CONFIG, headers: { Authorization: `Bearer ${ADMIN}` },
  });
  assert.equal(r.status, 200, await r.text());
});

after(async () => {
  await broker?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** POSTs records to `stream` with the admin token; the answer's JSON. */
async function produce(stream, records) {
  const r = await fetch(`${base}/v1/streams/${stream}/records`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(records),
  });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body;
}

/** Opens a WebSocket; resolves once open, or rejects with the handshake's HTTP status. */
function connect(path) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}${path}`);
    const messages = [];
    const waiters = [];
    ws.on('message', (data, binary) => {
      messages.push(binary ? data : JSON.parse(data.toString()));
      for (const w of waiters.splice(0)) w();
    });
    ws.closed = new Promise((done) => ws.on('close', (code, reason) => {
      for (const w of waiters.splice(0)) w();
      done({ code, reason: reason.toString() });
    }));
    /** Resolves once `n` messages have come (or the connection closed). */
    ws.received = async (n, ms = 10000) => {
      const deadline = Date.now() + ms;
      while (messages.length < n && ws.readyState <= WebSocket.OPEN && Date.now() < deadline) {
        await new Promise((r) => { waiters.push(r); setTimeout(r, 100); });
      }
      return messages;
    };
    ws.messages = messages;
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.on('error', (e) => { if (!e.status) reject(e); });
  });
}

async function refused(path) {
  try {
    const ws = await connect(path);
    ws.close();
  } catch (e) {
    return { status: e.status, body: e.body };
  }
  throw new Error(`${path} was accepted`);
}

test('the handshake refuses what the token does not allow', async () => {
  const read = token({ mode: 'r', channel: 'events', exp: now() + 600 });
  const cases = [
    ['no token', '/v1/ws/events', 401, /requires a token/],
    ['bad signature', `/v1/ws/events/${token({ mode: 'r', channel: 'events' }, 'another-secret-of-at-least-32-bytes!!')}`, 401, /signature/],
    ['expired at connect', `/v1/ws/events/${token({ mode: 'r', channel: 'events', exp: now() - 5 })}`, 401, /expired/],
    ['malformed', '/v1/ws/events/not.a.token', 401, /malformed/],
    ['wrong channel', `/v1/ws/other/${read}`, 403, /grants nothing of stream 'other'/],
    ['unknown stream', `/v1/ws/nope/${token({ mode: 'r', channel: '*' })}`, 404, /nope/],
    ['from=<offset> without key', `/v1/ws/events/${read}?from=3`, 400, /needs key/],
  ];
  for (const [name, path, status, message] of cases) {
    const r = await refused(path);
    assert.equal(r.status, status, `${name}: ${r.body}`);
    assert.match(JSON.parse(r.body).error.message, message, name);
  }
});

test('HTTP requests need a token whose claims allow them', async () => {
  const get = (path, tok) => fetch(`${base}${path}`, tok ? { headers: { Authorization: `Bearer ${tok}` } } : {});
  let r = await get('/v1/streams');
  assert.equal(r.status, 401);
  assert.equal(r.headers.get('www-authenticate'), 'Bearer');
  r = await get('/v1/streams', token({ mode: 'r', channel: 'events', exp: now() - 1 }));
  assert.equal(r.status, 401);
  assert.match((await r.json()).error.message, /expired/);
  r = await get('/v1/streams', token({ mode: 'r', channel: 'events' }));
  assert.equal(r.status, 200);
  assert.deepEqual((await r.json()).streams.map((s) => s.name), ['events']);  // only what it may read
  r = await get('/v1/streams/other', token({ mode: 'r', channel: 'events' }));
  assert.equal(r.status, 403);
  r = await fetch(`${base}/v1/streams/events/records`, {
    method: 'POST', body: '{"id":"a","n":1}',
    headers: { Authorization: `Bearer ${token({ mode: 'r', channel: 'events' })}`, 'Content-Type': 'application/json' },
  });
  assert.equal(r.status, 403);
  assert.match((await r.json()).error.message, /does not allow writing stream 'events'/);
  r = await fetch(`${base}/v1/configurations`, {
    method: 'POST', body: '', headers: { Authorization: `Bearer ${token({ mode: 'rw', channel: 'events' })}` },
  });
  assert.equal(r.status, 403);
});

test('a reader gets every new record once, with where it is', async () => {
  const ws = await connect(`/v1/ws/events/${token({ mode: 'r', channel: 'events', exp: now() + 600 })}`);
  const sent = [];
  for (let i = 0; i < 50; i++) sent.push({ id: `k${i % 7}`, n: i });
  const answers = [];
  for (let i = 0; i < 50; i += 10) answers.push(await produce('events', sent.slice(i, i + 10)));
  const got = await ws.received(50);
  assert.equal(got.length, 50);
  const answered = answers.flatMap((a) => a.records.map((r) => ({ ...r, commit_time: a.commit_time })));
  const byN = new Map(got.map((m) => [m.record.n, m]));
  for (let i = 0; i < 50; i++) {
    const m = byN.get(i);
    assert.ok(m, `record ${i} arrived`);
    assert.equal(m.stream, 'events');
    assert.equal(m.partition_key, sent[i].id);
    assert.equal(m.offset, answered[i].offset);
    assert.equal(m.commit_time, answered[i].commit_time);
    assert.deepEqual(m.record, sent[i]);
    assert.ok(Number.isInteger(m.bucket) && m.bucket >= 0 && m.bucket < 4);
  }
  // Offsets rise by one per partition, in arrival order.
  const last = new Map();
  for (const m of got) {
    assert.equal(m.offset, (last.get(m.partition_key) ?? -1) + 1, `partition ${m.partition_key}`);
    last.set(m.partition_key, m.offset);
  }
  ws.close();
});

test('a record produced as soon as the connection opens reaches it (from=latest)', async () => {
  const read = token({ mode: 'r', channel: 'other' });
  for (let i = 0; i < 20; i++) {
    // Several readers at once, each producing the moment its handshake is answered.
    const readers = await Promise.all([0, 1, 2].map(() => connect(`/v1/ws/other/${read}`)));
    const sent = await produce('other', [{ id: `race${i}`, n: i }]);
    for (const ws of readers) {
      const got = await ws.received(1, 5000);
      assert.ok(got.some((m) => m.partition_key === `race${i}` && m.offset === sent.records[0].offset),
        `connection ${i}: the record produced right after it opened arrived`);
      ws.close();
    }
  }
});

test('from=beginning replays the stream, then goes live without a gap or a repeat', async () => {
  const before = (await (await fetch(`${base}/v1/streams/events`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()).records;
  const ws = await connect(`/v1/ws/events/${token({ mode: 'r', channel: 'events' })}?from=beginning`);
  await produce('events', [{ id: 'k1', n: 1000 }, { id: 'k2', n: 1001 }]);
  const got = await ws.received(before + 2);
  assert.equal(got.length, before + 2);
  const seen = new Set(got.map((m) => `${m.partition_key}/${m.offset}`));
  assert.equal(seen.size, before + 2, 'no record twice');
  assert.deepEqual(got.slice(-2).map((m) => m.record.n).sort(), [1000, 1001]);
  ws.close();
  // One partition from an offset.
  const keyed = await connect(`/v1/ws/events/${token({ mode: 'r', channel: 'events' })}?key=k3&from=2`);
  await produce('events', [{ id: 'k3', n: 2000 }, { id: 'k4', n: 2001 }]);
  const k3 = await keyed.received(1000, 1500);
  assert.ok(k3.length >= 2);
  assert.ok(k3.every((m) => m.partition_key === 'k3'));
  assert.equal(k3[0].offset, 2);
  assert.deepEqual(k3.map((m) => m.offset), k3.map((_, i) => i + 2));
  assert.equal(k3.at(-1).record.n, 2000);
  keyed.close();
});

test('batch=true pushes arrays of the same records, every one once and in order', async () => {
  const read = token({ mode: 'r', channel: 'events' });
  const single = await connect(`/v1/ws/events/${read}`);
  const batched = await connect(`/v1/ws/events/${read}?batch=true`);
  const keyed = await connect(`/v1/ws/events/${read}?batch=true&key=k5&from=0`);
  const latest = await fetch(`${base}/v1/streams/events/records?key=k5&offset=latest`,
    { headers: { Authorization: `Bearer ${ADMIN}` } });
  const k5Before = latest.status === 404 ? 0 : (await latest.json()).records[0].offset + 1;
  for (let i = 0; i < 5; i++) {
    await produce('events', Array.from({ length: 20 }, (_, j) => ({ id: `k${j % 7}`, n: 3000 + i * 20 + j })));
  }
  const singles = await single.received(100);
  assert.equal(singles.length, 100);
  const arrays = await batched.received(1000, 1500);
  assert.ok(arrays.every(Array.isArray), 'every message is an array');
  assert.ok(arrays.some((a) => a.length > 1), 'records committed together come in one message');
  assert.deepEqual(arrays.flat(), singles, 'the same objects, in the same order');
  // Catch-up and the live feed of one partition, as arrays too.
  const k5 = (await keyed.received(1000, 1500)).flat();
  assert.ok(k5.every((m) => m.partition_key === 'k5'));
  assert.deepEqual(k5.map((m) => m.offset), Array.from({ length: k5Before + 15 }, (_, i) => i));
  for (const ws of [single, batched, keyed]) ws.close();
});

test('/v1/ws/{jwt} follows every channel of the token', async () => {
  const ws = await connect(`/v1/ws/${token({ mode: 'r', channels: ['events', 'other'] })}`);
  await produce('events', [{ id: 'x', n: 1 }]);
  await produce('other', [{ id: 'y', n: 2 }]);
  const got = await ws.received(2);
  assert.deepEqual(got.map((m) => m.stream).sort(), ['events', 'other']);
  ws.close();
});

test('a writer produces JSON frames and gets offsets or an error, in order', async () => {
  const ws = await connect(`/v1/ws/other/${token({ mode: 'w', channel: 'other' })}`);
  ws.send(JSON.stringify({ id: 'w', n: 1 }));
  ws.send(JSON.stringify({ id: 'w', n: 'not a number' }));
  ws.send(JSON.stringify([{ id: 'w', n: 2 }, { id: 'w', n: 3 }]));
  const got = await ws.received(3);
  assert.equal(got.length, 3);
  assert.equal(got[0].records[0].partition_key, 'w');
  const first = got[0].records[0].offset;
  assert.equal(got[1].error.code, 'invalid_argument');
  assert.match(got[1].error.message, /field 'n'/);
  assert.deepEqual(got[2].records.map((r) => r.offset), [first + 1, first + 2]);
  assert.equal(ws.readyState, WebSocket.OPEN);
  ws.close();
  const r = await fetch(`${base}/v1/streams/other/records?key=w&latest`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  assert.deepEqual((await r.json()).records[0].record, { id: 'w', n: 3 });
});

test('close codes: read-only writing, expiry, oversized, binary, invalid UTF-8', async () => {
  let ws = await connect(`/v1/ws/events/${token({ mode: 'r', channel: 'events' })}`);
  ws.send('{"id":"a","n":1}');
  let closed = await ws.closed;
  assert.equal(closed.code, 1008);
  assert.match(closed.reason, /read-only/);

  ws = await connect(`/v1/ws/events/${token({ mode: 'r', channel: 'events', exp: now() + 2 })}`);
  closed = await ws.closed;
  assert.equal(closed.code, 3001);
  assert.equal(closed.reason, 'token expired');

  const write = token({ mode: 'rw', channel: 'other' });
  ws = await connect(`/v1/ws/other/${write}`);
  ws.send('x'.repeat(70000));
  assert.equal((await ws.closed).code, 1009);

  ws = await connect(`/v1/ws/other/${write}`);
  ws.send(Buffer.from([1, 2, 3]), { binary: true });
  assert.equal((await ws.closed).code, 1003);

  ws = await connect(`/v1/ws/other/${write}`);
  ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
  assert.equal((await ws.closed).code, 1007);
});

test('a reader that does not read is closed with 1013, and the broker keeps serving', async () => {
  const ws = await connect(`/v1/ws/slow/${token({ mode: 'r', channel: 'slow' })}`);
  ws._socket.pause();  // stop reading: the broker's queue for this reader fills
  const big = 'y'.repeat(4000);
  let closedCode = null;
  ws.closed.then(({ code }) => { closedCode = code; });
  for (let i = 0; i < 300 && closedCode === null; i++) {
    await produce('slow', Array.from({ length: 20 }, (_, j) => ({ id: `s${j}`, text: big })));
  }
  ws._socket.resume();
  const closed = await ws.closed;
  assert.equal(closed.code, 1013);
  assert.match(closed.reason, /too slow/);
  const r = await fetch(`${base}/v1/streams`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  assert.equal(r.status, 200);
  const other = await connect(`/v1/ws/events/${token({ mode: 'r', channel: 'events' })}`);
  await produce('events', [{ id: 'after', n: 1 }]);
  assert.equal((await other.received(1))[0].partition_key, 'after');
  other.close();
});
