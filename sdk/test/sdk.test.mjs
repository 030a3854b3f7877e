// The UDF SDK's examples (sdk/examples/*.wasm) driven by an independent host: Node's WebAssembly
// and apache-arrow (JS), no Higgins C++ code. It does the host side of the ABI exactly as
// docs/udf-abi.md specifies it and checks the results value by value. ctest runs it as
// sdk_node_test with HIGGINS_UDF_DIR set to the folder of the built modules.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const interopDir = join(dirname(fileURLToPath(import.meta.url)), '../../tools/interop');
if (!existsSync(join(interopDir, 'node_modules/apache-arrow'))) {
  throw new Error('tools/interop/node_modules is missing: run scripts/install-deps '
    + '(or: npm ci --prefix tools/interop)');
}
const requireInterop = createRequire(join(interopDir, 'package.json'));
const arrow = requireInterop('apache-arrow');
const lz4 = requireInterop('lz4js');
const {
  Field, Schema, Struct, RecordBatch, Table, makeData, vectorFromArray, tableToIPC, tableFromIPC,
  Utf8, LargeUtf8, Binary, Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64,
  Float16, Float32, Float64, DateDay, DateMillisecond, Decimal, Timestamp, TimeUnit, TimeSecond,
  TimeNanosecond, DurationMillisecond, FixedSizeBinary, Null, IntervalDayTime, List,
  RecordBatchStreamWriter, CompressionType, compressionRegistry,
} = arrow;

const UDF_DIR = process.env.HIGGINS_UDF_DIR;
if (!UDF_DIR) throw new Error('set HIGGINS_UDF_DIR to the folder of the built .wasm (ctest does)');
// Optional: a folder where every result stream is saved (result-<n>.arrows), to check the
// results with another Arrow reader by hand.
const DUMP_DIR = process.env.HIGGINS_SDK_DUMP_DIR;
let results = 0;

// ----- The host side of the ABI (docs/udf-abi.md) -----

/** Compiles and instantiates sdk/examples/<name>.wasm with no imports at all. */
function load(name) {
  const module = new WebAssembly.Module(readFileSync(join(UDF_DIR, `${name}.wasm`)));
  return { module, exports: new WebAssembly.Instance(module, {}).exports };
}

const memoryBytes = (exports) => new Uint8Array(exports.memory.buffer);

/** Copies one input in: _malloc(8 + n), the 8-byte big-endian n, then the n bytes. */
function stage(exports, bytes) {
  const p = exports._malloc(8 + bytes.length) >>> 0;
  assert.notEqual(p, 0, '_malloc returned 0');
  const memory = memoryBytes(exports); // fetched after _malloc, which may grow memory
  assert.ok(p + 8 + bytes.length <= memory.length, '_malloc returned a block outside memory');
  new DataView(memory.buffer).setBigUint64(p, BigInt(bytes.length), false);
  memory.set(bytes, p + 8);
  return p;
}

/** The text get_errors points at (8-byte big-endian length, UTF-8), or null. */
function errorText(exports) {
  const p = exports.get_errors() >>> 0;
  if (p === 0) return null;
  const memory = memoryBytes(exports);
  assert.ok(p + 8 <= memory.length, 'get_errors returned a pointer outside memory');
  const n = Number(new DataView(memory.buffer).getBigUint64(p, false));
  assert.ok(p + 8 + n <= memory.length, 'the error text runs past the end of memory');
  return new TextDecoder('utf-8', { fatal: true }).decode(memory.subarray(p + 8, p + 8 + n));
}

/**
 * One batch through `run`: _reset, stage each input, run, then read the framed result.
 * Returns { table, bytes } on success, { error } when run returns 0.
 */
function call(exports, inputs, { reset = true } = {}) {
  if (reset) exports._reset();
  const pointers = inputs.map((bytes) => stage(exports, bytes));
  const r = exports.run(...pointers) >>> 0;
  if (r === 0) return { error: errorText(exports) };
  const memory = memoryBytes(exports);
  assert.ok(r + 8 <= memory.length, 'run returned a pointer outside memory');
  const n = new DataView(memory.buffer).getBigUint64(r, false);
  assert.ok(BigInt(r + 8) + n <= BigInt(memory.length), 'the result runs past the end of memory');
  const bytes = memory.slice(r + 8, r + 8 + Number(n));
  if (DUMP_DIR) writeFileSync(join(DUMP_DIR, `result-${results++}.arrows`), bytes);
  checkFraming(bytes);
  const table = tableFromIPC(bytes);
  assert.equal(table.batches.length, 1, 'the result holds exactly one record batch');
  return { table, bytes };
}

