#include "arrow/ipc/dictionary_test_writer.h"

#include <cstdlib>
#include <utility>

#include "arrow/ipc/framing.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc::testing {
namespace {

template <typename T>
T OrAbort(Result<T> result) {
  if (!result.ok()) std::abort();
  return std::move(result).value();
}

}  // namespace

DictionaryIpcWriter::DictionaryIpcWriter(SchemaPtr schema, std::vector<DictionaryField> fields,
                                         Format format)
    : schema_(std::move(schema)), fields_(std::move(fields)), format_(format) {
  if (format_ == Format::kFile) {
    out_.Append(kFileMagic.data(), kFileMagic.size());
    out_.AppendValue<uint16_t>(0);
  }
  AppendMessageMetadata(EncodeSchemaMessage(*schema_, fields_), out_);
}

Buffer DictionaryIpcWriter::SerializeBatch(const std::vector<Array>& columns,
                                           const std::vector<Field>& fields) {
  const int64_t rows = columns.empty() ? 0 : columns[0].length();
  const RecordBatch batch = OrAbort(RecordBatch::Make(MakeSchema(fields), rows, columns));
  BufferBuilder message;
  OrAbort(serializer_.Append(batch, message));
  return message.Finish();
}

void DictionaryIpcWriter::WriteDictionary(int64_t id, const Array& values, bool is_delta) {
  // Serialise the values as a one-column record batch, then re-wrap its header and body.
  const Buffer batch = SerializeBatch({values}, {Field("values", values.type())});
  const auto metadata_size = static_cast<size_t>(bit_util::LoadLE<int32_t>(batch.data() + 4));
  const Buffer metadata = Buffer::Copy(batch.span().subspan(kMessagePrefixSize, metadata_size));
  const MessageMetadata message = OrAbort(DecodeMessage(metadata.span(), IpcLimits{}));
  const auto body = batch.span().subspan(kMessagePrefixSize + metadata_size);

  const auto offset = static_cast<int64_t>(out_.size());
  const int32_t metadata_length = AppendMessageMetadata(
      EncodeDictionaryBatchMessage(id, is_delta, message.batch, message.body_length), out_);
  out_.Append(body);
  dictionary_blocks_.push_back({offset, metadata_length, message.body_length});
}

void DictionaryIpcWriter::WriteBatch(const std::vector<Array>& columns) {
  std::vector<Field> wire = schema_->fields();
  for (const DictionaryField& f : fields_) wire[f.field_index].type = f.index_type;
  const Buffer message = SerializeBatch(columns, wire);
  const auto offset = static_cast<int64_t>(out_.size());
  const auto metadata_size = bit_util::LoadLE<int32_t>(message.data() + 4);
  const auto metadata_length = static_cast<int32_t>(kMessagePrefixSize + metadata_size);
  out_.Append(message.span());
  batch_blocks_.push_back(
      {offset, metadata_length, static_cast<int64_t>(message.size()) - metadata_length});
}

Buffer DictionaryIpcWriter::Finish() {
  out_.Append(kEndOfStream, sizeof(kEndOfStream));
  if (format_ == Format::kFile) {
    const std::vector<uint8_t> footer =
        EncodeFooter(*schema_, batch_blocks_, dictionary_blocks_, fields_);
    out_.Append(footer.data(), footer.size());
    out_.AppendValue<int32_t>(static_cast<int32_t>(footer.size()));
    out_.Append(kFileMagic.data(), kFileMagic.size());
  }
  return out_.Finish();
}

}  // namespace higgins::arrow::ipc::testing
