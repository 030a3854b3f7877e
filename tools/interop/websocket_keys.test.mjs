// WebSocket channels on brokers holding a public key (docs/auth.md): RS256 tokens against an RSA
// key and ES256 tokens against a P-256 key, made with Node's crypto, independently of the
// broker's libjwt. For each: a signed token opens a channel that receives a record produced
// over HTTP; a token signed with another key, an HS256 token whose secret is the public key
// (algorithm confusion) and an unsigned token (alg none) are refused at the handshake with 401.
// Needs HIGGINS (ctest websocket_keys_js sets it).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startBroker } from './lib/broker.mjs';

const HIGGINS = process.env.HIGGINS;
if (!HIGGINS) throw new Error('set HIGGINS (ctest does)');

const CONFIG = `
[storage.memory]
type = "memory"

[schema.event]
id = "string"
n = "int64"

[streams.events]
schema = "event"
partition_key = "id"
`;

const b64url = (value) => Buffer.from(value).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** A JWS compact token of `claims` with header alg `alg`, signed by `signer(bytes)`. */
function jwt(alg, claims, signer) {
  const body = `${b64url(JSON.stringify({ alg, typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${signer(Buffer.from(body)).toString('base64url')}`;
}

const KINDS = [
  {
    alg: 'RS256',
    pair: () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
    signer: (privateKey) => (bytes) => sign('sha256', bytes, privateKey),
  },
  {
    alg: 'ES256',
    pair: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    // JWS (RFC 7518 section 3.4) wants R || S, not DER.
    signer: (privateKey) => (bytes) => sign('sha256', bytes, { key: privateKey, dsaEncoding: 'ieee-p1363' }),
  },
];

const dirs = [];
const brokers = [];
after(async () => {
  for (const b of brokers) await b.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Resolves with the first message of a channel, or rejects with the handshake's status. */
function firstMessage(url, onOpen) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => { ws.terminate(); reject(new Error('no message within 10 s')); }, 10000);
    ws.on('open', () => onOpen().catch(reject));
    ws.on('message', (data) => { clearTimeout(timer); ws.close(); resolve(JSON.parse(data.toString())); });
    ws.on('unexpected-response', (req, res) => { clearTimeout(timer); reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })); });
    ws.on('error', (e) => { if (!e.status) { clearTimeout(timer); reject(e); } });
  });
}

for (const kind of KINDS) {
  test(`${kind.alg}: a token signed with the broker's key opens a channel, others are refused`, async () => {
    const { publicKey, privateKey } = kind.pair();
    const other = kind.pair().privateKey;
    const dir = mkdtempSync(join(tmpdir(), `higgins-ws-${kind.alg}-`));
    dirs.push(dir);
    const pem = publicKey.export({ type: 'spki', format: 'pem' });
    writeFileSync(join(dir, 'key.pem'), pem);
    const broker = await startBroker(HIGGINS, dir, { http: true, args: [`--jwt-public-key-file=${join(dir, 'key.pem')}`] });
    brokers.push(broker);
    const base = `http://127.0.0.1:${broker.httpPort}`;
    const wsBase = `ws://127.0.0.1:${broker.httpPort}`;
    const r = await fetch(`${base}/v1/configurations`, { method: 'POST', body: CONFIG });
    assert.equal(r.status, 200, await r.text());

    const claims = { mode: 'r', channel: 'events', exp: now() + 600 };
    const good = jwt(kind.alg, claims, kind.signer(privateKey));
    const got = await firstMessage(`${wsBase}/v1/ws/events/${good}`, async () => {
      const p = await fetch(`${base}/v1/streams/events/records`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: 'a', n: 7 }),
      });
      assert.equal(p.status, 200, await p.text());
    });
    assert.equal(got.stream, 'events');
    assert.equal(got.partition_key, 'a');
    assert.equal(got.offset, 0);
    assert.deepEqual(got.record, { id: 'a', n: 7 });

    const refusals = {
      'signed with another key': jwt(kind.alg, claims, kind.signer(other)),
      'HS256 with the public key as its secret': jwt('HS256', claims, (bytes) => createHmac('sha256', pem).update(bytes).digest()),
      'alg none': `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`,
      'expired': jwt(kind.alg, { ...claims, exp: now() - 60 }, kind.signer(privateKey)),
    };
    for (const [why, token] of Object.entries(refusals)) {
      await assert.rejects(firstMessage(`${wsBase}/v1/ws/events/${token}`, async () => {}),
        (e) => e.status === 401, why);
    }
  });
}