/** The result is an IPC stream of encapsulated, 8-byte aligned messages ending with EOS. */
function checkFraming(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  let messages = 0;
  for (;;) {
    assert.ok(pos + 8 <= bytes.length, `message ${messages} prefix is cut off`);
    assert.equal(view.getUint32(pos, true), 0xFFFFFFFF, 'continuation marker');
    const metadata = view.getInt32(pos + 4, true);
    if (metadata === 0) break; // end-of-stream
    assert.equal(metadata % 8, 0, 'metadata size is a multiple of 8');
    const table = view.getUint32(pos + 8, true); // root offset of the Message flatbuffer
    const bodyLength = readBodyLength(view, pos + 8, table);
    assert.equal(bodyLength % 8n, 0n, 'body length is a multiple of 8');
    pos += 8 + metadata + Number(bodyLength);
    messages += 1;
  }
  assert.equal(pos + 8, bytes.length, 'nothing follows the end-of-stream marker');
  assert.equal(messages, 2, 'a schema message and one record batch message');
}

/** Message.bodyLength (field id 3) read from the flatbuffer at `base`. */
function readBodyLength(view, base, rootOffset) {
  const table = base + rootOffset;
  const vtable = table - view.getInt32(table, true);
  const vtableSize = view.getUint16(vtable, true);
  if (vtableSize <= 4 + 2 * 3) return 0n;
  const offset = view.getUint16(vtable + 4 + 2 * 3, true);
  if (offset === 0) return 0n;
  assert.equal((table + offset - base) % 8, 0, 'bodyLength is 8-byte aligned');
  return view.getBigInt64(table + offset, true);
}

// ----- Building inputs with apache-arrow -----

/** A column: name, Arrow type, values (null for a null), nullable (default true). */
const col = (name, type, values, nullable = true) => ({ name, type, values, nullable });

/** The IPC stream (schema, one batch, EOS) of the given columns. */
function ipc(columns, { compression } = {}) {
  const fields = columns.map((c) => new Field(c.name, c.type, c.nullable));
  const length = columns.length ? columns[0].values.length : 0;
  const children = columns.map((c) => (c.data ?? vectorFromArray(c.values, c.type).data[0]));
  const schema = new Schema(fields);
  const batch = new RecordBatch(schema,
    makeData({ type: new Struct(fields), length, nullCount: 0, children }));
  const writer = new RecordBatchStreamWriter(
    compression === undefined ? {} : { compressionType: compression });
  writer.reset(undefined, schema);
  writer.write(batch);
  writer.finish();
  return writer.toUint8Array(true);
}

/** The values of a result column, nulls as null. */
const values = (table, name) => {
  const vector = table.getChild(name);
  assert.ok(vector, `the result has a column '${name}'`);
  return Array.from({ length: vector.length }, (_, i) => vector.get(i));
};

/** name:type? of each field, to compare schemas. */
const describeSchema = (schema) => schema.fields.map(
  (f) => `${f.name}:${f.type}${f.nullable ? '?' : ''}`);

const expectSchema = (table, columns) => assert.deepEqual(describeSchema(table.schema),
  columns.map((c) => `${c.name}:${c.type}${c.nullable ? '?' : ''}`));

