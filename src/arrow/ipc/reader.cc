#include "arrow/ipc/reader.h"

#include <string>
#include <utility>

#include "arrow/ipc/batch_loader.h"
#include "arrow/ipc/framing.h"
#include "arrow/ipc/metadata.h"
#include "arrow/ipc/stream_decoder.h"
#include "common/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

bool HasFileMagic(const Buffer& bytes) {
  return bytes.size() >= kFileMagic.size() &&
         bytes.view().substr(0, kFileMagic.size()) == kFileMagic;
}

// An 8-byte aligned view of `bytes`: the bytes themselves when aligned, else a copy.
Buffer Aligned(Buffer bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % kIpcAlignment == 0) return bytes;
  return Buffer::Copy(bytes.span());
}

// Decodes the encapsulated message whose prefix starts at `offset` and whose prefix, metadata
// and padding span `metadata_length` bytes (both already known to lie inside `file`).
Result<MessageMetadata> ReadMessageMetadata(const Buffer& file, int64_t offset,
                                            int64_t metadata_length, const IpcLimits& limits) {
  if (metadata_length < kMessagePrefixSize) {
    return Status::Corruption("message metadata length " + std::to_string(metadata_length) +
                              " is too short");
  }
  const uint8_t* prefix = file.data() + offset;
  int64_t prefix_size = kMessagePrefixSize;
  int32_t size = bit_util::LoadLE<int32_t>(prefix + 4);
  if (bit_util::LoadLE<uint32_t>(prefix) != kContinuationMarker) {
    prefix_size = kLegacyPrefixSize;
    size = bit_util::LoadLE<int32_t>(prefix);
  }
  if (size <= 0 || size > metadata_length - prefix_size) {
    return Status::Corruption("message at offset " + std::to_string(offset) +
                              " has metadata size " + std::to_string(size) +
                              ", outside its block of " + std::to_string(metadata_length) +
                              " bytes");
  }
  if (size > limits.max_metadata_bytes) {
    return Status::ResourceExhausted("message metadata of " + std::to_string(size) +
                                     " bytes exceeds the limit of " +
                                     std::to_string(limits.max_metadata_bytes));
  }
  const Buffer metadata =
      Aligned(file.Slice(static_cast<size_t>(offset + prefix_size), static_cast<size_t>(size)));
  return DecodeMessage(metadata.span(), limits);
}

Result<RecordBatch> ReadBlock(const Buffer& file, int64_t footer_start, const FileBlock& block,
                              const SchemaPtr& schema, const ReadOptions& options) {
  if (block.offset < kFileHeaderSize || block.metadata_length <= 0 || block.body_length < 0 ||
      block.offset % kIpcAlignment != 0 || block.offset > footer_start ||
      block.metadata_length > footer_start - block.offset ||
      block.body_length > footer_start - block.offset - block.metadata_length) {
    return Status::Corruption("block (offset " + std::to_string(block.offset) + ", metadata " +
                              std::to_string(block.metadata_length) + ", body " +
                              std::to_string(block.body_length) +
                              ") lies outside the file's data section");
  }
  HIGGINS_ASSIGN_OR_RETURN(
      MessageMetadata message,
      ReadMessageMetadata(file, block.offset, block.metadata_length, options.limits));
  if (message.kind != MessageKind::kRecordBatch) {
    return Status::Corruption("block does not hold a record batch message");
  }
  if (message.body_length != block.body_length) {
    return Status::Corruption("message body length " + std::to_string(message.body_length) +
                              " differs from its block's " + std::to_string(block.body_length));
  }
  const Buffer body = file.Slice(static_cast<size_t>(block.offset + block.metadata_length),
                                 static_cast<size_t>(block.body_length));
  return LoadRecordBatch(schema, message.batch, body, options);
}

// If the data section starts with a schema message, it must match the footer's schema. Files
// without one (apache-arrow JS writes none) and undecodable prefixes are left to the blocks.
Status CheckLeadingSchema(const Buffer& file, int64_t footer_start, const Schema& footer_schema,
                          const IpcLimits& limits) {
  if (footer_start < kFileHeaderSize + kMessagePrefixSize) return Status::OK();
  const uint8_t* prefix = file.data() + kFileHeaderSize;
  if (bit_util::LoadLE<uint32_t>(prefix) != kContinuationMarker) return Status::OK();
  const int64_t size = bit_util::LoadLE<int32_t>(prefix + 4);
  if (size <= 0 || size > footer_start - kFileHeaderSize - kMessagePrefixSize) {
    return Status::OK();
  }
  auto message = ReadMessageMetadata(file, kFileHeaderSize, kMessagePrefixSize + size, limits);
  if (!message.ok() || message->kind != MessageKind::kSchema) return Status::OK();
  if (!(*message->schema == footer_schema)) {
    return Status::Corruption("the file's schema message differs from its footer schema");
  }
  return Status::OK();
}

}  // namespace

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
  if (size < kMinFileSize + 1 || !HasFileMagic(bytes)) {
    return Status::Corruption("not an Arrow IPC file: missing leading \"ARROW1\" magic");
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
  HIGGINS_RETURN_IF_ERROR(CheckLeadingSchema(bytes, footer_start, *footer->schema, options.limits));

  ReadResult result;
  result.schema = footer->schema;
  result.batches.reserve(footer->record_batches.size());
  for (size_t i = 0; i < footer->record_batches.size(); ++i) {
    auto batch = ReadBlock(bytes, footer_start, footer->record_batches[i], result.schema, options);
    if (!batch.ok()) return batch.status().WithContext("record batch " + std::to_string(i));
    result.batches.push_back(std::move(batch).value());
  }
  return result;
}

Result<ReadResult> ReadStreamOrFile(const Buffer& bytes, const ReadOptions& options) {
  return HasFileMagic(bytes) ? ReadFile(bytes, options) : ReadStream(bytes, options);
}

}  // namespace higgins::arrow::ipc
