// Decodes every *.arrow file under a folder with apache-arrow (the JS implementation, not
// Higgins' code) and prints a JSON summary: objects, rows, field names, the `seq` values seen
// per partition-key column value, and each object's higgins.* schema metadata.
// Usage: node decode_objects.mjs DIR KEY_COLUMN SEQ_COLUMN
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../tools/interop/', import.meta.url).href);
const { tableFromIPC } = require('apache-arrow');

const [dir, keyColumn, seqColumn] = process.argv.slice(2);
const files = [];
const walk = (d) => {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.arrow')) files.push(p);
  }
};
walk(dir);
files.sort();

const summary = { objects: 0, rows: 0, fields: null, keys: {}, duplicates: 0, metadata: [] };
const seen = new Set();
for (const file of files) {
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 6).toString() !== 'ARROW1') throw new Error(`${file}: not an Arrow IPC file`);
  const table = tableFromIPC(bytes);
  summary.objects += 1;
  summary.rows += table.numRows;
  summary.fields = table.schema.fields.map((f) => `${f.name}:${f.type}`);
  const md = table.schema.metadata;
  summary.metadata.push({
    file: file.slice(dir.length + 1),
    base: md.get('higgins.base_sequence'),
    entries: (md.get('higgins.entries') || '').split(';').length,
    batches: table.batches.length,
  });
  const keys = table.getChild(keyColumn);
  const seqs = table.getChild(seqColumn);
  for (let i = 0; i < table.numRows; i++) {
    const key = String(keys.get(i));
    const seq = Number(seqs.get(i));
    const id = `${key}\u0000${seq}`;
    if (seen.has(id)) summary.duplicates += 1;
    seen.add(id);
    summary.keys[key] = (summary.keys[key] || 0) + 1;
  }
}
console.log(JSON.stringify(summary));
