#include "arrow/ipc/metadata.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "arrow/ipc/schema_metadata_internal.h"

namespace higgins::arrow::ipc {
namespace {

// FlatBuffers' verifier checks only 4-byte alignment of struct vectors, and other writers place
// 8-byte-aligned structs (Block, FieldNode, Buffer) at 4-byte boundaries. Copy each element out
// instead of dereferencing a possibly misaligned pointer.
template <typename Struct>
Struct LoadStruct(const uint8_t* vector_data, uint32_t index) {
  Struct value;
  std::memcpy(static_cast<void*>(&value), vector_data + size_t{index} * sizeof(Struct),
              sizeof(Struct));
  return value;
}

namespace fb = ::flatbuffers;

// Arrow C++'s verifier settings for untrusted metadata.
constexpr fb::uoffset_t kMaxVerifierDepth = 128;
constexpr int64_t kMaxTablesPerByte = 8;

std::vector<uint8_t> FinishedBytes(fb::FlatBufferBuilder& fbb) {
  const uint8_t* data = fbb.GetBufferPointer();
  return std::vector<uint8_t>(data, data + fbb.GetSize());
}

fb::Verifier MakeVerifier(std::span<const uint8_t> bytes) {
  fb::Verifier::Options options;
  options.max_depth = kMaxVerifierDepth;
  options.max_tables = static_cast<fb::uoffset_t>(
      std::min<int64_t>(kMaxTablesPerByte * static_cast<int64_t>(bytes.size()),
                        std::numeric_limits<fb::uoffset_t>::max()));
  return fb::Verifier(bytes.data(), bytes.size(), options);
}

// Size and alignment preconditions shared by the decoders.
Status CheckFlatbufferBytes(std::span<const uint8_t> bytes, const IpcLimits& limits,
                            const char* what) {
  if (bytes.size() > static_cast<size_t>(limits.max_metadata_bytes)) {
    return Status::ResourceExhausted(std::string(what) + " of " + std::to_string(bytes.size()) +
                                     " bytes exceeds the limit of " +
                                     std::to_string(limits.max_metadata_bytes));
  }
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return Status::ResourceExhausted(std::string(what) + " is too large for FlatBuffers");
  }
  if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(int64_t) != 0) {
    return Status::Internal(std::string(what) + " bytes are not 8-byte aligned");
  }
  return Status::OK();
}

Status CheckVersion(fbs::MetadataVersion version) {
  if (version == fbs::MetadataVersion_V4 || version == fbs::MetadataVersion_V5) {
    return Status::OK();
  }
  if (version >= fbs::MetadataVersion_MIN && version < fbs::MetadataVersion_V4) {
    return Status::NotSupported("Arrow metadata version V" + std::to_string(version + 1) +
                                " is not supported (V4 and V5 are)");
  }
  return Status::NotSupported("unknown Arrow metadata version " + std::to_string(version));
}

Result<Compression> ParseCompression(const fbs::BodyCompression* compression) {
  if (compression == nullptr) return Compression::kNone;
  if (compression->method() != fbs::BodyCompressionMethod_BUFFER) {
    return Status::NotSupported("body compression method " + std::to_string(compression->method()) +
                                " is not supported");
  }
  switch (compression->codec()) {
    case fbs::CompressionType_LZ4_FRAME: return Compression::kLz4Frame;
    case fbs::CompressionType_ZSTD: return Compression::kZstd;
    default:
      return Status::NotSupported("compression codec " + std::to_string(compression->codec()) +
                                  " is not supported");
  }
}

Result<RecordBatchHeader> ParseRecordBatch(const fbs::RecordBatch& batch) {
  RecordBatchHeader header;
  header.length = batch.length();
  if (const auto* nodes = batch.nodes(); nodes != nullptr) {
    header.nodes.reserve(nodes->size());
    for (uint32_t i = 0; i < nodes->size(); ++i) {
      const auto node = LoadStruct<fbs::FieldNode>(nodes->Data(), i);
      header.nodes.push_back({node.length(), node.null_count()});
    }
  }
  if (const auto* buffers = batch.buffers(); buffers != nullptr) {
    header.buffers.reserve(buffers->size());
    for (uint32_t i = 0; i < buffers->size(); ++i) {
      const auto buffer = LoadStruct<fbs::Buffer>(buffers->Data(), i);
      header.buffers.push_back({buffer.offset(), buffer.length()});
    }
  }
  if (batch.variadicBufferCounts() != nullptr && batch.variadicBufferCounts()->size() != 0) {
    return Status::NotSupported("variadic buffers (view types) are not supported");
  }
  HIGGINS_ASSIGN_OR_RETURN(header.compression, ParseCompression(batch.compression()));
  return header;
}

