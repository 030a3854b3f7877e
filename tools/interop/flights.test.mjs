// A real file written by another Arrow implementation: vega-datasets' flights-200k.arrow. The C++
// reader (tests/interop/arrow_summary.cc, named by HIGGINS_ARROW_SUMMARY) and apache-arrow must
// agree on the schema, the row count (200,000) and every column's null count and sum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBatches, buildSchema } from './lib/build.mjs';
import { loadCases } from './lib/dataset.mjs';
import { readIpc, writeIpc } from './lib/ipc.mjs';
import { summarize } from './lib/summary.mjs';
import { tagFromType } from './lib/types.mjs';

const SUMMARY = process.env.HIGGINS_ARROW_SUMMARY;
if (!SUMMARY) throw new Error('set HIGGINS_ARROW_SUMMARY to the arrow_summary binary (ctest does)');
const FLIGHTS = fileURLToPath(new URL('./node_modules/vega-datasets/data/flights-200k.arrow', import.meta.url));

function cppSummaryOf(path) {
  const r = spawnSync(SUMMARY, [path], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `arrow_summary failed: ${r.stderr}`);
  return r.stdout.split('\n').filter((line) => line !== '');
}

test('C++ and apache-arrow agree on flights-200k.arrow', (t) => {
  const output = cppSummaryOf(FLIGHTS);
  const cppSchema = output.filter((line) => line.startsWith('#'));
  const cppSummary = output.filter((line) => !line.startsWith('#'));
  for (const line of cppSchema) t.diagnostic(`C++ schema: ${line.slice(2)}`);

  const { schema, batches } = readIpc(readFileSync(FLIGHTS));
  t.diagnostic(`apache-arrow schema: ${schema.fields.map((f) => `${f.name}: ${tagFromType(f.type)}`).join(', ')}`);
  const jsSummary = summarize(schema, batches);
  for (const line of jsSummary) t.diagnostic(`summary: ${line}`);

  assert.equal(JSON.parse(jsSummary[0]).rows, 200000);
  assert.deepEqual(cppSummary, jsSummary);
});

// The same summaries over the interop dataset exercise what flights lacks (strings, binary,
// bool, decimals, NaN, nulls), so the comparison above cannot pass by accident.
test('C++ and apache-arrow summaries agree on every interop dataset case', () => {
  const dir = mkdtempSync(join(tmpdir(), 'higgins-summary-'));
  try {
    for (const c of loadCases()) {
      const path = join(dir, `${c.name}.arrow`);
      writeFileSync(path, writeIpc(buildSchema(c), buildBatches(c), 'file'));
      const { schema, batches } = readIpc(readFileSync(path));
      const cpp = cppSummaryOf(path).filter((line) => !line.startsWith('#'));
      assert.deepEqual(cpp, summarize(schema, batches), c.name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
