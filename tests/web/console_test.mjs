// The web console (web/console/) in a real browser against a real broker (ctest console_browser):
// starts `higgins` with its HTTP listener, loads the flights demo's modules and configuration
// over HTTP (as scripts/demo does with higgins-cli), opens the console in headless Chromium
// (Debian's package, driven by playwright-core from tools/interop) and checks:
//   - the token field: kept in localStorage across a reload, sent as Authorization: Bearer;
//   - the streams table: the flights stream with its partition key and record count;
//   - the stream graph: a node per flights stream in its layer, labelled with its kind, and the
//     join, map, reduce and window edges;
//   - the live tail: a record produced over HTTP arrives on the WebSocket and is shown, its
//     partition key (markup) as text;
//   - the query form: the latest record of that key, then a missing offset's error;
// and saves a screenshot of the whole page. Fails after 60 s (HIGGINS_CONSOLE_TEST_SECONDS).
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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

// The broker with its native listener on a free port, HTTP on another (--http-port=0 would
// mean no HTTP listener) and no Kafka listener, data in DIR/data. Resolves once its log names
// the HTTP port: {httpPort, log(), stop()}; stop() resolves to the exit code.
async function startBroker(binary, dir) {
  const child = spawn(binary, ['--port=0', '--kafka-port=0', `--http-port=${await freePort()}`,
    `--dir=${join(dir, 'data')}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (chunk) => { log += chunk; });
  child.stderr.on('data', (chunk) => { log += chunk; });
  running.broker = child;
  running.log = () => log;
  const exited = new Promise((done) => child.on('exit', (code, signal) => done(signal ? 128 : code)));
  const httpPort = await new Promise((done, fail) => {
    const poll = setInterval(() => {
      const m = /HTTP listener on [^ ]*:(\d+)/.exec(log);
      if (m) {
        clearInterval(poll);
        done(Number(m[1]));
      }
    }, 20);
    exited.then((code) => {
      clearInterval(poll);
      fail(new Error(`the broker exited with ${code} before listening`));
    });
  });
  return {
    httpPort,
    log: () => log,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

// Calls the broker's HTTP API; resolves to the JSON answer, throws with the error otherwise.
async function call(base, method, path, body, contentType) {
  const headers = contentType ? { 'Content-Type': contentType } : {};
  const response = await fetch(`${base}${path}`, { method, body, headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

// What the deadline must stop and show when it fires before main() is done.
const running = { broker: null, log: () => '', dir: null };
let step = 'starting';
function log(text) {
  step = text;
  console.log(`-- ${text}`);
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
  const flights = JSON.parse(readFileSync(
    join(kInterop, 'node_modules/vega-datasets/data/flights-20k.json'), 'utf8')).slice(0, 200);

  const dir = mkdtempSync(join(tmpdir(), 'higgins-console-'));
  running.dir = dir;
  let broker = null;
  let browser = null;
  const pageErrors = [];
  let passed = false;
  try {
    log(`starting ${options.broker}`);
    broker = await startBroker(options.broker, dir);
    const base = `http://127.0.0.1:${broker.httpPort}`;

    log('uploading the flights modules and configuration');
    for (const name of ['delay_class', 'add_totals']) {
      const wasm = readFileSync(join(options.modules, `${name}.wasm`));
      const answer = await call(base, 'PUT', `/v1/modules/${name}`, wasm, 'application/wasm');
      assert.equal(answer.module, name);
    }
    const config = readFileSync(join(kRepo, 'examples/flights/config.toml'), 'utf8');
    const added = await call(base, 'POST', '/v1/configurations', config, 'application/toml');
    for (const name of kStreams) assert.ok(added.added_streams.includes(name), `added ${name}`);
    await call(base, 'POST', '/v1/streams/airports/records', JSON.stringify(kAirports), 'application/json');
    const produced = await call(base, 'POST', '/v1/streams/flights/records', JSON.stringify(flights),
      'application/json');
    assert.equal(produced.records.length, flights.length);

    log(`opening ${base}/ in ${kChromium}`);
    browser = await chromium.launch({ executablePath: kChromium, headless: true });
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    // (The browser logs the 404 of the failing query too: that one is expected.)
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) {
        console.log(`browser console: ${m.text()}`);
      }
    });
    const response = await page.goto(`${base}/`);
    assert.equal(response.status(), 200);
    assert.match(response.headers()['content-type'], /^text\/html/);
    assert.equal(await page.title(), 'Higgins console');

    log('the token: sent as a bearer token, kept across a reload');
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
    const label = async (name) => page.locator(`#graph svg g.node[data-stream="${name}"] text`).allTextContents();
    assert.deepEqual(await label('flights_classified'), ['flights_classified', 'map · delay_class']);
    assert.deepEqual(await label('origin_delays'), ['origin_delays', 'reduce · add_totals']);
    assert.deepEqual(await label('flight_windows'), ['flight_windows', 'window · count 10']);
    assert.match((await label('flights_enriched'))[1], /^join/);
    assert.deepEqual(await label('flights'), ['flights', 'source']);

    log('the live tail of flights');
    await page.selectOption('#tail-stream', 'flights');
    await page.waitForFunction(() => /following/.test(document.getElementById('tail-status').textContent));
    const answer = await call(base, 'POST', '/v1/streams/flights/records', JSON.stringify(kRecord),
      'application/json');
    assert.deepEqual(answer.records, [{ partition_key: kKey, offset: 0 }]);
    await page.waitForFunction((key) => [...document.querySelectorAll('#tail tbody tr')]
      .some((row) => row.dataset.key === key), kKey);
    const cells = await page.evaluate((key) => {
      const row = [...document.querySelectorAll('#tail tbody tr')].find((r) => r.dataset.key === key);
      return [...row.cells].map((c) => c.textContent);
    }, kKey);
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

    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    await browser.close();
    browser = null;
    log('stopping the broker');
    const code = await broker.stop();
    broker = null;
    assert.equal(code, 0, 'the broker stops cleanly');
    passed = true;
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (broker) {
      await broker.stop();
      if (!passed) console.log(`the broker's log:\n${broker.log().slice(-4000)}`);
    }
    if (pageErrors.length) console.log(`errors in the page:\n${pageErrors.join('\n')}`);
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