/** Three rows of every type the SDK supports, nulls included. */
function allTypes() {
  const decimal = new Decimal(2, 10, 128);
  return [
    col('i8', new Int8(), [-128, 0, 127]),
    col('i16', new Int16(), [-32768, null, 32767]),
    col('u8', new Uint8(), [0, 200, 255]),
    col('u16', new Uint16(), [0, null, 65535]),
    col('u32', new Uint32(), [0, 4000000000, null]),
    col('u64', new Uint64(), [0n, 18446744073709551615n, null]),
    col('f16', new Float16(), [1.5, null, -0.25]),
    col('f32', new Float32(), [1.5, -2.25, null]),
    col('b', new Bool(), [true, null, false]),
    col('bin', new Binary(), [new Uint8Array([0, 1, 255]), null, new Uint8Array()]),
    col('ls', new LargeUtf8(), ['large', null, 'ünïcode']),
    col('d32', new DateDay(), [new Date(0), null, new Date(86400000 * 365)]),
    col('d64', new DateMillisecond(), [new Date(1234567890000), null, new Date(0)]),
    col('ts', new Timestamp(TimeUnit.MILLISECOND, 'Europe/Paris'), [0, null, 1700000000123]),
    col('ts_plain', new Timestamp(TimeUnit.SECOND), [null, -1000, 5000]), // JS takes ms
    col('t32', new TimeSecond(), [0, null, 86399]),
    col('t64', new TimeNanosecond(), [0n, null, 86399999999999n]),
    col('dur', new DurationMillisecond(), [-1n, null, 5n]),
    col('fsb', new FixedSizeBinary(3), [new Uint8Array([1, 2, 3]), null, new Uint8Array([4, 5, 6])]),
    col('nothing', new Null(), [null, null, null]),
    { name: 'dec', type: decimal, nullable: true, values: [null, null, null],
      data: makeData({ type: decimal, length: 3, nullCount: 1,
        nullBitmap: new Uint8Array([0b101]),
        data: new Uint32Array([12345, 0, 0, 0, 0, 0, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF]) }) },
  ];
}

// ----- Tests -----

