// The canonical line rendering shared with tests/support/canonical_value.cc (docs/conformance.md):
// a schema line, then per batch a batch line followed by one JSON object per row.
import { Type, DateUnit, Precision } from 'apache-arrow';
import { tagFromType } from './types.mjs';

const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

function floatValue(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0';
  return v;
}

// Two's complement little-endian 32-bit words -> signed BigInt.
function decimalValue(words, index) {
  let v = 0n;
  for (let w = 3; w >= 0; --w) v = (v << 32n) | BigInt(words[index * 4 + w]);
  return BigInt.asIntN(128, v).toString();
}

/** Canonical value of row i of a column (an apache-arrow Vector with one Data chunk). */
export function canonicalValue(vector, i) {
  const { type } = vector;
  const data = vector.data[0];
  if (type.typeId === Type.Null || !data.getValid(i)) return null;
  switch (type.typeId) {
    case Type.Bool: return vector.get(i);
    case Type.Int: return type.bitWidth === 64 ? data.values[i].toString() : data.values[i];
    case Type.Float:
      return floatValue(type.precision === Precision.HALF ? vector.get(i) : data.values[i]);
    case Type.Utf8:
    case Type.LargeUtf8: return vector.get(i);
    case Type.Binary:
    case Type.LargeBinary:
    case Type.FixedSizeBinary: return hex(vector.get(i));
    case Type.Date: return type.unit === DateUnit.DAY ? data.values[i] : data.values[i].toString();
    case Type.Decimal: return decimalValue(data.values, i);
    case Type.Time: return type.bitWidth === 32 ? data.values[i] : data.values[i].toString();
    case Type.Timestamp:
    case Type.Duration: return data.values[i].toString();
    default: throw new Error(`no canonical form for ${type}`);
  }
}

export function schemaLine(fields) {
  return JSON.stringify({ schema: fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })) });
}

export const batchLine = (index, rows) => JSON.stringify({ batch: index, rows });

/** Lines for what apache-arrow decoded: a Schema and RecordBatches. */
export function renderDecoded(schema, batches) {
  const fields = schema.fields.map((f) => ({ name: f.name, type: tagFromType(f.type), nullable: f.nullable }));
  const lines = [schemaLine(fields)];
  batches.forEach((batch, b) => {
    lines.push(batchLine(b, batch.numRows));
    const columns = fields.map((_, c) => batch.getChildAt(c));
    for (let i = 0; i < batch.numRows; ++i) {
      const row = {};
      fields.forEach((f, c) => { row[f.name] = canonicalValue(columns[c], i); });
      lines.push(JSON.stringify(row));
    }
  });
  return lines;
}

/** The lines every correct reader prints for a dataset case: straight from its definition. */
export function expectedLines(testCase) {
  const lines = [schemaLine(testCase.fields)];
  testCase.batches.forEach((rows, b) => {
    lines.push(batchLine(b, rows.length));
    for (const row of rows) {
      lines.push(JSON.stringify(Object.fromEntries(testCase.fields.map((f) => [f.name, row[f.name] ?? null]))));
    }
  });
  return lines;
}
