#!/usr/bin/env node
// node read.mjs FILE: prints the canonical lines (docs/conformance.md) of an Arrow IPC stream or
// file decoded by apache-arrow.
import { readFileSync } from 'node:fs';
import { readIpc } from './lib/ipc.mjs';
import { renderDecoded } from './lib/canonical.mjs';

if (process.argv.length !== 3) {
  console.error('usage: node read.mjs FILE');
  process.exit(2);
}
const { schema, batches } = readIpc(readFileSync(process.argv[2]));
for (const line of renderDecoded(schema, batches)) console.log(line);