/** Export name -> signature ("(i32) -> i32") as wabt's wasm-objdump -x prints them. */
function objdumpExports(path) {
  const r = spawnSync(process.env.HIGGINS_WASM_OBJDUMP, ['-x', path], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.ok(!lines.some((line) => line.startsWith('Import[')), 'wasm-objdump shows an Import section');
  const types = {};
  const sigs = {};
  const exports = {};
  for (const line of lines) {
    let m;
    if ((m = /^ - type\[(\d+)\] (.*)$/.exec(line))) types[m[1]] = m[2];
    else if ((m = /^ - func\[(\d+)\] sig=(\d+)/.exec(line))) sigs[m[1]] = m[2];
    else if ((m = /^ - (func|memory)\[(\d+)\].* -> "(.*)"$/.exec(line))) exports[m[3]] = [m[1], m[2]];
  }
  return Object.fromEntries(Object.entries(exports).map(([name, [kind, index]]) =>
    [name, kind === 'memory' ? 'memory' : types[sigs[index]]]));
}

describe('modules', () => {
  for (const [name, runParams] of [['double', 1], ['sum', 2], ['computed', 1]]) {
    test(`${name}.wasm: wasm-objdump shows no imports and the ABI's exact signatures`,
      { skip: !process.env.HIGGINS_WASM_OBJDUMP && 'HIGGINS_WASM_OBJDUMP is not set' }, () => {
        assert.deepEqual(objdumpExports(join(UDF_DIR, `${name}.wasm`)), {
          memory: 'memory',
          _malloc: '(i32) -> i32',
          run: runParams === 1 ? '(i32) -> i32' : '(i32, i32) -> i32',
          get_errors: '() -> i32',
          _reset: '() -> nil',
        });
      });

    test(`${name}.wasm imports nothing and exports the ABI`, () => {
      const { module, exports } = load(name);
      assert.deepEqual(WebAssembly.Module.imports(module), []);
      const kinds = Object.fromEntries(
        WebAssembly.Module.exports(module).map((e) => [e.name, e.kind]));
      assert.deepEqual(kinds, {
        memory: 'memory', _malloc: 'function', run: 'function', get_errors: 'function',
        _reset: 'function',
      });
      assert.equal(exports._malloc.length, 1);
      assert.equal(exports.run.length, runParams);
      assert.equal(exports.get_errors.length, 0);
      assert.equal(exports._reset.length, 0);
      assert.equal(exports.get_errors(), 0, 'no error before any call');
    });
  }
});

describe('double (map)', () => {
  const { exports } = load('double');
  const ids = ['1', '2', '3'];

  for (const [type, input, doubled] of [
    [new Int32(), [1, 2, 3], [2, 4, 6]],
    [new Int64(), [1n, 2n, 3n], [2n, 4n, 6n]],
    [new Float64(), [1, 2, 3.25], [2, 4, 6.5]],
  ]) {
    test(`doubles ${type} data 1,2,3 and keeps the ids`, () => {
      const columns = [col('id', new Utf8(), ids), col('data', type, input)];
      const { table } = call(exports, [ipc(columns)]);
      expectSchema(table, columns);
      assert.deepEqual(values(table, 'id'), ids);
      assert.deepEqual(values(table, 'data'), doubled);
    });
  }

  test('the seed example: {"id":"1","data":1} -> {"id":"1","data":2}', () => {
    const { table } = call(exports, [ipc([col('id', new Utf8(), ['1']), col('data', new Int32(), [1])])]);
    assert.deepEqual(table.toArray().map((row) => row.toJSON()), [{ id: '1', data: 2 }]);
  });

  test('null data stays null, null ids stay null', () => {
    const columns = [col('id', new Utf8(), ['a', null, 'c', 'd']),
      col('data', new Int32(), [1, null, 3, null])];
    const { table } = call(exports, [ipc(columns)]);
    assert.deepEqual(values(table, 'id'), ['a', null, 'c', 'd']);
    assert.deepEqual(values(table, 'data'), [2, null, 6, null]);
    assert.equal(table.getChild('data').nullCount, 2);
  });

  test('non-nullable fields stay non-nullable, and the column order is kept', () => {
    const columns = [col('data', new Int64(), [5n, -7n], false), col('key', new Utf8(), ['k', 'l'], false)];
    const { table } = call(exports, [ipc(columns)]);
    expectSchema(table, columns);
    assert.deepEqual(values(table, 'data'), [10n, -14n]);
    assert.deepEqual(values(table, 'key'), ['k', 'l']);
  });

  test('10,000 rows', () => {
    const n = 10000;
    const idValues = Array.from({ length: n }, (_, i) => (i % 97 === 0 ? null : `id-${i}`));
    const dataValues = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : i - 5000));
    const { table } = call(exports, [ipc([col('id', new Utf8(), idValues),
      col('data', new Int32(), dataValues)])]);
    assert.equal(table.numRows, n);
    assert.deepEqual(values(table, 'id'), idValues);
    assert.deepEqual(values(table, 'data'), dataValues.map((v) => (v === null ? null : 2 * v)));
  });

  test('memory stays the same over many batches when the host calls _reset', () => {
    const input = ipc([col('id', new Utf8(), Array.from({ length: 5000 }, (_, i) => `k${i}`)),
      col('data', new Float64(), Array.from({ length: 5000 }, (_, i) => i / 4))]);
    call(exports, [input]);
    const size = exports.memory.buffer.byteLength;
    for (let i = 0; i < 50; ++i) call(exports, [input]);
    assert.equal(exports.memory.buffer.byteLength, size);
  });

  test('0 rows', () => {
    const columns = [col('id', new Utf8(), []), col('data', new Int64(), [])];
    const { table } = call(exports, [ipc(columns)]);
    expectSchema(table, columns);
    assert.equal(table.numRows, 0);
  });

  test('a schema-only input (no record batch) reads as 0 rows', () => {
    const schema = new Schema([new Field('id', new Utf8(), true), new Field('data', new Int32(), true)]);
    const writer = new RecordBatchStreamWriter();
    writer.reset(undefined, schema);
    writer.finish();
    const { table } = call(exports, [writer.toUint8Array(true)]);
    assert.equal(table.numRows, 0);
    assert.deepEqual(describeSchema(table.schema), ['id:Utf8?', 'data:Int32?']);
  });

  test('utf8 with multibyte text is copied unchanged', () => {
    const text = ['é', '日本語のテキスト', '🚀 emoji 👩‍👩‍👧', '', null, 'Ω≈ç√∫', 'plain ascii'];
    const { table } = call(exports, [ipc([col('name', new Utf8(), text),
      col('data', new Int32(), text.map((_, i) => i))])]);
    assert.deepEqual(values(table, 'name'), text);
  });

  test('every supported type of the other columns is copied unchanged', () => {
    const columns = [...allTypes(), col('data', new Int32(), [1, 2, 3])];
    const input = ipc(columns);
    const { table } = call(exports, [input]);
    const expected = tableFromIPC(input);
    expectSchema(table, columns);
    for (const c of columns) {
      if (c.name === 'data') continue;
      assert.deepEqual(values(table, c.name), values(expected, c.name), c.name);
    }
    assert.deepEqual(values(table, 'data'), [2, 4, 6]);
    assert.deepEqual(values(table, 'dec').map((v) => (v === null ? null : v.toString())),
      ['12345', null, '-1']);
  });

  test('an input without `data` fails with a clear message', () => {
    const { error } = call(exports, [ipc([col('id', new Utf8(), ['1']), col('value', new Int32(), [1])])]);
    assert.equal(error, "the input has no column 'data' (its columns: id, value)");
  });

  test('a `data` of another type fails naming the type', () => {
    const { error } = call(exports, [ipc([col('data', new Utf8(), ['x'])])]);
    assert.equal(error, "double: column 'data' has type utf8; it must be int32, int64 or float64");
  });

  test('an int32 overflow fails naming the row', () => {
    const { error } = call(exports, [ipc([col('data', new Int32(), [1, 2 ** 30, 5])])]);
    assert.equal(error, 'double: row 1: 1073741824 * 2 overflows int32');
  });

  test('an unsupported input type fails naming the column and type', () => {
    const { error } = call(exports, [ipc([col('span', new IntervalDayTime(), [null]),
      col('data', new Int32(), [1])])]);
    assert.match(error, /^column 'span' has Arrow type interval, which the Higgins UDF SDK does not support/);
    const list = call(exports, [ipc([col('tags', new List(new Field('item', new Int32())), [[1, 2]]),
      col('data', new Int32(), [1])])]);
    assert.match(list.error, /^column 'tags' has Arrow type list, which/);
  });

  test('a compressed input fails: the ABI sends uncompressed IPC', () => {
    compressionRegistry.set(CompressionType.LZ4_FRAME, {
      encode: (data) => Uint8Array.from(lz4.compress(data)),
      decode: (data) => Uint8Array.from(lz4.decompress(data)),
    });
    const input = ipc([col('data', new Int32(), [1, 2, 3])], { compression: CompressionType.LZ4_FRAME });
    const { error } = call(exports, [input]);
    assert.equal(error, "the input's record batch is compressed; UDF inputs must be uncompressed");
  });

  test('malformed input fails without trapping', () => {
    const good = ipc([col('data', new Int32(), [1, 2, 3])]);
    for (const bytes of [new Uint8Array(0), good.slice(0, 20), good.slice(0, good.length - 30),
      Uint8Array.from(good, (b, i) => (i >= 8 && i < 40 ? 0xAB : b))]) {
      const { error } = call(exports, [bytes]);
      assert.match(error, /not a valid Arrow IPC stream|no schema/);
    }
  });

  test('2,000 randomly corrupted inputs fail cleanly or succeed, never trap', () => {
    const good = ipc([col('id', new Utf8(), ['a', null, 'ccc', 'dd']),
      col('data', new Int64(), [1n, 2n, null, 4n]), col('flag', new Bool(), [true, false, null, true])]);
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let failures = 0;
    for (let i = 0; i < 2000; ++i) {
      const bytes = good.slice();
      for (let k = 1 + Math.floor(random() * 4); k > 0; --k) {
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      }
      const result = call(exports, [bytes.subarray(0, random() < 0.1 ? Math.floor(random() * bytes.length) : bytes.length)]);
      if (result.error !== undefined) {
        assert.equal(typeof result.error, 'string');
        failures += 1;
      }
    }
    assert.ok(failures > 0);
  });

  test('a success after a failure reports no error, and _reset is optional', () => {
    assert.ok(call(exports, [ipc([col('x', new Int32(), [1])])]).error);
    const { table } = call(exports, [ipc([col('data', new Int32(), [21])])], { reset: false });
    assert.deepEqual(values(table, 'data'), [42]);
    assert.equal(exports.get_errors(), 0);
  });
});

