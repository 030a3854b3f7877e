// The apache-arrow (JS) <-> Higgins (C++) interop matrix, run by ctest as arrow_js_interop
// (docs/conformance.md). For every dataset case, format and compression, each direction is
// checked against the lines expected from dataset.json itself, so a bug shared by both sides
// cannot hide. HIGGINS_INTEROP_PEER names the C++ peer program (tests/interop/interop_peer.cc).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASET_PATH, loadCases, getCase } from './lib/dataset.mjs';
import { buildSchema, buildBatches } from './lib/build.mjs';
import { readIpc, writeIpc } from './lib/ipc.mjs';
import { expectedLines, renderDecoded } from './lib/canonical.mjs';
import { repairLz4Prefixes } from './lib/lz4_prefix_repair.mjs';

const PEER = process.env.HIGGINS_INTEROP_PEER;
if (!PEER) throw new Error('set HIGGINS_INTEROP_PEER to the interop_peer binary (ctest does)');

const dir = mkdtempSync(join(tmpdir(), 'higgins-interop-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(program, args) {
  const r = spawnSync(program, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${program} ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r.stdout.split('\n').filter((line) => line !== '');
}

const cppRead = (path) => run(PEER, ['read', path]);
const cppWrite = (path, c, format, compression) => run(PEER, [
  'write', path, '--format', format, '--compression', compression, '--case', c.name,
  '--dataset', DATASET_PATH]);
const jsBytes = (c, format, compression) => writeIpc(buildSchema(c), buildBatches(c), format, compression);
const jsWrite = (path, c, format, compression) => writeFileSync(path, jsBytes(c, format, compression));
const jsRead = (path) => {
  const { schema, batches } = readIpc(readFileSync(path));
  return renderDecoded(schema, batches);
};

for (const c of loadCases()) {
  const expected = expectedLines(c);
  describe(c.name, () => {
    for (const format of ['stream', 'file']) {
      test(`JS writes ${format} (none), C++ reads`, () => {
        const path = join(dir, `js-${c.name}.${format}`);
        jsWrite(path, c, format, 'none');
        assert.deepEqual(cppRead(path), expected);
      });
      test(`JS writes ${format} (lz4), C++ reads it once its length prefixes are corrected`, () => {
        const { bytes, repaired } = repairLz4Prefixes(jsBytes(c, format, 'lz4'));
        const path = join(dir, `js-${c.name}-lz4.${format}`);
        writeFileSync(path, bytes);
        assert.deepEqual(cppRead(path), expected);
        if (repaired > 0) {
          const faulty = join(dir, `js-${c.name}-lz4-faulty.${format}`);
          jsWrite(faulty, c, format, 'lz4');
          assert.throws(() => cppRead(faulty), /Corruption: .*(LZ4|lz4|decompress)/,
            'apache-arrow 21.2.0 wrote compressed sizes as uncompressed lengths: Higgins must reject that');
        }
      });
      for (const compression of ['none', 'lz4', 'zstd']) {
        test(`C++ writes ${format} (${compression}), JS reads`, () => {
          const path = join(dir, `cpp-${c.name}-${compression}.${format}`);
          cppWrite(path, c, format, compression);
          assert.deepEqual(jsRead(path), expected);
        });
        test(`C++ writes ${format} (${compression}), C++ reads`, () => {
          const path = join(dir, `cpp-self-${c.name}-${compression}.${format}`);
          cppWrite(path, c, format, compression);
          assert.deepEqual(cppRead(path), expected);
        });
      }
      test(`JS writes ${format}, JS reads (checks the dataset against apache-arrow)`, () => {
        const path = join(dir, `js-self-${c.name}.${format}`);
        jsWrite(path, c, format, 'none');
        assert.deepEqual(jsRead(path), expected);
      });
    }
  });
}

describe('edge cases', () => {
  test('C++ reads a JS stream that ends without the end-of-stream marker', () => {
    const c = getCase('multiple_batches');
    const bytes = writeIpc(buildSchema(c), buildBatches(c), 'stream');
    const eos = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    assert.ok(Buffer.from(bytes.subarray(bytes.length - 8)).equals(eos), 'JS wrote no EOS marker');
    const path = join(dir, 'no-eos.stream');
    writeFileSync(path, bytes.subarray(0, bytes.length - 8));
    assert.deepEqual(cppRead(path), expectedLines(c));
  });

  test('the CLI scripts write.mjs and read.mjs agree with the library', () => {
    const c = getCase('sliced');
    const path = join(dir, 'cli.file');
    run(process.execPath, ['write.mjs', path, '--format', 'file', '--case', c.name]);
    assert.deepEqual(run(process.execPath, ['read.mjs', path]), expectedLines(c));
    assert.deepEqual(cppRead(path), expectedLines(c));
  });

  // apache-arrow 21.2.0 writes null_count -1 for a null-type column it sliced. A null array's
  // null count is its length whatever the node says, and Arrow C++ ignores the node's value.
  test('C++ reads a null-type column that apache-arrow sliced (it writes null_count -1)', () => {
    const c = getCase('sliced');
    const path = join(dir, 'sliced-null.stream');
    writeFileSync(path, writeIpc(buildSchema(c), buildBatches(c, { sliceNullColumns: true }), 'stream'));
    assert.deepEqual(cppRead(path), expectedLines(c));
  });

  test('interop_peer rejects an unknown case with a clear error', () => {
    const r = spawnSync(PEER, ['write', join(dir, 'x'), '--case', 'no_such_case', '--dataset', DATASET_PATH],
      { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no_such_case/);
  });
});
