#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arrow/ipc/metadata.h"
#include "higgins/arrow/ipc/options.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"

namespace higgins::arrow::ipc {

/// The dictionaries of one IPC stream or file, by id (Columnar.rst, "Dictionary Messages"), and
/// the decoding of record batches whose fields are dictionary-encoded into batches of the plain
/// schema (a dictionary<int32, utf8> field is a utf8 column).
///
/// Built from a decoded schema; each DictionaryBatch then defines a dictionary, replaces it
/// (isDelta false) or appends to it (isDelta true), and each record batch is decoded against the
/// dictionaries held at that point. With no dictionary fields it is a plain LoadRecordBatch.
///
/// Memory: the dictionaries held count toward ReadOptions::limits (see ApplyDictionaryBatch);
/// they share the input buffers they were loaded from. Not thread-safe; the batches returned
/// are independent of the memo.
class DictionaryMemo {
 public:
  DictionaryMemo() = default;
  /// `schema` has the plain value types; `fields` are its dictionary-encoded fields (both as
  /// DecodeMessage/DecodeFooter return them).
  DictionaryMemo(SchemaPtr schema, std::vector<DictionaryField> fields);

  /// Applies one DictionaryBatch message (`message.kind == kDictionaryBatch`) and its body.
  /// `replacement_allowed` is false for the file format, whose footer may hold only one
  /// non-delta dictionary per id. Errors, Corruption unless noted, each naming the id and the
  /// field: an id no field uses; data that does not fit the field's value type (not exactly one
  /// node, or a buffer count other than the type's); the batch loader's errors for the values
  /// (bounds, sizes, UTF-8...); a delta before any dictionary of its id; a replacement when not
  /// allowed; ResourceExhausted when one dictionary would exceed limits.max_batch_rows values or
  /// all dictionaries held together limits.max_body_bytes bytes.
  Status ApplyDictionaryBatch(const MessageMetadata& message, const Buffer& body,
                              const ReadOptions& options, bool replacement_allowed);

  /// Decodes a RecordBatch message: LoadRecordBatch against the wire schema (dictionary fields
  /// hold their index type), then every dictionary-encoded column is materialized with the
  /// current dictionary of its id (DecodeDictionaryIndices, whose buffers are bounded by
  /// limits.max_body_bytes). Errors: LoadRecordBatch's; Corruption "field 'city': index 3 at
  /// row 1 is out of range of dictionary 0 (3 values)" (also when no dictionary 0 arrived yet
  /// and a valid index refers to it) or a null dictionary value in a non-nullable field.
  Result<RecordBatch> DecodeRecordBatch(const RecordBatchHeader& header, const Buffer& body,
                                        const ReadOptions& options) const;

  const SchemaPtr& schema() const { return schema_; }
  /// Bytes of the dictionaries currently held.
  int64_t held_bytes() const { return held_bytes_; }

 private:
  struct Entry {
    std::string field_name;   // the first field using the id, for errors
    SchemaPtr values_schema;  // one nullable column of the value type
    std::optional<Array> values;
    int64_t bytes = 0;
  };

  Result<Array> LoadValues(const Entry& entry, const MessageMetadata& message, const Buffer& body,
                           const ReadOptions& options) const;

  SchemaPtr schema_;
  SchemaPtr wire_schema_;  // schema_ with the index type for dictionary fields
  std::vector<DictionaryField> fields_;
  std::map<int64_t, Entry> entries_;
  int64_t held_bytes_ = 0;
};

}  // namespace higgins::arrow::ipc