Status CheckBatchRows(int64_t rows, const IpcLimits& limits, const char* what) {
  if (rows > limits.max_batch_rows) {
    return Status::ResourceExhausted(std::string(what) + " of " + std::to_string(rows) +
                                     " rows exceeds the limit of " +
                                     std::to_string(limits.max_batch_rows));
  }
  return Status::OK();
}

std::vector<FileBlock> ParseBlocks(const fb::Vector<const fbs::Block*>* blocks) {
  std::vector<FileBlock> out;
  if (blocks == nullptr) return out;
  out.reserve(blocks->size());
  for (uint32_t i = 0; i < blocks->size(); ++i) {
    const auto block = LoadStruct<fbs::Block>(blocks->Data(), i);
    out.push_back({block.offset(), block.metaDataLength(), block.bodyLength()});
  }
  return out;
}

fbs::CompressionType ToFbsCodec(Compression compression) {
  return compression == Compression::kZstd ? fbs::CompressionType_ZSTD
                                           : fbs::CompressionType_LZ4_FRAME;
}

}  // namespace

std::vector<uint8_t> EncodeSchemaMessage(const Schema& schema,
                                         std::span<const DictionaryField> dictionary_fields) {
  fb::FlatBufferBuilder fbb(1024);
  const auto header = internal::BuildSchema(fbb, schema, dictionary_fields);
  fbb.Finish(fbs::CreateMessage(fbb, fbs::MetadataVersion_V5, fbs::MessageHeader_Schema,
                                header.Union(), 0));
  return FinishedBytes(fbb);
}

namespace {

fb::Offset<fbs::RecordBatch> BuildRecordBatch(fb::FlatBufferBuilder& fbb,
                                              const RecordBatchHeader& header) {
  fbs::FieldNode* nodes = nullptr;
  const auto node_vector =
      fbb.CreateUninitializedVectorOfStructs<fbs::FieldNode>(header.nodes.size(), &nodes);
  for (size_t i = 0; i < header.nodes.size(); ++i) {
    nodes[i] = fbs::FieldNode(header.nodes[i].length, header.nodes[i].null_count);
  }
  fbs::Buffer* buffers = nullptr;
  const auto buffer_vector =
      fbb.CreateUninitializedVectorOfStructs<fbs::Buffer>(header.buffers.size(), &buffers);
  for (size_t i = 0; i < header.buffers.size(); ++i) {
    buffers[i] = fbs::Buffer(header.buffers[i].offset, header.buffers[i].length);
  }
  fb::Offset<fbs::BodyCompression> compression = 0;
  if (header.compression != Compression::kNone) {
    compression = fbs::CreateBodyCompression(fbb, ToFbsCodec(header.compression),
                                             fbs::BodyCompressionMethod_BUFFER);
  }
  return fbs::CreateRecordBatch(fbb, header.length, node_vector, buffer_vector, compression);
}

}  // namespace

std::vector<uint8_t> EncodeRecordBatchMessage(const RecordBatchHeader& header,
                                              int64_t body_length) {
  fb::FlatBufferBuilder fbb(256 + 16 * (header.nodes.size() + header.buffers.size()));
  const auto batch = BuildRecordBatch(fbb, header);
  fbb.Finish(fbs::CreateMessage(fbb, fbs::MetadataVersion_V5, fbs::MessageHeader_RecordBatch,
                                batch.Union(), body_length));
  return FinishedBytes(fbb);
}

std::vector<uint8_t> EncodeDictionaryBatchMessage(int64_t id, bool is_delta,
                                                  const RecordBatchHeader& header,
                                                  int64_t body_length) {
  fb::FlatBufferBuilder fbb(256 + 16 * (header.nodes.size() + header.buffers.size()));
  const auto data = BuildRecordBatch(fbb, header);
  const auto dictionary = fbs::CreateDictionaryBatch(fbb, id, data, is_delta);
  fbb.Finish(fbs::CreateMessage(fbb, fbs::MetadataVersion_V5, fbs::MessageHeader_DictionaryBatch,
                                dictionary.Union(), body_length));
  return FinishedBytes(fbb);
}

std::vector<uint8_t> EncodeFooter(const Schema& schema, std::span<const FileBlock> record_batches,
                                  std::span<const FileBlock> dictionary_blocks,
                                  std::span<const DictionaryField> dictionary_fields) {
  fb::FlatBufferBuilder fbb(1024 + 24 * (record_batches.size() + dictionary_blocks.size()));
  const auto schema_offset = internal::BuildSchema(fbb, schema, dictionary_fields);
  auto build_blocks = [&](std::span<const FileBlock> in) {
    fbs::Block* blocks = nullptr;
    const auto vector = fbb.CreateUninitializedVectorOfStructs<fbs::Block>(in.size(), &blocks);
    for (size_t i = 0; i < in.size(); ++i) {
      blocks[i] = fbs::Block(in[i].offset, in[i].metadata_length, in[i].body_length);
    }
    return vector;
  };
  const auto dictionaries = build_blocks(dictionary_blocks);
  const auto block_vector = build_blocks(record_batches);
  fbb.Finish(
      fbs::CreateFooter(fbb, fbs::MetadataVersion_V5, schema_offset, dictionaries, block_vector));
  return FinishedBytes(fbb);
}

