// Loads dataset.json, the definition of every interop case and of its expected output.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DATASET_PATH = fileURLToPath(new URL('../dataset.json', import.meta.url));

let cached = null;

/** All cases, with `fields_of` resolved and `nullable` defaulted to true. */
export function loadCases() {
  if (cached) return cached;
  const raw = JSON.parse(readFileSync(DATASET_PATH, 'utf8')).cases;
  const byName = new Map(raw.map((c) => [c.name, c]));
  cached = raw.map((c) => {
    const fields = c.fields_of ? byName.get(c.fields_of)?.fields : c.fields;
    if (!fields) throw new Error(`case ${c.name}: no fields (fields_of '${c.fields_of}'?)`);
    return {
      name: c.name,
      sliced: Boolean(c.sliced),
      fields: fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable ?? true })),
      batches: c.batches,
    };
  });
  for (const c of cached) checkRows(c);
  return cached;
}

export function getCase(name) {
  const found = loadCases().find((c) => c.name === name);
  if (!found) throw new Error(`unknown case '${name}' (cases: ${loadCases().map((c) => c.name).join(', ')})`);
  return found;
}

function checkRows(c) {
  const names = new Set(c.fields.map((f) => f.name));
  c.batches.forEach((rows, b) => rows.forEach((row, r) => {
    for (const key of Object.keys(row)) {
      if (!names.has(key)) throw new Error(`case ${c.name} batch ${b} row ${r}: unknown field '${key}'`);
    }
    for (const f of c.fields) {
      if (!f.nullable && (row[f.name] ?? null) === null) {
        throw new Error(`case ${c.name} batch ${b} row ${r}: '${f.name}' is not nullable`);
      }
    }
  }));
}
