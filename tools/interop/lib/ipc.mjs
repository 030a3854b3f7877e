// IPC reading and writing with apache-arrow, plus the body compression codecs it needs.
import lz4 from 'lz4js';
import * as fzstd from 'fzstd';
import {
  RecordBatchReader, RecordBatchStreamWriter, RecordBatchFileWriter, CompressionType,
  compressionRegistry,
} from 'apache-arrow';

// apache-arrow ships no codecs: LZ4 frames both ways (lz4js), ZSTD decode only (fzstd).
compressionRegistry.set(CompressionType.LZ4_FRAME, {
  encode: (data) => Uint8Array.from(lz4.compress(data)),
  decode: (data) => Uint8Array.from(lz4.decompress(data)),
});
// fzstd may return a view at an unaligned offset, and apache-arrow builds BigInt64Array views
// (large offsets, 64-bit values) straight on top of the codec's output: copy it to offset 0.
compressionRegistry.set(CompressionType.ZSTD, { decode: (data) => fzstd.decompress(data).slice() });

export const COMPRESSIONS = { none: null, lz4: CompressionType.LZ4_FRAME };

/** IPC bytes ('stream' or 'file') of a schema and its batches; compression 'none' or 'lz4'. */
export function writeIpc(schema, batches, format, compression = 'none') {
  if (!(compression in COMPRESSIONS)) throw new Error(`JS cannot write compression '${compression}'`);
  const Writer = { stream: RecordBatchStreamWriter, file: RecordBatchFileWriter }[format];
  if (!Writer) throw new Error(`unknown format '${format}'`);
  const writer = new Writer({ compressionType: COMPRESSIONS[compression] });
  writer.reset(undefined, schema);
  for (const batch of batches) writer.write(batch);
  writer.finish();
  return writer.toUint8Array(true);
}

/** Decodes a stream or a file (auto-detected) into its schema and every batch, in order. */
export function readIpc(bytes) {
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  const { schema } = reader;  // read before iterating: the reader closes itself at the end
  // apache-arrow 21 yields a placeholder 0-row batch for a stream or file that has none; it
  // is not in the data, so drop it.
  const batches = [...reader].filter((b) => b.constructor.name !== '_InternalEmptyPlaceholderRecordBatch');
  return { schema, batches };
}
