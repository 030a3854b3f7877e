#include "higgins/arrow/ipc/reader.h"

#include <string>
#include <utility>

#include "arrow/ipc/batch_loader.h"
#include "arrow/ipc/dictionary_memo.h"
#include "arrow/ipc/framing.h"
#include "arrow/ipc/metadata.h"
#include "arrow/ipc/stream_decoder.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

bool HasFileMagic(const Buffer& bytes) {
  return bytes.view().starts_with(kFileMagic);
}

// An 8-byte aligned view of `bytes`: the bytes themselves when aligned, else a copy.
Buffer Aligned(Buffer bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % kIpcAlignment == 0) return bytes;
  return Buffer::Copy(bytes.span());
}

// Where the metadata of an encapsulated message lies in the file.
struct FramedMetadata {
  int64_t prefix_size;  // kMessagePrefixSize, or kLegacyPrefixSize for pre-0.15 framing
  int64_t size;         // the int32 metadata size of the prefix
};

// Reads the prefix of the message at `offset`; the 8 bytes there must lie inside `file`.
Result<FramedMetadata> ReadPrefix(const Buffer& file, int64_t offset) {
  const uint8_t* prefix = file.data() + offset;
  const uint32_t word = bit_util::LoadLE<uint32_t>(prefix);
  FramedMetadata framed{kMessagePrefixSize, bit_util::LoadLE<int32_t>(prefix + 4)};
  if (word != kContinuationMarker) framed = {kLegacyPrefixSize, static_cast<int32_t>(word)};
  if (framed.size <= 0) {
    return Status::Corruption(
        "no message at offset " + std::to_string(offset) + ": its prefix " +
        (framed.prefix_size == kMessagePrefixSize ? "declares metadata size " : "starts with ") +
        std::to_string(framed.size));
  }
  return framed;
}

// Decodes the metadata `framed` describes, at `offset` and wholly inside `file`.
Result<MessageMetadata> DecodeFramed(const Buffer& file, int64_t offset,
                                     const FramedMetadata& framed, const IpcLimits& limits) {
  if (framed.size > limits.max_metadata_bytes) {
    return Status::ResourceExhausted("message metadata of " + std::to_string(framed.size) +
                                     " bytes exceeds the limit of " +
                                     std::to_string(limits.max_metadata_bytes));
  }
  const Buffer metadata = Aligned(file.Slice(static_cast<size_t>(offset + framed.prefix_size),
                                             static_cast<size_t>(framed.size)));
  return DecodeMessage(metadata.span(), limits);
}

// The message of `block` (named `name` in errors: "footer block 3"), of kind `kind`, checked
// against the block: 8-byte aligned, inside the data section (which ends at `footer_start`), and
// spanning exactly metaDataLength bytes of prefix and padded metadata (a metaDataLength that
// disagrees would make the body be read from the wrong place).
Result<MessageMetadata> ReadBlockMessage(const Buffer& file, int64_t footer_start,
                                         const FileBlock& block, const std::string& name,
                                         MessageKind kind, const IpcLimits& limits) {
  const std::string where = name + " (offset " + std::to_string(block.offset) +
                            ", metaDataLength " + std::to_string(block.metadata_length) +
                            ", bodyLength " + std::to_string(block.body_length) + ")";
  if (block.offset % kIpcAlignment != 0 || block.metadata_length % kIpcAlignment != 0) {
    return Status::Corruption(where + " is not 8-byte aligned");
  }
  if (block.offset < kFileHeaderSize || block.metadata_length < kMessagePrefixSize ||
      block.body_length < 0 || block.offset > footer_start ||
      block.metadata_length > footer_start - block.offset ||
      block.body_length > footer_start - block.offset - block.metadata_length) {
    return Status::Corruption(where + " lies outside the file's data section");
  }
  auto prefix = ReadPrefix(file, block.offset);
  if (!prefix.ok()) return prefix.status().WithContext(name);
  const FramedMetadata framed = *prefix;
  const int64_t framed_length = PadToAlignment(framed.prefix_size + framed.size);
  if (framed_length != block.metadata_length) {
    return Status::Corruption(where + " disagrees with its message, whose " +
                              std::to_string(framed.prefix_size) + "-byte prefix and " +
                              std::to_string(framed.size) + " bytes of metadata span " +
                              std::to_string(framed_length) + " bytes");
  }
  auto message = DecodeFramed(file, block.offset, framed, limits);
  if (!message.ok()) return message.status().WithContext(name);
  if (message->kind != kind) {
    return Status::Corruption(
        where + " does not hold a " +
        (kind == MessageKind::kRecordBatch ? "record batch" : "dictionary batch") + " message");
  }
  if (message->body_length != block.body_length) {
    return Status::Corruption(where + " disagrees with its message's bodyLength " +
                              std::to_string(message->body_length));
  }
  return message;
}