describe('sum (reduce)', () => {
  const { exports } = load('sum');
  const batch = (ids, data, type = new Int32()) => ipc([col('id', new Utf8(), ids), col('data', type, data)]);

  test('run(prev = 10,20,30, cur = 1,2,3) gives 11,22,33 with prev\'s ids', () => {
    const { table } = call(exports, [batch(['a', 'b', 'c'], [10, 20, 30]), batch(['a', 'b', 'c'], [1, 2, 3])]);
    assert.deepEqual(describeSchema(table.schema), ['id:Utf8?', 'data:Int32?']);
    assert.deepEqual(values(table, 'id'), ['a', 'b', 'c']);
    assert.deepEqual(values(table, 'data'), [11, 22, 33]);
  });

  test('base 1, 2, 3 gives the running sum 1, 3, 6 (offset 0 is the broker\'s)', () => {
    const base = [1, 2, 3];
    const derived = [base[0]];
    for (let o = 1; o < base.length; ++o) {
      const { table } = call(exports, [batch(['k'], [derived[o - 1]]), batch(['k'], [base[o]])]);
      derived.push(values(table, 'data')[0]);
    }
    assert.deepEqual(derived, [1, 3, 6]);
  });

  test('int64 and float64 sums', () => {
    let { table } = call(exports, [batch(['a'], [2n ** 40n], new Int64()), batch(['a'], [5n], new Int64())]);
    assert.deepEqual(values(table, 'data'), [2n ** 40n + 5n]);
    ({ table } = call(exports, [batch(['a', 'b'], [0.5, 1], new Float64()), batch(['a', 'b'], [0.25, -3], new Float64())]));
    assert.deepEqual(values(table, 'data'), [0.75, -2]);
  });

  test('nulls are skipped: null + x = x, null + null = null', () => {
    const { table } = call(exports, [batch(['a', 'b', 'c', 'd'], [null, 5, null, 1]),
      batch(['a', 'b', 'c', 'd'], [7, null, null, 1])]);
    assert.deepEqual(values(table, 'data'), [7, 5, null, 2]);
  });

  test('inputs of different lengths fail', () => {
    const { error } = call(exports, [batch(['a', 'b'], [1, 2]), batch(['a'], [1])]);
    assert.equal(error, 'reduce inputs differ in length: prev has 2 rows and cur 1');
  });

  test('a cur without `data` fails', () => {
    const { error } = call(exports, [batch(['a'], [1]), ipc([col('id', new Utf8(), ['a'])])]);
    assert.equal(error, "the input has no column 'data' (its columns: id)");
  });

  test('a malformed prev says which input it is', () => {
    const { error } = call(exports, [new Uint8Array(3), batch(['a'], [1])]);
    assert.match(error, /^reduce input prev: the input is not a valid Arrow IPC stream/);
  });

  test('an overflowing sum fails', () => {
    const { error } = call(exports, [batch(['a'], [2 ** 31 - 1]), batch(['a'], [1])]);
    assert.equal(error, 'sum: row 0: the sum overflows int32');
  });
});

