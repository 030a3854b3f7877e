// The web console (web/console/) in a real browser against real brokers (ctest web_console),
// in headless Chromium (Debian's package, driven by playwright-core from tools/interop).
// First a broker without tokens, loaded with the flights demo over HTTP (its two modules, then
// examples/flights/config.toml, as scripts/demo does with higgins-cli) and 200 flights:
//   - the token field: kept in localStorage across a reload, sent as Authorization: Bearer;
//   - the streams table: every flights stream, flights with its partition key and record count;
//   - the stream graph: a node per flights stream in its layer, labelled with its kind, and the
//     join, map, reduce and window edges;
//   - the live tail: a record produced over HTTP arrives on the WebSocket and is shown, its
//     partition key (HTML markup) as text;
//   - the query form: the latest record of that key, then a missing offset's error;
//   - a screenshot of the whole page.
// Then a broker with a JWT secret and --http-require-token: the console loads without a token
// and shows the API's 401; with a reader's token it lists only the stream the token may read
// and tails it over /v1/ws/{stream}/{jwt}. Each broker must stop cleanly (exit 0). Fails after
// 60 s (HIGGINS_CONSOLE_TEST_SECONDS).
//
// Usage: node tests/web/console_test.mjs BROKER [--modules DIR] [--screenshot PNG]
//   BROKER        the `higgins` binary
//   --modules     folder of delay_class.wasm and add_totals.wasm (default: the build folder of
//                 BROKER, examples/flights)
//   --screenshot  where the PNG goes (default: HIGGINS_CONSOLE_SCREENSHOT, else console.png in
//                 the working folder)
// Exits 0 when every check passed, 1 when one failed, 77 (skipped) when Chromium is missing
// (HIGGINS_CHROMIUM, default /usr/bin/chromium).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from '../../tools/interop/lib/broker.mjs';

const kRepo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const kInterop = join(kRepo, 'tools/interop');
const kChromium = process.env.HIGGINS_CHROMIUM || '/usr/bin/chromium';
const kSeconds = Number(process.env.HIGGINS_CONSOLE_TEST_SECONDS || 60);

// The flights demo's streams, and the edges of its graph: [input, derived stream, kind].
const kStreams = ['airports', 'flights', 'flights_enriched', 'flights_classified', 'origin_delays',
  'flight_windows'];
const kLayers = { airports: 0, flights: 0, flights_enriched: 1, flights_classified: 1,
  flight_windows: 1, origin_delays: 2 };
const kEdges = [
  ['flights', 'flights_enriched', 'join'],
  ['airports', 'flights_enriched', 'join'],
  ['flights', 'flights_classified', 'map'],
  ['flights_classified', 'origin_delays', 'reduce'],
  ['flights', 'flight_windows', 'window'],
];
const kAirports = [
  { iata: 'JFK', name: 'John F Kennedy Intl', city: 'New York', state: 'NY', country: 'USA',
    latitude: 40.63975111, longitude: -73.77892556 },
  { iata: 'SFO', name: 'San Francisco International', city: 'San Francisco', state: 'CA',
    country: 'USA', latitude: 37.61900194, longitude: -122.3748433 },
];
// The tailed record's partition key is markup: the console must show it as text.
const kKey = '<img src=x onerror="window.__consoleInjected=1">&amp;';
const kRecord = { date: '2026/12/07 08:00', delay: 17, distance: 2586, origin: kKey,
  destination: 'JFK' };

function parseArgs(argv) {
  const options = {
    broker: null, modules: null,
    screenshot: process.env.HIGGINS_CONSOLE_SCREENSHOT || resolve('console.png'),
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--modules') options.modules = resolve(argv[++i]);
    else if (argv[i] === '--screenshot') options.screenshot = resolve(argv[++i]);
    else if (!options.broker) options.broker = resolve(argv[i]);
    else throw new Error(`unexpected argument '${argv[i]}' (see the usage at the top of this file)`);
  }
  if (!options.broker) throw new Error('usage: console_test.mjs BROKER [--modules DIR] [--screenshot PNG]');
  // BROKER is <build>/src/server/higgins; the modules are built in <build>/examples/flights.
  options.modules ??= join(dirname(options.broker), '../../examples/flights');
  return options;
}

// What the deadline must stop and show when it fires before main() is done.
const running = { broker: null, log: () => '', dir: null };
let step = 'starting';
function log(text) {
  step = text;
  console.log(`-- ${text}`);
}

