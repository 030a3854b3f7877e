#include "arrow/ipc/batch_loader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrow/ipc/compression.h"
#include "arrow/ipc/framing.h"
#include "arrow/validate.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

// A single zero offset, substituted for the empty offsets buffer that Arrow C++ writes for
// zero-length var-binary arrays, so every loaded array has length + 1 offsets.
alignas(8) constexpr uint8_t kZeroOffset[8] = {};

// Bytes needed for `count` values of `bits` bits each, or -1 when that overflows int64.
int64_t BytesFor(int64_t count, int64_t bits) {
  const __int128 total = (static_cast<__int128>(count) * bits + 7) / 8;
  return total > INT64_MAX ? -1 : static_cast<int64_t>(total);
}

// Loaded buffers are 8-byte aligned in memory, so consumers may read values in place: a
// misaligned slice (unpadded writer, legacy framing, unaligned input) is copied.
Buffer Aligned(Buffer buffer) {
  if (reinterpret_cast<uintptr_t>(buffer.data()) % kIpcAlignment == 0) return buffer;
  return Buffer::Copy(buffer.span());
}

int64_t ValueBits(const DataType& type) {
  if (type.id() == TypeId::kFixedSizeBinary) return int64_t{type.byte_width()} * 8;
  return type.bit_width();
}

class BatchLoader {
 public:
  BatchLoader(const SchemaPtr& schema, const RecordBatchHeader& header, const Buffer& body,
              const ReadOptions& options)
      : schema_(schema), header_(header), body_(body), options_(options) {}

  Result<RecordBatch> Load() {
    HIGGINS_RETURN_IF_ERROR(CheckCounts());
    std::vector<Array> columns;
    columns.reserve(schema_->num_fields());
    for (size_t i = 0; i < schema_->num_fields(); ++i) {
      auto column = LoadColumn(schema_->field(i), header_.nodes[i]);
      if (!column.ok()) {
        return Status(column.status().code(),
                      "field '" + schema_->field(i).name + "': " + column.status().message());
      }
      columns.push_back(std::move(column).value());
    }
    auto batch = RecordBatch::Make(schema_, header_.length, std::move(columns));
    if (!batch.ok()) return Status::Corruption(batch.status().message());
    if (options_.validate_full) HIGGINS_RETURN_IF_ERROR(ValidateFull(*batch));
    return batch;
  }

 private:
  Status CheckCounts() const {
    if (header_.length < 0) {
      return Status::Corruption("negative record batch length " + std::to_string(header_.length));
    }
    if (header_.nodes.size() != schema_->num_fields()) {
      return Status::Corruption("record batch has " + std::to_string(header_.nodes.size()) +
                                " field nodes, the schema has " +
                                std::to_string(schema_->num_fields()) + " fields");
    }
    size_t expected = 0;
    for (const Field& field : schema_->fields()) {
      expected += static_cast<size_t>(field.type.num_buffers());
    }
    if (header_.buffers.size() != expected) {
      return Status::Corruption("record batch has " + std::to_string(header_.buffers.size()) +
                                " buffers, its schema needs " + std::to_string(expected));
    }
    return Status::OK();
  }

  // The next buffer of the body, bounds-checked and decompressed if needed.
  Result<Buffer> NextBuffer() {
    const size_t index = next_buffer_++;
    const BufferRegion& region = header_.buffers[index];
    const auto body_size = static_cast<int64_t>(body_.size());
    if (region.offset < 0 || region.length < 0 || region.offset > body_size ||
        region.length > body_size - region.offset) {
      return Status::Corruption("buffer " + std::to_string(index) + " (offset " +
                                std::to_string(region.offset) + ", length " +
                                std::to_string(region.length) + ") is outside the body of " +
                                std::to_string(body_size) + " bytes");
    }
    // The format asks for 8-aligned offsets, but apache-arrow JS packs LZ4-compressed buffers
    // without padding; misaligned buffers are accepted and copied (see Aligned).
    Buffer bytes =
        body_.Slice(static_cast<size_t>(region.offset), static_cast<size_t>(region.length));
    if (header_.compression == Compression::kNone) return Aligned(std::move(bytes));
    auto decompressed =
        DecompressBuffer(header_.compression, bytes, options_.limits.max_decompressed_buffer_bytes);
    if (!decompressed.ok()) {
      return decompressed.status().WithContext("buffer " + std::to_string(index));
    }
    return Aligned(std::move(decompressed).value());
  }

  static Status CheckSize(const Buffer& buffer, int64_t required, const char* what) {
    if (required < 0 || static_cast<int64_t>(buffer.size()) < required) {
      return Status::Corruption(std::string(what) + " buffer has " + std::to_string(buffer.size()) +
                                " bytes, " + std::to_string(required) + " are needed");
    }
    return Status::OK();
  }

  Result<Array> LoadColumn(const Field& field, const FieldNode& node) {
    const DataType& type = field.type;
    if (node.length != header_.length) {
      return Status::Corruption("node length " + std::to_string(node.length) +
                                " differs from the batch length " + std::to_string(header_.length));
    }
    auto data = std::make_shared<ArrayData>();
    data->type = type;
    data->length = node.length;
    if (type.layout() == Layout::kNull) {
      // Every slot is null whatever the node says (apache-arrow JS writes -1 for sliced null
      // columns; Arrow C++ ignores the value too). Built directly: O(1) for any length.
      data->null_count = node.length;
      return Array(std::move(data));
    }
    if (node.null_count < 0 || node.null_count > node.length) {
      return Status::Corruption("null count " + std::to_string(node.null_count) +
                                " is outside 0.." + std::to_string(node.length));
    }
    data->null_count = node.null_count;
    data->buffers.reserve(static_cast<size_t>(type.num_buffers()));

    HIGGINS_ASSIGN_OR_RETURN(Buffer validity, NextBuffer());
    if (node.null_count == 0) {
      validity = Buffer();  // all valid: a present bitmap (JS writes all-ones ones) is redundant
    } else if (validity.empty()) {
      return Status::Corruption("null count " + std::to_string(node.null_count) +
                                " without a validity bitmap");
    } else {
      HIGGINS_RETURN_IF_ERROR(CheckSize(validity, BytesFor(node.length, 1), "validity"));
    }
    data->buffers.push_back(std::move(validity));

    HIGGINS_ASSIGN_OR_RETURN(Buffer values, NextBuffer());
    if (type.layout() == Layout::kFixedWidth) {
      HIGGINS_RETURN_IF_ERROR(CheckSize(values, BytesFor(node.length, ValueBits(type)), "values"));
      data->buffers.push_back(std::move(values));
    } else {
      const int64_t width = type.layout() == Layout::kLargeVarBinary ? 8 : 4;
      if (node.length == 0 && values.empty()) {
        values = Buffer::Unowned(kZeroOffset, static_cast<size_t>(width));
      }
      HIGGINS_RETURN_IF_ERROR(CheckSize(values, BytesFor(node.length + 1, width * 8), "offsets"));
      HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, NextBuffer());
      data->buffers.push_back(std::move(values));
      data->buffers.push_back(std::move(bytes));
    }
    return Array(std::move(data));
  }

  const SchemaPtr& schema_;
  const RecordBatchHeader& header_;
  const Buffer& body_;
  const ReadOptions& options_;
  size_t next_buffer_ = 0;
};

}  // namespace

Result<RecordBatch> LoadRecordBatch(const SchemaPtr& schema, const RecordBatchHeader& header,
                                    const Buffer& body, const ReadOptions& options) {
  return BatchLoader(schema, header, body, options).Load();
}

}  // namespace higgins::arrow::ipc