Result<MessageMetadata> DecodeMessage(std::span<const uint8_t> bytes, const IpcLimits& limits) {
  HIGGINS_RETURN_IF_ERROR(CheckFlatbufferBytes(bytes, limits, "message metadata"));
  fb::Verifier verifier = MakeVerifier(bytes);
  if (!fbs::VerifyMessageBuffer(verifier)) {
    return Status::Corruption("message metadata failed FlatBuffers verification");
  }
  const fbs::Message& message = *fbs::GetMessage(bytes.data());
  HIGGINS_RETURN_IF_ERROR(CheckVersion(message.version()));

  MessageMetadata out;
  out.version = static_cast<int16_t>(message.version());
  out.body_length = message.bodyLength();
  if (out.body_length < 0) {
    return Status::Corruption("negative message body length " + std::to_string(out.body_length));
  }
  if (out.body_length > limits.max_body_bytes) {
    return Status::ResourceExhausted("message body of " + std::to_string(out.body_length) +
                                     " bytes exceeds the limit of " +
                                     std::to_string(limits.max_body_bytes));
  }
  switch (message.header_type()) {
    case fbs::MessageHeader_Schema: {
      const fbs::Schema* schema = message.header_as_Schema();
      if (schema == nullptr) return Status::Corruption("schema message without a schema");
      out.kind = MessageKind::kSchema;
      HIGGINS_ASSIGN_OR_RETURN(out.schema,
                               internal::ParseSchema(*schema, limits, &out.dictionary_fields));
      return out;
    }
    case fbs::MessageHeader_RecordBatch: {
      const fbs::RecordBatch* batch = message.header_as_RecordBatch();
      if (batch == nullptr) return Status::Corruption("record batch message without a header");
      out.kind = MessageKind::kRecordBatch;
      HIGGINS_ASSIGN_OR_RETURN(out.batch, ParseRecordBatch(*batch));
      HIGGINS_RETURN_IF_ERROR(CheckBatchRows(out.batch.length, limits, "record batch"));
      return out;
    }
    case fbs::MessageHeader_DictionaryBatch: {
      const fbs::DictionaryBatch* dictionary = message.header_as_DictionaryBatch();
      if (dictionary == nullptr || dictionary->data() == nullptr) {
        return Status::Corruption("dictionary batch message without its data");
      }
      out.kind = MessageKind::kDictionaryBatch;
      out.dictionary_id = dictionary->id();
      out.is_delta = dictionary->isDelta();
      HIGGINS_ASSIGN_OR_RETURN(out.batch, ParseRecordBatch(*dictionary->data()));
      HIGGINS_RETURN_IF_ERROR(CheckBatchRows(out.batch.length, limits, "dictionary batch"));
      return out;
    }
    case fbs::MessageHeader_Tensor:
    case fbs::MessageHeader_SparseTensor:
      return Status::NotSupported("tensor messages are not supported");
    case fbs::MessageHeader_NONE: return Status::Corruption("message has no header");
    default:
      return Status::NotSupported("unknown message header type " +
                                  std::to_string(message.header_type()));
  }
}

Result<FooterMetadata> DecodeFooter(std::span<const uint8_t> bytes, const IpcLimits& limits) {
  HIGGINS_RETURN_IF_ERROR(CheckFlatbufferBytes(bytes, limits, "file footer"));
  fb::Verifier verifier = MakeVerifier(bytes);
  if (!verifier.VerifyBuffer<fbs::Footer>(nullptr)) {
    return Status::Corruption("file footer failed FlatBuffers verification");
  }
  const fbs::Footer& footer = *fb::GetRoot<fbs::Footer>(bytes.data());
  HIGGINS_RETURN_IF_ERROR(CheckVersion(footer.version()));
  if (footer.schema() == nullptr) return Status::Corruption("file footer has no schema");

  FooterMetadata out;
  out.version = static_cast<int16_t>(footer.version());
  HIGGINS_ASSIGN_OR_RETURN(out.schema,
                           internal::ParseSchema(*footer.schema(), limits, &out.dictionary_fields));
  out.dictionaries = ParseBlocks(footer.dictionaries());
  out.record_batches = ParseBlocks(footer.recordBatches());
  return out;
}

}  // namespace higgins::arrow::ipc
