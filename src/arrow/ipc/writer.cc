#include "higgins/arrow/ipc/writer.h"

#include <utility>

#include "arrow/ipc/framing.h"
#include "arrow/ipc/message_writer.h"
#include "arrow/ipc/metadata.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

// Batches must carry the writer's fields (names, types, nullability); schema-level and field
// metadata come from the writer's schema, as in Arrow C++.
Status CheckBatchSchema(const Schema& expected, const RecordBatch& batch) {
  const Schema& actual = *batch.schema();
  if (&actual == &expected) return Status::OK();
  bool same = actual.num_fields() == expected.num_fields();
  for (size_t i = 0; same && i < expected.num_fields(); ++i) {
    const Field& a = actual.field(i);
    const Field& e = expected.field(i);
    same = a.name == e.name && a.type == e.type && a.nullable == e.nullable;
  }
  if (same) return Status::OK();
  return Status::InvalidArgument("record batch schema\n" + actual.ToString() +
                                 "\ndoes not match the writer's schema\n" + expected.ToString());
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// StreamWriter

StreamWriter::StreamWriter(SchemaPtr schema, WriteOptions options)
    : StreamWriter(std::move(schema), options, {}) {}

StreamWriter::StreamWriter(SchemaPtr schema, WriteOptions options,
                           std::span<const uint8_t> prefix)
    : schema_(std::move(schema)),
      options_(options),
      serializer_(std::make_unique<RecordBatchSerializer>(options)) {
  out_.Append(prefix);
  schema_status_ = AppendSchemaMessage(*schema_, options_.limits, out_).status();
  if (!schema_status_.ok()) out_.Clear();
}

StreamWriter::StreamWriter(const EncodedSchema& schema, WriteOptions options)
    : schema_(schema.schema()),
      options_(options),
      serializer_(std::make_unique<RecordBatchSerializer>(options)) {
  out_.Append(schema.message());
}

Result<EncodedSchema> EncodedSchema::Make(SchemaPtr schema, const WriteOptions& options) {
  BufferBuilder out;
  HIGGINS_RETURN_IF_ERROR(AppendSchemaMessage(*schema, options.limits, out).status());
  return EncodedSchema(std::move(schema), out.Finish());
}

StreamWriter::StreamWriter(StreamWriter&&) noexcept = default;
StreamWriter& StreamWriter::operator=(StreamWriter&&) noexcept = default;
StreamWriter::~StreamWriter() = default;

Status StreamWriter::CheckWritable() const {
  HIGGINS_RETURN_IF_ERROR(schema_status_);
  if (finished_) return Status::InvalidArgument("the IPC writer is already finished");
  return Status::OK();
}

Result<MessageExtent> StreamWriter::AppendBatch(const RecordBatch& batch) {
  HIGGINS_RETURN_IF_ERROR(CheckWritable());
  HIGGINS_RETURN_IF_ERROR(CheckBatchSchema(*schema_, batch));
  return serializer_->Append(batch, out_);
}

Status StreamWriter::WriteBatch(const RecordBatch& batch) { return AppendBatch(batch).status(); }

Result<Buffer> StreamWriter::Finish() {
  HIGGINS_RETURN_IF_ERROR(CheckWritable());
  out_.Append(kEndOfStream, sizeof(kEndOfStream));
  finished_ = true;
  return TakeBytes();
}

Buffer StreamWriter::TakeBytes() {
  taken_ += out_.size();
  return out_.Finish();
}

// ------------------------------------------------------------------------------------------------
// FileWriter

namespace {

// "ARROW1" padded with zeros to 8 bytes, so the first message stays 8-byte aligned.
constexpr uint8_t kFileHeader[kFileHeaderSize] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};

}  // namespace

FileWriter::FileWriter(SchemaPtr schema, WriteOptions options)
    : stream_(std::move(schema), options, kFileHeader) {}

FileWriter::FileWriter(FileWriter&&) noexcept = default;
FileWriter& FileWriter::operator=(FileWriter&&) noexcept = default;
FileWriter::~FileWriter() = default;

Status FileWriter::WriteBatch(const RecordBatch& batch) {
  const auto offset = static_cast<int64_t>(stream_.size());
  HIGGINS_ASSIGN_OR_RETURN(MessageExtent extent, stream_.AppendBatch(batch));
  blocks_.push_back({offset, extent.metadata_length, extent.body_length});
  return Status::OK();
}

Result<Buffer> FileWriter::Finish() {
  HIGGINS_RETURN_IF_ERROR(stream_.CheckWritable());
  const std::vector<uint8_t> footer = EncodeFooter(*stream_.schema_, blocks_);
  HIGGINS_RETURN_IF_ERROR(CheckMetadataSize(static_cast<int64_t>(footer.size()),
                                            stream_.options_.limits, "file footer"));
  BufferBuilder& out = stream_.out_;
  out.Append(kEndOfStream, sizeof(kEndOfStream));
  out.Append(footer.data(), footer.size());
  uint8_t length[4];
  bit_util::StoreLE<int32_t>(length, static_cast<int32_t>(footer.size()));
  out.Append(length, sizeof(length));
  out.Append(kFileMagic.data(), kFileMagic.size());
  stream_.finished_ = true;
  return stream_.TakeBytes();
}

// ------------------------------------------------------------------------------------------------
// One-call forms

Result<Buffer> WriteStream(const SchemaPtr& schema, const std::vector<RecordBatch>& batches,
                           const WriteOptions& options) {
  StreamWriter writer(schema, options);
  for (const RecordBatch& batch : batches) HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(batch));
  return writer.Finish();
}

Result<Buffer> WriteFile(const SchemaPtr& schema, const std::vector<RecordBatch>& batches,
                         const WriteOptions& options) {
  FileWriter writer(schema, options);
  for (const RecordBatch& batch : batches) HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(batch));
  return writer.Finish();
}

}  // namespace higgins::arrow::ipc
