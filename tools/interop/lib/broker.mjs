// A real `higgins` broker for the node tests: native listener on a free port, Kafka listener on
// another, data in a folder of its own; and higgins-cli against it.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

import { join } from 'node:path';

/** A TCP port free on 127.0.0.1 when asked. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts HIGGINS with data in DIR/data; resolves to {port, kafkaPort, httpPort, log, stop()}.
 * `options.http`: also an HTTP listener on a free port; `options.args`: more flags.
 */
export async function startBroker(binary, dir, options = {}) {
  const kafkaPort = await freePort();
  const httpPort = options.http ? await freePort() : 0;
  const child = spawn(binary, ['--port=0', `--kafka-port=${kafkaPort}`, `--http-port=${httpPort}`,
    `--dir=${join(dir, 'data')}`, ...(options.args ?? [])],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const onData = (chunk) => { log += chunk.toString(); };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the broker did not start:\n${log}`)), 20000);
    const poll = setInterval(() => {
      const m = /listening on [^ ]*:(\d+) /.exec(log);
      if (m && log.includes('Kafka listener on') && (!httpPort || log.includes('HTTP listener on'))) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    }, 20);
    child.on('exit', (code) => reject(new Error(`the broker exited ${code}:\n${log}`)));
  });
  return {
    port,
    kafkaPort,
    httpPort,
    log: () => log,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Runs higgins-cli against the broker on `port`; its stdout. Throws on a non-zero exit. */
export function cli(binary, port, args, input) {
  const r = spawnSync(binary, ['--port', String(port), ...args],
    { input, encoding: input instanceof Uint8Array ? undefined : 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    throw new Error(`higgins-cli ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return r.stdout.toString();
}

