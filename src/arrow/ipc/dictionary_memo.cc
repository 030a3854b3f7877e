#include "arrow/ipc/dictionary_memo.h"

#include <string>
#include <utility>

#include "arrow/ipc/batch_loader.h"
#include "arrow/ipc/dictionary_column.h"

namespace higgins::arrow::ipc {
namespace {

int64_t ArrayBytes(const Array& array) {
  int64_t bytes = 0;
  for (const Buffer& buffer : array.data().buffers) bytes += static_cast<int64_t>(buffer.size());
  return bytes;
}

}  // namespace

DictionaryMemo::DictionaryMemo(SchemaPtr schema, std::vector<DictionaryField> fields)
    : schema_(std::move(schema)), fields_(std::move(fields)) {
  if (fields_.empty()) {
    wire_schema_ = schema_;
    return;
  }
  std::vector<Field> wire = schema_->fields();
  for (const DictionaryField& f : fields_) {
    const Field& field = schema_->field(f.field_index);
    wire[f.field_index].type = f.index_type;
    if (entries_.count(f.id) == 0) {
      entries_[f.id] = Entry{field.name, MakeSchema({Field(field.name, field.type)}), {}, 0};
    }
  }
  wire_schema_ = MakeSchema(std::move(wire), schema_->metadata());
}

Result<Array> DictionaryMemo::LoadValues(const Entry& entry, const MessageMetadata& message,
                                         const Buffer& body, const ReadOptions& options) const {
  const DataType& type = entry.values_schema->field(0).type;
  const RecordBatchHeader& data = message.batch;
  const auto buffers_needed = static_cast<size_t>(type.num_buffers());
  if (data.nodes.size() != 1 || data.buffers.size() != buffers_needed) {
    return Status::Corruption("its data has " + std::to_string(data.nodes.size()) +
                              " field nodes and " + std::to_string(data.buffers.size()) +
                              " buffers, but values of type " + type.ToString() +
                              " need 1 node and " + std::to_string(buffers_needed) +
                              ": it does not hold values of the field's type");
  }
  HIGGINS_ASSIGN_OR_RETURN(RecordBatch values,
                           LoadRecordBatch(entry.values_schema, data, body, options));
  return values.column(0);
}

Status DictionaryMemo::ApplyDictionaryBatch(const MessageMetadata& message, const Buffer& body,
                                            const ReadOptions& options, bool replacement_allowed) {
  const std::string id = std::to_string(message.dictionary_id);
  auto it = entries_.find(message.dictionary_id);
  if (it == entries_.end()) {
    return Status::Corruption("dictionary id " + id + " is not used by any field of the schema");
  }
  Entry& entry = it->second;
  const std::string what = (message.is_delta ? "delta dictionary " : "dictionary ") + id +
                           " (field '" + entry.field_name + "')";
  if (message.is_delta && !entry.values) {
    return Status::Corruption(what + " arrived before its base dictionary");
  }
  if (!message.is_delta && entry.values && !replacement_allowed) {
    return Status::Corruption(what +
                              " replaces an earlier one: the file format allows only one "
                              "non-delta dictionary per id (the stream format allows more)");
  }
  auto loaded = LoadValues(entry, message, body, options);
  if (!loaded.ok()) return loaded.status().WithContext(what);
  Array values = std::move(loaded).value();

  const int64_t old_bytes = entry.bytes;
  int64_t rows = values.length();
  int64_t bytes = ArrayBytes(values);
  if (message.is_delta) {
    rows += entry.values->length();
    bytes += old_bytes;
  }
  if (rows > options.limits.max_batch_rows) {
    return Status::ResourceExhausted(what + " would hold " + std::to_string(rows) +
                                     " values, more than the limit of " +
                                     std::to_string(options.limits.max_batch_rows));
  }
  const int64_t held = held_bytes_ - old_bytes + bytes;
  if (held > options.limits.max_body_bytes) {
    return Status::ResourceExhausted(what + " would bring the dictionaries held to " +
                                     std::to_string(held) + " bytes, more than the limit of " +
                                     std::to_string(options.limits.max_body_bytes));
  }
  if (message.is_delta) {
    const RecordBatch parts[] = {
        *RecordBatch::Make(entry.values_schema, entry.values->length(), {*entry.values}),
        *RecordBatch::Make(entry.values_schema, values.length(), {values})};
    HIGGINS_ASSIGN_OR_RETURN(RecordBatch joined, ConcatenateBatches(entry.values_schema, parts));
    values = joined.column(0);
    bytes = ArrayBytes(values);
  }
  entry.values = std::move(values);
  held_bytes_ += bytes - old_bytes;
  entry.bytes = bytes;
  return Status::OK();
}

Result<RecordBatch> DictionaryMemo::DecodeRecordBatch(const RecordBatchHeader& header,
                                                      const Buffer& body,
                                                      const ReadOptions& options) const {
  HIGGINS_ASSIGN_OR_RETURN(RecordBatch wire, LoadRecordBatch(wire_schema_, header, body, options));
  if (fields_.empty()) return wire;
  std::vector<Array> columns = wire.columns();
  for (const DictionaryField& f : fields_) {
    const Entry& entry = entries_.at(f.id);
    const std::string& name = schema_->field(f.field_index).name;
    const Array& indices = columns[f.field_index];
    const std::string dictionary = "dictionary " + std::to_string(f.id);
    if (!entry.values) {
      // Nothing to look up while every slot is null (or there are no rows).
      if (indices.null_count() != indices.length()) {
        std::string message = "field '" + name + "' uses ";
        message += dictionary;
        message += " before any dictionary batch defined it";
        return Status::Corruption(std::move(message));
      }
      columns[f.field_index] = MakeNullArray(schema_->field(f.field_index).type, indices.length());
      continue;
    }
    auto decoded =
        DecodeDictionaryIndices(indices, *entry.values, dictionary, options.limits.max_body_bytes);
    if (!decoded.ok()) return decoded.status().WithContext("field '" + name + "'");
    columns[f.field_index] = std::move(decoded).value();
  }
  auto batch = RecordBatch::Make(schema_, wire.num_rows(), std::move(columns));
  if (!batch.ok()) return Status::Corruption(batch.status().message());
  return batch;
}

}  // namespace higgins::arrow::ipc
