#!/usr/bin/env node
// node write.mjs OUT --format stream|file [--compression none|lz4] [--case NAME]
// Writes one case of dataset.json (default all_types) with apache-arrow.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getCase } from './lib/dataset.mjs';
import { buildSchema, buildBatches } from './lib/build.mjs';
import { writeIpc } from './lib/ipc.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    format: { type: 'string', default: 'stream' },
    compression: { type: 'string', default: 'none' },
    case: { type: 'string', default: 'all_types' },
  },
});
if (positionals.length !== 1) {
  console.error('usage: node write.mjs OUT --format stream|file [--compression none|lz4] [--case NAME]');
  process.exit(2);
}
const testCase = getCase(values.case);
writeFileSync(positionals[0], writeIpc(buildSchema(testCase), buildBatches(testCase), values.format, values.compression));