describe('computed (map adding a column)', () => {
  const { exports } = load('computed');

  test('adds data_squared (float64, nullable) after the input columns', () => {
    const columns = [col('id', new Utf8(), ['a', 'b', 'c', 'd'], false), col('data', new Int32(), [1, -2, null, 46341])];
    const { table } = call(exports, [ipc(columns)]);
    assert.deepEqual(describeSchema(table.schema), ['id:Utf8', 'data:Int32?', 'data_squared:Float64?']);
    assert.deepEqual(values(table, 'id'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(values(table, 'data'), [1, -2, null, 46341]);
    assert.deepEqual(values(table, 'data_squared'), [1, 4, null, 46341 * 46341]);
  });

  test('int64 and float64 data', () => {
    let { table } = call(exports, [ipc([col('data', new Int64(), [3n, 1n << 26n])])]);
    assert.deepEqual(values(table, 'data_squared'), [9, 2 ** 52]);
    ({ table } = call(exports, [ipc([col('data', new Float64(), [1.5, -0.5])])]));
    assert.deepEqual(values(table, 'data_squared'), [2.25, 0.25]);
  });

  test('0 rows and 10,000 rows', () => {
    let { table } = call(exports, [ipc([col('data', new Int32(), [])])]);
    assert.deepEqual(describeSchema(table.schema), ['data:Int32?', 'data_squared:Float64?']);
    assert.equal(table.numRows, 0);
    const data = Array.from({ length: 10000 }, (_, i) => i);
    ({ table } = call(exports, [ipc([col('data', new Int32(), data)])]));
    assert.deepEqual(values(table, 'data_squared'), data.map((v) => v * v));
  });

  test('a non-numeric data fails', () => {
    const { error } = call(exports, [ipc([col('data', new Bool(), [true])])]);
    assert.equal(error, "computed: column 'data' has type bool; it must be an integer or floating-point type");
  });
});

describe('the SDK API (sdk/test/probe.c)', { skip: !process.env.HIGGINS_SDK_PROBE && 'HIGGINS_SDK_PROBE is not set' }, () => {
  const exports = process.env.HIGGINS_SDK_PROBE && new WebAssembly.Instance(
    new WebAssembly.Module(readFileSync(process.env.HIGGINS_SDK_PROBE)), {}).exports;
  const probe = (which, columns = [], rows = 1) => call(exports, [ipc([
    col('case', new Utf8(), Array.from({ length: rows }, () => which)), ...columns])]);

  test('every type written again through the setters and appenders reads back the same', () => {
    const input = ipc([col('case', new Utf8(), ['rebuild', 'x', null]), ...allTypes()]);
    const { table } = call(exports, [input]);
    const expected = tableFromIPC(input);
    assert.deepEqual(describeSchema(table.schema), describeSchema(expected.schema));
    for (const field of expected.schema.fields) {
      assert.deepEqual(values(table, field.name), values(expected, field.name), field.name);
    }
  });

  test('the parametric types are written with their parameters', () => {
    const { table } = probe('parametric', [], 3);
    assert.deepEqual(describeSchema(table.schema), ['ts:Timestamp<MICROSECOND, UTC>',
      't32:Time32<SECOND>?', 't64:Time64<NANOSECOND>?', 'dur:Duration<SECOND>?',
      'fsb:FixedSizeBinary[4]?', 'dec:Decimal[5e+2]?', 'nothing:Null?', 'flag:Bool',
      'text:LargeUtf8?']);
    const ts = table.getChild('ts').data[0].values; // the raw int64 microseconds
    assert.deepEqual(Array.from(ts), [1700000000000000n, 1700000000000001n, 1700000000000002n]);
    assert.deepEqual(values(table, 't32'), [3600, 3601, 3602]);
    assert.deepEqual(values(table, 't64'), [0n, 1000000000n, 2000000000n]);
    assert.deepEqual(values(table, 'dur'), [0n, -1n, -2n]);
    assert.deepEqual(values(table, 'fsb').map((v) => Buffer.from(v).toString()), ['abcd', 'abcd', 'abcd']);
    assert.deepEqual(values(table, 'dec').map((v) => (v === null ? null : v.toString())), [null, '12346', '12347']);
    assert.deepEqual(values(table, 'nothing'), [null, null, null]);
    assert.deepEqual(values(table, 'flag'), [true, false, true]);
    assert.deepEqual(values(table, 'text'), ['Zürich', '', '']);
  });

  test('the raw-array loop of the README doubles and keeps nulls', () => {
    const data = Array.from({ length: 1000 }, (_, i) => (i % 7 === 3 ? null : i - 500));
    const { table } = call(exports, [ipc([col('case', new Utf8(), data.map(() => 'raw_double')),
      col('data', new Int32(), data)])]);
    assert.deepEqual(values(table, 'data'), data.map((v) => (v === null ? null : 2 * v)));
  });

  test('a column copied under another name', () => {
    const { table } = probe('rename');
    assert.deepEqual(describeSchema(table.schema), ['kind:Utf8?']);
    assert.deepEqual(values(table, 'kind'), ['rename']);
  });

  for (const [which, message] of [
    ['set_wrong_type', "misuse: hg_set_i32 on column 'x' of type int64 with 1 rows, row 0"],
    ['row_out_of_range', "misuse: hg_set_i32 on column 'x' of type int32 with 1 rows, row 1"],
    ['null_in_non_nullable', "misuse: hg_set_null (the column is not nullable) on column 'x' of type float64 with 1 rows, row 0"],
    ['write_copy', "misuse: hg_append on column 'case' of type utf8 with 1 rows, row 1 (a copied column cannot be written)"],
    ['bad_type', "cannot add column 'x': fixed_size_binary needs a byte width of 1 or more (hg_builder_add_fixed_size_binary)"],
    ['silent_failure', 'the map function returned 7 without recording a message (call hg_fail)'],
  ]) {
    test(`${which} fails with a message naming it`, () => {
      assert.equal(probe(which).error, message);
    });
  }

  test('a var-length column with rows missing fails', () => {
    assert.equal(probe('missing_rows', [], 3).error,
      "column 's' has 1 rows appended; the result has 3");
  });

  test('a long message is cut at 4 KiB on a character boundary', () => {
    const { error } = probe('long_error');
    assert.ok(Buffer.byteLength(error) <= 4096, `${Buffer.byteLength(error)} bytes`);
    assert.match(error, /^(é)+\.\.\. \(truncated\)$/);
  });

  test('running out of memory is reported', () => {
    assert.match(probe('out_of_memory').error,
      /^out of memory: cannot allocate 4294901760 bytes \(linear memory is \d+ bytes and cannot grow further\)$/);
  });
});