// The body of the message `block` locates (checked by ReadBlockMessage).
Buffer BlockBody(const Buffer& file, const FileBlock& block) {
  return file.Slice(static_cast<size_t>(block.offset + block.metadata_length),
                    static_cast<size_t>(block.body_length));
}

// If the data section starts with a schema message, it must match the footer's schema. Files
// without one (apache-arrow JS writes none) and undecodable prefixes are left to the blocks.
Status CheckLeadingSchema(const Buffer& file, int64_t footer_start, const FooterMetadata& footer,
                          const IpcLimits& limits) {
  if (footer_start < kFileHeaderSize + kMessagePrefixSize) return Status::OK();
  auto framed = ReadPrefix(file, kFileHeaderSize);
  if (!framed.ok() || framed->size > footer_start - kFileHeaderSize - framed->prefix_size) {
    return Status::OK();
  }
  auto message = DecodeFramed(file, kFileHeaderSize, *framed, limits);
  if (!message.ok() || message->kind != MessageKind::kSchema) return Status::OK();
  if (!(*message->schema == *footer.schema) ||
      message->dictionary_fields != footer.dictionary_fields) {
    return Status::Corruption("the file's schema message differs from its footer schema");
  }
  return Status::OK();
}

}  // namespace

bool LooksLikeIpc(std::string_view bytes) {
  if (bytes.starts_with(kFileMagic)) return true;
  return bytes.size() >= 4 && bit_util::LoadLE<uint32_t>(bytes.data()) == kContinuationMarker;
}

Result<ReadResult> ReadStream(const Buffer& bytes, const ReadOptions& options) {
  StreamDecoder decoder(options);
  HIGGINS_RETURN_IF_ERROR(decoder.Consume(bytes));
  HIGGINS_RETURN_IF_ERROR(decoder.Close());
  ReadResult result;
  result.schema = decoder.schema();
  while (auto event = decoder.Poll()) {
    if (event->kind == StreamDecoder::EventKind::kRecordBatch) {
      result.batches.push_back(std::move(event->batch));
    }
  }
  return result;
}

