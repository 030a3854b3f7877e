// Recomputes the flights demo's answers from vega-datasets' source files alone (no Higgins code,
// no Higgins output used to compute them), then checks that the answers scripts/demo read back
// from the broker equal them. DEMO_ANSWERS is the demo's --out folder; DEMO_DATA the folder of
// flights-20k.json and airports.csv. tests/demo/run_demo_test.sh sets both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ANSWERS = process.env.DEMO_ANSWERS;
const DATA = process.env.DEMO_DATA;
if (!ANSWERS || !DATA) throw new Error('set DEMO_ANSWERS and DEMO_DATA (run_demo_test.sh does)');

// RFC 4180: fields separated by commas, optionally quoted, "" inside quotes is one quote.
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; ++i; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') ++i;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
}

const flights = JSON.parse(readFileSync(join(DATA, 'flights-20k.json'), 'utf8'));
const airports = new Map(parseCsv(readFileSync(join(DATA, 'airports.csv'), 'utf8')).map((a) => [a.iata, a]));

// Per origin, its flights in file order: the demo produces them in that order, so a flight's
// offset in its partition is its index here.
const byOrigin = new Map();
for (const f of flights) {
  if (!byOrigin.has(f.origin)) byOrigin.set(f.origin, []);
  byOrigin.get(f.origin).push(f);
}
const delayClass = (d) => (d < 15 ? 'on_time' : d < 60 ? 'late' : 'very_late');
const sum = (list) => list.reduce((s, f) => s + f.delay, 0);

const ndjson = (name) => readFileSync(join(ANSWERS, name), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

test('the source files are the ones the demo is about', () => {
  assert.equal(flights.length, 20000);
  assert.equal(airports.size, 3376);
  assert.equal(byOrigin.size, 220);
  assert.equal(airports.get('DBN').name, 'W. H. "Bud" Barron');  // quoted CSV with quotes inside
});

test('origin_delays holds each origin\'s flight count and total delay', () => {
  const rows = ndjson('origin_delays.ndjson');
  assert.equal(rows.length, byOrigin.size);
  for (const r of rows) {
    const list = byOrigin.get(r.record.origin);
    assert.ok(list, `unexpected origin ${r.record.origin}`);
    assert.deepEqual({ offset: r.offset, ...r.record },
      { offset: list.length - 1, origin: r.record.origin, flights: list.length, total_delay: sum(list) });
  }
});

test('the printed top 10 by total delay is the recomputed one', () => {
  const expected = [...byOrigin.entries()]
    .map(([origin, list]) => ({ origin, flights: list.length, total: sum(list) }))
    .sort((a, b) => b.total - a.total || (a.origin < b.origin ? -1 : 1))
    .slice(0, 10)
    .map((o) => `${o.origin} ${o.flights} ${o.total} ${(o.total / o.flights).toFixed(1)}`);
  const printed = readFileSync(join(ANSWERS, 'top_delays.txt'), 'utf8').trim().split('\n').slice(1)
    .map((line) => line.trim().split(/\s+/).join(' '));
  assert.deepEqual(printed, expected);
});

test('the latest enriched flight of each airport shown is its last flight with its airport', () => {
  for (const iata of ['SFO', 'ORD', 'JFK']) {
    const [r] = ndjson(`enriched_${iata}.ndjson`);
    const list = byOrigin.get(iata);
    const last = list[list.length - 1];
    const airport = airports.get(iata);
    // The join appends one record per airport record and one per flight of the key.
    assert.equal(r.offset, list.length, iata);
    assert.deepEqual(r.record, {
      origin: iata, date: last.date, delay: last.delay, distance: last.distance,
      destination: last.destination, origin_name: airport.name, origin_city: airport.city,
      origin_state: airport.state,
    });
  }
});

test('the last window of SFO holds its last flights, from the last multiple of 10', () => {
  const [w] = ndjson('window_SFO.ndjson');
  const list = byOrigin.get('SFO');
  const number = Math.floor((list.length - 1) / 10);
  const start = number * 10;
  assert.deepEqual({ window: w.window, start: w.start, end: w.end, closed: w.closed },
    { window: number, start, end: start + 10, closed: list.length === start + 10 });
  assert.deepEqual(w.records.map((r) => ({ offset: r.offset, ...r.record })),
    list.slice(start).map((f, i) => ({ offset: start + i, ...f })));
});

test('the subscription delivered every classified flight once, each with its class', () => {
  const rows = ndjson('subscription.ndjson');
  assert.equal(rows.length, flights.length);
  const seen = new Set();
  const next = new Map();  // each partition in offset order
  for (const r of rows) {
    assert.equal(r.offset, next.get(r.partition) ?? 0, `${r.partition}: offsets out of order`);
    next.set(r.partition, r.offset + 1);
    const id = `${r.partition}/${r.offset}`;
    assert.ok(!seen.has(id), `${id} delivered twice`);
    seen.add(id);
    const f = byOrigin.get(r.partition)?.[r.offset];
    assert.ok(f, `${id} is not a flight`);
    assert.deepEqual(r.record, { ...f, delay_class: delayClass(f.delay), flights: 1, total_delay: f.delay });
  }
  const counts = {};
  for (const f of flights) counts[delayClass(f.delay)] = (counts[delayClass(f.delay)] ?? 0) + 1;
  const printed = readFileSync(join(ANSWERS, 'classes.txt'), 'utf8').trim().split('\n')
    .map((line) => line.trim().split(/\s+/));
  assert.deepEqual(Object.fromEntries(printed.map(([c, n]) => [c, Number(n)])), counts);
});
