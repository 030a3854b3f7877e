#include "arrow/ipc/writer.h"

#include <utility>

#include "arrow/ipc/framing.h"
#include "arrow/ipc/message_writer.h"
#include "arrow/ipc/metadata.h"
#include "common/bit_util.h"

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

Status CheckWritable(const Status& schema_status, bool finished) {
  if (!schema_status.ok()) return schema_status;
  if (finished) return Status::InvalidArgument("the IPC writer is already finished");
  return Status::OK();
}

Buffer TakeFrom(BufferBuilder& out, size_t& taken) {
  taken += out.size();
  return out.Finish();
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// StreamWriter

StreamWriter::StreamWriter(SchemaPtr schema, WriteOptions options)
    : schema_(std::move(schema)),
      options_(options),
      serializer_(std::make_unique<RecordBatchSerializer>(options)) {
  schema_status_ = AppendSchemaMessage(*schema_, options_.limits, out_).status();
}

StreamWriter::StreamWriter(StreamWriter&&) noexcept = default;
StreamWriter& StreamWriter::operator=(StreamWriter&&) noexcept = default;
StreamWriter::~StreamWriter() = default;

Status StreamWriter::WriteBatch(const RecordBatch& batch) {
  HIGGINS_RETURN_IF_ERROR(CheckWritable(schema_status_, finished_));
  HIGGINS_RETURN_IF_ERROR(CheckBatchSchema(*schema_, batch));
  auto extent = serializer_->Append(batch, out_);
  return extent.ok() ? Status::OK() : extent.status();
}

Result<Buffer> StreamWriter::Finish() {
  HIGGINS_RETURN_IF_ERROR(CheckWritable(schema_status_, finished_));
  out_.Append(kEndOfStream, sizeof(kEndOfStream));
  finished_ = true;
  return TakeFrom(out_, taken_);
}

Buffer StreamWriter::TakeBytes() {
  return TakeFrom(out_, taken_);
}

// ------------------------------------------------------------------------------------------------
// FileWriter

FileWriter::FileWriter(SchemaPtr schema, WriteOptions options)
    : schema_(std::move(schema)),
      options_(options),
      serializer_(std::make_unique<RecordBatchSerializer>(options)) {
  out_.Append(kFileMagic.data(), kFileMagic.size());
  out_.AppendZeros(static_cast<size_t>(kFileHeaderSize) - kFileMagic.size());
  schema_status_ = AppendSchemaMessage(*schema_, options_.limits, out_).status();
  if (!schema_status_.ok()) out_.Clear();
}

FileWriter::FileWriter(FileWriter&&) noexcept = default;
FileWriter& FileWriter::operator=(FileWriter&&) noexcept = default;
FileWriter::~FileWriter() = default;

Status FileWriter::WriteBatch(const RecordBatch& batch) {
  HIGGINS_RETURN_IF_ERROR(CheckWritable(schema_status_, finished_));
  HIGGINS_RETURN_IF_ERROR(CheckBatchSchema(*schema_, batch));
  const auto offset = static_cast<int64_t>(size());
  HIGGINS_ASSIGN_OR_RETURN(MessageExtent extent, serializer_->Append(batch, out_));
  blocks_.push_back({offset, extent.metadata_length, extent.body_length});
  return Status::OK();
}

Result<Buffer> FileWriter::Finish() {
  HIGGINS_RETURN_IF_ERROR(CheckWritable(schema_status_, finished_));
  std::vector<FileBlock> blocks;
  blocks.reserve(blocks_.size());
  for (const Block& b : blocks_) blocks.push_back({b.offset, b.metadata_length, b.body_length});
  const std::vector<uint8_t> footer = EncodeFooter(*schema_, blocks);
  HIGGINS_RETURN_IF_ERROR(
      CheckMetadataSize(static_cast<int64_t>(footer.size()), options_.limits, "file footer"));
  out_.Append(kEndOfStream, sizeof(kEndOfStream));
  out_.Append(footer.data(), footer.size());
  uint8_t length[4];
  bit_util::StoreLE<int32_t>(length, static_cast<int32_t>(footer.size()));
  out_.Append(length, sizeof(length));
  out_.Append(kFileMagic.data(), kFileMagic.size());
  finished_ = true;
  return TakeFrom(out_, taken_);
}

Buffer FileWriter::TakeBytes() {
  return TakeFrom(out_, taken_);
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
