// apache-arrow 21.2.0 writes the *compressed* size into the 8-byte "uncompressed length" prefix
// of every buffer it managed to compress (fixed upstream by apache/arrow-js#470). Readers that
// check the prefix, as the Arrow spec allows and Arrow C++, PyArrow and Higgins do, reject such
// bodies. This helper rewrites those prefixes in place of a copy, so the interop test can check
// both that Higgins rejects the faulty bytes and that it decodes the corrected ones.
import lz4 from 'lz4js';
import { Message } from 'apache-arrow';

const CONTINUATION = 0xffffffff;

/** Returns { bytes, repaired }: a corrected copy and the number of prefixes rewritten. */
export function repairLz4Prefixes(input) {
  const bytes = Uint8Array.from(input);
  const view = new DataView(bytes.buffer);
  const isFile = Buffer.from(bytes.subarray(0, 6)).toString('latin1') === 'ARROW1';
  let at = isFile ? 8 : 0;
  let repaired = 0;
  while (at + 8 <= bytes.length && view.getUint32(at, true) === CONTINUATION) {
    const metadataLength = view.getInt32(at + 4, true);
    if (metadataLength === 0) break;  // end-of-stream marker
    const message = Message.decode(bytes.subarray(at + 8, at + 8 + metadataLength));
    const bodyStart = at + 8 + metadataLength;
    if (message.isRecordBatch() && message.header().compression) {
      for (const region of message.header().buffers) {
        const start = bodyStart + Number(region.offset);
        if (Number(region.length) < 8 || view.getBigInt64(start, true) === -1n) continue;
        const frame = bytes.subarray(start + 8, start + Number(region.length));
        view.setBigInt64(start, BigInt(lz4.decompress(frame).length), true);
        ++repaired;
      }
    }
    at = bodyStart + Number(message.bodyLength);
  }
  return { bytes, repaired };
}