// The broker with its native listener on a free port, HTTP on another (--http-port=0 would
// mean no HTTP listener) and no Kafka listener, data in DIR/data, `args` after those. Resolves
// once its log names the HTTP port: {base, log(), stop()}; stop() resolves to the exit code.
async function startBroker(binary, dir, args = []) {
  const child = spawn(binary, ['--port=0', '--kafka-port=0', `--http-port=${await freePort()}`,
    `--dir=${join(dir, 'data')}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  running.broker = child;
  running.log = () => output;
  const exited = new Promise((done) => child.on('exit', (code, signal) => done(signal ? 128 : code)));
  const httpPort = await new Promise((done, fail) => {
    const poll = setInterval(() => {
      const m = /HTTP listener on [^ ]*:(\d+)/.exec(output);
      if (m) {
        clearInterval(poll);
        done(Number(m[1]));
      }
    }, 20);
    exited.then((code) => {
      clearInterval(poll);
      fail(new Error(`the broker exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    base: `http://127.0.0.1:${httpPort}`,
    log: () => output,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

// Runs `checks(broker)` against a broker started with `args`, then stops it: it must exit 0.
// On a failure, the broker's log is printed.
async function withBroker(binary, dir, args, checks) {
  log(`starting ${[binary, ...args].join(' ')}`);
  const broker = await startBroker(binary, dir, args);
  let stopped = false;
  try {
    await checks(broker);
    log('stopping the broker');
    stopped = true;
    assert.equal(await broker.stop(), 0, 'the broker stops cleanly');
  } catch (e) {
    if (!stopped) await broker.stop();
    console.log(`the broker's log:\n${broker.log().slice(-4000)}`);
    throw e;
  } finally {
    running.broker = null;
  }
}

// Calls the broker's HTTP API; resolves to the JSON answer, throws with the error otherwise.
async function call(base, method, path, { body, type, token } = {}) {
  const headers = {};
  if (type) headers['Content-Type'] = type;
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, { method, body, headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

// An HS256 JSON Web Token of `claims` signed with `secret` (docs/auth.md).
function jwt(claims, secret) {
  const part = (json) => Buffer.from(JSON.stringify(json)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

// A page of the console at `base`; uncaught errors in it go to `errors`.
async function openConsole(browser, base, errors) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (e) => errors.push(String(e)));
  // (The browser logs failed requests, 404s and refusals the checks provoke: those are expected.)
  page.on('console', (m) => {
    const text = m.text();
    if (m.type() === 'error' && !/^Failed to load resource|^WebSocket connection/.test(text)) {
      console.log(`browser console: ${text}`);
    }
  });
  const response = await page.goto(`${base}/`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-type'], /^text\/html/);
  assert.equal(await page.title(), 'Higgins console');
  return page;
}

// Waits for a row of the tail whose partition key is `key`; its cells' text.
async function tailRow(page, key) {
  await page.waitForFunction((k) => [...document.querySelectorAll('#tail tbody tr')]
    .some((row) => row.dataset.key === k), key);
  return page.evaluate((k) => {
    const row = [...document.querySelectorAll('#tail tbody tr')].find((r) => r.dataset.key === k);
    return [...row.cells].map((c) => c.textContent);
  }, key);
}

// The flights demo on a broker without tokens: every part of the console, then a screenshot.
async function checkFlights(browser, options, dir, errors) {
  const flights = JSON.parse(readFileSync(
    join(kInterop, 'node_modules/vega-datasets/data/flights-20k.json'), 'utf8')).slice(0, 200);
  await withBroker(options.broker, dir, [], async ({ base }) => {
    log('uploading the flights modules and configuration');
    for (const name of ['delay_class', 'add_totals']) {
      const wasm = readFileSync(join(options.modules, `${name}.wasm`));
      const answer = await call(base, 'PUT', `/v1/modules/${name}`, { body: wasm });
      assert.equal(answer.module, name);
    }
    const config = readFileSync(join(kRepo, 'examples/flights/config.toml'), 'utf8');
    const added = await call(base, 'POST', '/v1/configurations', { body: config });
    for (const name of kStreams) assert.ok(added.added_streams.includes(name), `added ${name}`);
    const json = 'application/json';
    await call(base, 'POST', '/v1/streams/airports/records', { body: JSON.stringify(kAirports), type: json });
    const produced = await call(base, 'POST', '/v1/streams/flights/records',
      { body: JSON.stringify(flights), type: json });
    assert.equal(produced.records.length, flights.length);

    log(`opening ${base}/ in ${kChromium}`);
    const page = await openConsole(browser, base, errors);

    log('the token field: sent as a bearer token, kept across a reload');
    const withToken = page.waitForRequest((r) => r.url() === `${base}/v1/streams` &&
      r.headers().authorization === 'Bearer console-test-token');
    await page.fill('#token', 'console-test-token');
    await page.dispatchEvent('#token', 'change');
    await withToken;
    await page.reload();
    assert.equal(await page.inputValue('#token'), 'console-test-token');
    await page.fill('#token', '');
    await page.dispatchEvent('#token', 'change');
    assert.equal(await page.evaluate(() => localStorage.length), 0);

    log('the streams table');
    const flightsRow = page.locator('#streams tbody tr[data-stream="flights"]');
    await flightsRow.waitFor();
    assert.equal(await flightsRow.locator('td').nth(2).textContent(), 'origin');
    await page.waitForFunction((n) => document.querySelector(
      '#streams tr[data-stream="flights"] td.records')?.textContent === n, String(flights.length));
    for (const name of kStreams) {
      assert.equal(await page.locator(`#streams tbody tr[data-stream="${name}"]`).count(), 1, name);
    }

    log('the stream graph');
    await page.locator('#graph svg g[data-stream="flight_windows"]').waitFor();
    for (const name of kStreams) {
      const node = page.locator(`#graph svg g.node[data-stream="${name}"]`);
      assert.equal(await node.count(), 1, `node ${name}`);
      assert.equal(await node.getAttribute('data-layer'), String(kLayers[name]), `layer of ${name}`);
    }
    for (const [from, to, kind] of kEdges) {
      const edge = page.locator(`#graph svg path.edge[data-from="${from}"][data-to="${to}"]`);
      assert.equal(await edge.count(), 1, `edge ${from} -> ${to}`);
      assert.equal(await page.getAttribute(`#graph svg g.node[data-stream="${to}"]`, 'data-kind'), kind);
    }
    const label = async (name) =>
      page.locator(`#graph svg g.node[data-stream="${name}"] text`).allTextContents();
    assert.deepEqual(await label('flights_classified'), ['flights_classified', 'map · delay_class']);
    assert.deepEqual(await label('origin_delays'), ['origin_delays', 'reduce · add_totals']);
    assert.deepEqual(await label('flight_windows'), ['flight_windows', 'window · count 10']);
    assert.match((await label('flights_enriched'))[1], /^join/);
    assert.deepEqual(await label('flights'), ['flights', 'source']);

    log('the live tail of flights');
    await page.selectOption('#tail-stream', 'flights');
    await page.waitForFunction(() => /^following/.test(document.getElementById('tail-status').textContent));
    const answer = await call(base, 'POST', '/v1/streams/flights/records',
      { body: JSON.stringify(kRecord), type: json });
    assert.deepEqual(answer.records, [{ partition_key: kKey, offset: 0 }]);
    const cells = await tailRow(page, kKey);
    assert.equal(cells[0], '0');
    assert.equal(cells[1], kKey);
    assert.equal(cells[2], answer.commit_time);
    assert.deepEqual(JSON.parse(cells[3]), kRecord);
    assert.equal(await page.locator('#tail img').count(), 0, 'the key was shown as text');
    assert.equal(await page.evaluate(() => window.__consoleInjected), undefined);

    log('the query form');
    await page.selectOption('#query-stream', 'flights');
    await page.fill('#query-key', kKey);
    await page.fill('#query-offset', 'latest');
    await page.click('#query-form button[type=submit]');
    const answerRow = page.locator('#query-result table.answer tbody tr');
    await answerRow.first().waitFor();
    assert.equal(await answerRow.count(), 1);
    assert.equal(await answerRow.getAttribute('data-offset'), '0');
    const headings = await page.locator('#query-result table.answer thead th').allTextContents();
    const values = await answerRow.locator('td').allTextContents();
    const shown = Object.fromEntries(headings.map((h, i) => [h, values[i]]));
    assert.equal(shown.offset, '0');
    assert.equal(shown.origin, kKey);
    assert.equal(shown.delay, '17');
    assert.equal(shown.destination, 'JFK');
    await page.fill('#query-offset', '7');
    await page.click('#query-form button[type=submit]');
    const error = page.locator('#query-result p.error');
    await error.waitFor();
    assert.equal(await error.getAttribute('data-code'), 'not_found');
    assert.match(await error.textContent(), /^404 not_found: ./);

    log(`screenshot: ${options.screenshot}`);
    await page.selectOption('#query-stream', 'origin_delays');
    await page.fill('#query-key', 'SFO');
    await page.fill('#query-offset', 'latest');
    await page.click('#query-form button[type=submit]');
    await page.locator('#query-result table.answer, #query-result p.error').first().waitFor();
    mkdirSync(dirname(options.screenshot), { recursive: true });
    await page.screenshot({ path: options.screenshot, fullPage: true });
    await page.close();
  });
}

// A broker with a JWT key that requires tokens (docs/auth.md): the console loads without one,
// shows the API's refusal, and with a reader's token lists what it may read and tails over
// /v1/ws/{stream}/{jwt}.
async function checkTokens(browser, options, dir, errors) {
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'jwt-secret'), secret);
  const args = [`--jwt-secret-file=${join(dir, 'jwt-secret')}`, '--http-require-token'];
  await withBroker(options.broker, dir, args, async ({ base }) => {
    const admin = jwt({ mode: 'rw', channel: '*' }, secret);
    const reader = jwt({ mode: 'r', channel: 'readings' }, secret);
    const config = '[storage.memory]\ntype = "memory"\n\n[schema.reading]\nsensor = "string"\n' +
      'value = "float64"\n\n[streams.readings]\nschema = "reading"\npartition_key = "sensor"\n\n' +
      '[streams.hidden]\nschema = "reading"\npartition_key = "sensor"\n';
    await call(base, 'POST', '/v1/configurations', { body: config, token: admin });

    log('a broker that requires tokens: without one');
    const page = await openConsole(browser, base, errors);
    await page.waitForFunction(() => /401 unauthorized/.test(document.getElementById('status').textContent));

    log("a broker that requires tokens: a reader's token");
    await page.fill('#token', reader);
    await page.dispatchEvent('#token', 'change');
    await page.locator('#streams tbody tr[data-stream="readings"]').waitFor();
    assert.equal(await page.locator('#streams tbody tr').count(), 1, 'only what the token may read');
    await page.selectOption('#tail-stream', 'readings');
    await page.waitForFunction(() => /^following/.test(document.getElementById('tail-status').textContent));
    const answer = await call(base, 'POST', '/v1/streams/readings/records',
      { body: JSON.stringify({ sensor: 's-1', value: 21.5 }), type: 'application/json', token: admin });
    const cells = await tailRow(page, 's-1');
    assert.equal(cells[2], answer.commit_time);
    assert.deepEqual(JSON.parse(cells[3]), { sensor: 's-1', value: 21.5 });
    await page.close();
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!existsSync(kChromium)) {
    console.log(`SKIP: ${kChromium} is not installed (scripts/install-deps installs chromium)`);
    return 77;
  }
  let chromium;
  try {
    ({ chromium } = createRequire(join(kInterop, 'package.json'))('playwright-core'));
  } catch (e) {
    throw new Error('playwright-core is missing from tools/interop/node_modules: run scripts/install-deps');
  }
  const dir = mkdtempSync(join(tmpdir(), 'higgins-console-'));
  running.dir = dir;
  const errors = [];
  let browser = null;
  try {
    browser = await chromium.launch({ executablePath: kChromium, headless: true });
    await checkFlights(browser, options, join(dir, 'flights'), errors);
    await checkTokens(browser, options, join(dir, 'tokens'), errors);
    assert.deepEqual(errors, [], 'no uncaught error in the pages');
  } finally {
    if (browser) await browser.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('console_test: every check passed');
  return 0;
}

const deadline = setTimeout(() => {
  console.error(`FAIL: timed out after ${kSeconds} s at: ${step}`);
  if (running.broker) {
    running.broker.kill('SIGKILL');
    console.error(`the broker's log:\n${running.log().slice(-4000)}`);
  }
  if (running.dir) rmSync(running.dir, { recursive: true, force: true });
  process.exit(1);
}, kSeconds * 1000);

main().then((code) => {
  clearTimeout(deadline);
  process.exitCode = code;
}, (e) => {
  clearTimeout(deadline);
  console.error(`FAIL at: ${step}\n${e.stack || e}`);
  process.exitCode = 1;
});
