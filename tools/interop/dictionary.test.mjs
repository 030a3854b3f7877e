// Dictionary-encoded columns written by apache-arrow (as Python and JS producers write
// categoricals): `higgins-cli arrow cat` (HIGGINS_CLI) must print the values apache-arrow itself
// decodes from the same bytes, through replacement dictionaries and deltas (ctest
// arrow_js_dictionary).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageReader } from 'apache-arrow';
import { writeIpc } from './lib/ipc.mjs';
import { FRANCE, NORWAY, NORWAY_MORE, SCHEMA, batch, jsRows } from './lib/cities.mjs';

const CLI = process.env.HIGGINS_CLI;
if (!CLI) throw new Error('set HIGGINS_CLI to the higgins-cli binary (ctest does)');

const dir = mkdtempSync(join(tmpdir(), 'higgins-dictionary-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// [id, isDelta] of every DictionaryBatch message of a stream, in order.
function dictionaryMessages(bytes) {
  const out = [];
  const reader = new MessageReader(bytes);
  for (const message of reader) {
    if (message.isDictionaryBatch()) out.push([Number(message.header().id), message.header().isDelta]);
    if (message.bodyLength > 0) reader.readMessageBody(message.bodyLength);
  }
  return out;
}

// Rows as `higgins-cli arrow cat` prints them (one JSON object per line).
function cliRows(path) {
  const r = spawnSync(CLI, ['arrow', 'cat', path], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `higgins-cli arrow cat failed: ${r.stderr}`);
  return r.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}

test('replacement and delta dictionaries in a stream', () => {
  const bytes = writeIpc(SCHEMA, [
    batch([1, 2, 3, 4], [0, 2, null, 1], FRANCE),
    batch([5, 6, 7], [1, 1, 0], NORWAY),  // a replacement dictionary for id 0
    batch([8, 9], [2, 0], NORWAY_MORE),   // a delta: Tromsø appended
  ], 'stream');
  const expected = [
    { id: 1, city: 'Paris' }, { id: 2, city: 'Nice' }, { id: 3, city: null }, { id: 4, city: 'Lyon' },
    { id: 5, city: 'Bergen' }, { id: 6, city: 'Bergen' }, { id: 7, city: 'Oslo' },
    { id: 8, city: 'Tromsø' }, { id: 9, city: 'Oslo' },
  ];
  assert.deepEqual(dictionaryMessages(bytes), [[0, false], [0, false], [0, true]],
    'apache-arrow wrote a dictionary, a replacement and a delta');
  assert.deepEqual(jsRows(bytes), expected, 'apache-arrow reads back what it wrote');
  const path = join(dir, 'cities.arrows');
  writeFileSync(path, bytes);
  assert.deepEqual(cliRows(path), expected);
});

test('a delta dictionary in a file', () => {
  // The file format allows no replacement (apache-arrow refuses to write one), only deltas.
  const bytes = writeIpc(SCHEMA, [
    batch([1, 2], [1, 0], NORWAY),
    batch([3, 4, 5], [2, null, 1], NORWAY_MORE),
  ], 'file');
  const expected = [
    { id: 1, city: 'Bergen' }, { id: 2, city: 'Oslo' },
    { id: 3, city: 'Tromsø' }, { id: 4, city: null }, { id: 5, city: 'Bergen' },
  ];
  assert.deepEqual(jsRows(bytes), expected, 'apache-arrow reads back what it wrote');
  const path = join(dir, 'cities.arrow');
  writeFileSync(path, bytes);
  assert.deepEqual(cliRows(path), expected);
});

test('an index out of range of its dictionary is refused naming the batch and the field', () => {
  const bytes = writeIpc(SCHEMA, [batch([1, 2], [0, 5], FRANCE)], 'stream');
  const path = join(dir, 'bad-index.arrows');
  writeFileSync(path, bytes);
  const r = spawnSync(CLI, ['arrow', 'cat', path], { encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr,
    /record batch 0: field 'city': index 5 at row 1 is out of range of dictionary 0 \(3 values\)/);
});