Result<ReadResult> ReadFile(const Buffer& bytes, const ReadOptions& options) {
  const auto size = static_cast<int64_t>(bytes.size());
  if (!HasFileMagic(bytes)) {
    return Status::Corruption("not an Arrow IPC file: missing leading \"ARROW1\" magic");
  }
  if (size <= kMinFileSize) {
    return Status::Corruption("truncated Arrow IPC file: " + std::to_string(size) +
                              " bytes, too short for the magics, a footer and its length (" +
                              std::to_string(kMinFileSize + 1) + " bytes at least)");
  }
  if (bytes.view().substr(bytes.size() - kFileMagic.size()) != kFileMagic) {
    return Status::Corruption("Arrow IPC file is missing its trailing \"ARROW1\" magic");
  }
  const int64_t footer_length = bit_util::LoadLE<int32_t>(bytes.data() + size - kFileTrailerSize);
  if (footer_length <= 0 || footer_length > size - kMinFileSize) {
    return Status::Corruption("invalid footer length " + std::to_string(footer_length) +
                              " in a file of " + std::to_string(size) + " bytes");
  }
  const int64_t footer_start = size - kFileTrailerSize - footer_length;
  const Buffer footer_bytes =
      Aligned(bytes.Slice(static_cast<size_t>(footer_start), static_cast<size_t>(footer_length)));
  auto footer = DecodeFooter(footer_bytes.span(), options.limits);
  if (!footer.ok()) return footer.status().WithContext("file footer");
  HIGGINS_RETURN_IF_ERROR(CheckLeadingSchema(bytes, footer_start, *footer, options.limits));

  // Every dictionary first, in footer order (deltas apply in that order): the file format does
  // not require a dictionary to come before the batches that use it.
  DictionaryMemo dictionaries(footer->schema, footer->dictionary_fields);
  for (size_t i = 0; i < footer->dictionaries.size(); ++i) {
    const FileBlock& block = footer->dictionaries[i];
    const std::string name = "footer dictionary block " + std::to_string(i);
    auto message = ReadBlockMessage(bytes, footer_start, block, name, MessageKind::kDictionaryBatch,
                                    options.limits);
    if (!message.ok()) return message.status();
    const Status st = dictionaries.ApplyDictionaryBatch(*message, BlockBody(bytes, block), options,
                                                        /*replacement_allowed=*/false);
    if (!st.ok()) return st.WithContext(name);
  }

  ReadResult result;
  result.schema = footer->schema;
  result.batches.reserve(footer->record_batches.size());
  for (size_t i = 0; i < footer->record_batches.size(); ++i) {
    const FileBlock& block = footer->record_batches[i];
    auto message = ReadBlockMessage(bytes, footer_start, block, "footer block " + std::to_string(i),
                                    MessageKind::kRecordBatch, options.limits);
    if (!message.ok()) return message.status();
    auto batch = dictionaries.DecodeRecordBatch(message->batch, BlockBody(bytes, block), options);
    if (!batch.ok()) return batch.status().WithContext("record batch " + std::to_string(i));
    result.batches.push_back(std::move(batch).value());
  }
  return result;
}

Result<RecordBatch> ReadRecordBatchMessage(const SchemaPtr& schema, const Buffer& message,
                                           const ReadOptions& options) {
  const auto size = static_cast<int64_t>(message.size());
  if (size < kMessagePrefixSize ||
      bit_util::LoadLE<uint32_t>(message.data()) != kContinuationMarker) {
    return Status::Corruption("record batch message of " + std::to_string(size) +
                              " bytes does not start with the continuation marker");
  }
  auto framed = ReadPrefix(message, 0);
  if (!framed.ok()) return framed.status();
  if (framed->size > size - kMessagePrefixSize) {
    return Status::Corruption("record batch message of " + std::to_string(size) +
                              " bytes is cut inside its " + std::to_string(framed->size) +
                              " bytes of metadata");
  }
  HIGGINS_ASSIGN_OR_RETURN(MessageMetadata metadata,
                           DecodeFramed(message, 0, *framed, options.limits));
  if (metadata.kind != MessageKind::kRecordBatch) {
    return Status::Corruption("expected a record batch message, got another kind of message");
  }
  const int64_t body_start = kMessagePrefixSize + framed->size;
  if (metadata.body_length != size - body_start) {
    return Status::Corruption("record batch message of " + std::to_string(size) + " bytes holds " +
                              std::to_string(size - body_start) +
                              " bytes of body but declares bodyLength " +
                              std::to_string(metadata.body_length));
  }
  const Buffer body =
      message.Slice(static_cast<size_t>(body_start), static_cast<size_t>(metadata.body_length));
  return LoadRecordBatch(schema, metadata.batch, body, options);
}

Result<ReadResult> ReadStreamOrFile(const Buffer& bytes, const ReadOptions& options) {
  return HasFileMagic(bytes) ? ReadFile(bytes, options) : ReadStream(bytes, options);
}

}  // namespace higgins::arrow::ipc
