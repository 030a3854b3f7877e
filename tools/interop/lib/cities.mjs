// Cities, dictionary-encoded as Python and JS producers write categoricals: a schema of an int32
// id and a dictionary-encoded string city, batches of it, and how apache-arrow decodes them
// (used by dictionary.test.mjs and kafka.test.mjs).
import {
  Dictionary, Field, Int32, Int8, RecordBatch, Schema, Struct, Utf8, makeData, vectorFromArray,
} from 'apache-arrow';
import { readIpc } from './ipc.mjs';

export const CITY = new Dictionary(new Utf8(), new Int8(), 0);
export const SCHEMA = new Schema([new Field('id', new Int32(), false), new Field('city', CITY, true)]);

// A batch of ids and city indices into `dictionary` (an apache-arrow Vector); null indices are
// null cities.
export function batch(ids, indices, dictionary) {
  const length = ids.length;
  const valid = indices.map((i) => i !== null);
  const nullCount = valid.filter((v) => !v).length;
  const nullBitmap = new Uint8Array(Math.ceil(length / 8));
  valid.forEach((v, i) => { if (v) nullBitmap[i >> 3] |= 1 << (i & 7); });
  const idData = makeData({ type: new Int32(), length, data: Int32Array.from(ids) });
  const cityData = makeData({
    type: CITY, length, nullCount, nullBitmap: nullCount ? nullBitmap : null,
    data: Int8Array.from(indices.map((i) => i ?? 0)), dictionary,
  });
  return new RecordBatch(SCHEMA, makeData({
    type: new Struct(SCHEMA.fields), length, nullCount: 0, children: [idData, cityData],
  }));
}

// Rows as apache-arrow decodes `bytes`: {id, city} objects, in order.
export function jsRows(bytes) {
  const rows = [];
  for (const b of readIpc(bytes).batches) {
    for (let i = 0; i < b.numRows; ++i) {
      rows.push({ id: b.getChild('id').get(i), city: b.getChild('city').get(i) });
    }
  }
  return rows;
}

export const FRANCE = vectorFromArray(['Paris', 'Lyon', 'Nice'], new Utf8());
export const NORWAY = vectorFromArray(['Oslo', 'Bergen'], new Utf8());
// Shares NORWAY's chunk, so apache-arrow sends only the new value, as a delta (isDelta true).
export const NORWAY_MORE = NORWAY.concat(vectorFromArray(['Tromsø'], new Utf8()));
