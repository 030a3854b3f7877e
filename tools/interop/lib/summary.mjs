// Table summaries computed exactly as tests/interop/column_summary.cc does (see its header for
// the line format): row count, and per column the null count plus a sum, true count or hash.
import { Type } from 'apache-arrow';
import { canonicalValue } from './canonical.mjs';
import { tagFromType } from './types.mjs';

const FNV_OFFSET = 14695981039346656037n;
const FNV_PRIME = 1099511628211n;
const encoder = new TextEncoder();

function floatFromCanonical(v) {
  return { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 }[v] ?? v;
}

function floatJson(v) {
  if (Number.isNaN(v)) return '"NaN"';
  if (!Number.isFinite(v)) return v < 0 ? '"-Infinity"' : '"Infinity"';
  if (Object.is(v, -0)) return '"-0"';
  return JSON.stringify(v);
}

function kindOf(type) {
  switch (type.typeId) {
    case Type.Null: return 'null';
    case Type.Bool: return 'bool';
    case Type.Float: return 'float';
    case Type.Utf8: case Type.LargeUtf8: return 'text';
    case Type.Binary: case Type.LargeBinary: case Type.FixedSizeBinary: return 'binary';
    default: return 'integer';  // ints, dates, times, timestamps, durations, decimals
  }
}

/** Summary lines of a decoded schema and its batches. */
export function summarize(schema, batches) {
  const columns = schema.fields.map((f) => ({
    field: f, kind: kindOf(f.type), nulls: 0, intSum: 0n, floatSum: 0, trues: 0, bytes: 0, fnv: FNV_OFFSET,
  }));
  let rows = 0;
  for (const batch of batches) {
    rows += batch.numRows;
    columns.forEach((col, c) => {
      const vector = batch.getChildAt(c);
      for (let i = 0; i < batch.numRows; ++i) {
        const v = canonicalValue(vector, i);
        if (v === null) { ++col.nulls; continue; }
        switch (col.kind) {
          case 'bool': col.trues += v ? 1 : 0; break;
          case 'float': col.floatSum += floatFromCanonical(v); break;
          case 'integer': col.intSum = BigInt.asUintN(128, col.intSum + BigInt(v)); break;
          default: {
            const bytes = col.kind === 'text' ? encoder.encode(v) : Buffer.from(v, 'hex');
            col.bytes += bytes.length;
            for (const b of bytes) col.fnv = BigInt.asUintN(64, (col.fnv ^ BigInt(b)) * FNV_PRIME);
            col.fnv = BigInt.asUintN(64, (col.fnv ^ 0xffn) * FNV_PRIME);
          }
        }
      }
    });
  }
  const lines = [JSON.stringify({ rows, batches: batches.length })];
  for (const col of columns) {
    let text = `{"column":${JSON.stringify(col.field.name)},"type":${JSON.stringify(tagFromType(col.field.type))},"nulls":${col.nulls}`;
    if (col.kind === 'bool') text += `,"true":${col.trues}`;
    if (col.kind === 'float') text += `,"sum":${floatJson(col.floatSum)}`;
    if (col.kind === 'integer') text += `,"sum":"${BigInt.asIntN(128, col.intSum)}"`;
    if (col.kind === 'text' || col.kind === 'binary') {
      text += `,"bytes":${col.bytes},"fnv1a64":"${col.fnv.toString(16).padStart(16, '0')}"`;
    }
    lines.push(`${text}}`);
  }
  return lines;
}
