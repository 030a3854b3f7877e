#include "arrow/ipc/message_writer.h"

#include <string>

#include "arrow/ipc/compression.h"
#include "arrow/ipc/framing.h"
#include "arrow/utf8.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc {
namespace {

// How to produce one body buffer from a (possibly sliced) array. Planned for the whole batch
// first, so the body length is known before anything is written.
struct BodyBuffer {
  enum class Kind : uint8_t {
    kEmpty,      // zero-length buffer
    kBytes,      // copy `size` bytes from `data`
    kBitmap,     // copy `count` bits starting at bit `bit_offset` of `data` to bit 0
    kOffsets32,  // copy `count` int32 offsets from `data`, minus `base`
    kOffsets64,  // same with int64 offsets
    kZeros,      // `size` zero bytes (the single offset of an empty var-binary array)
  };
  Kind kind = Kind::kEmpty;
  const uint8_t* data = nullptr;
  int64_t size = 0;  // bytes written
  int64_t bit_offset = 0;
  int64_t count = 0;
  int64_t base = 0;
};

struct BodyPlan {
  std::vector<FieldNode> nodes;
  std::vector<BodyBuffer> buffers;
};

BodyBuffer BitmapBuffer(const Buffer& bits, int64_t offset, int64_t length) {
  return {BodyBuffer::Kind::kBitmap, bits.data(), bit_util::BytesForBits(length), offset, length};
}

Status PlanBitmap(const Buffer& bits, int64_t offset, int64_t length, const char* what,
                  BodyPlan& plan) {
  if (static_cast<int64_t>(bits.size()) < bit_util::BytesForBits(offset + length)) {
    return Status::InvalidArgument(std::string(what) + " bitmap is too small for its slots");
  }
  plan.buffers.push_back(BitmapBuffer(bits, offset, length));
  return Status::OK();
}

template <typename Offset>
Status PlanVarBinary(const ArrayData& d, BodyPlan& plan) {
  const int64_t n = d.length;
  const auto width = static_cast<int64_t>(sizeof(Offset));
  if (n == 0) {
    plan.buffers.push_back({BodyBuffer::Kind::kZeros, nullptr, width});
    plan.buffers.push_back({});
    return Status::OK();
  }
  const Buffer& offsets = d.buffers[1];
  const Buffer& data = d.buffers[2];
  if (static_cast<int64_t>(offsets.size()) < (d.offset + n + 1) * width) {
    return Status::InvalidArgument("offsets buffer is too small for its slots");
  }
  const uint8_t* first_offset = offsets.data() + d.offset * width;
  const int64_t first = bit_util::LoadLE<Offset>(first_offset);
  const int64_t last = bit_util::LoadLE<Offset>(first_offset + n * width);
  if (first < 0 || first > last || last > static_cast<int64_t>(data.size())) {
    return Status::InvalidArgument("offsets point outside the data buffer");
  }
  const auto kind = width == 4 ? BodyBuffer::Kind::kOffsets32 : BodyBuffer::Kind::kOffsets64;
  plan.buffers.push_back({kind, first_offset, (n + 1) * width, 0, n + 1, first});
  plan.buffers.push_back({BodyBuffer::Kind::kBytes, data.data() + first, last - first});
  return Status::OK();
}

Status PlanColumn(const ArrayData& d, BodyPlan& plan) {
  const DataType& type = d.type;
  const int64_t n = d.length;
  if (type.layout() == Layout::kNull) {
    plan.nodes.push_back({n, n});
    return Status::OK();
  }
  if (d.buffers.size() != static_cast<size_t>(type.num_buffers())) {
    return Status::InvalidArgument("array has " + std::to_string(d.buffers.size()) +
                                   " buffers, type " + type.ToString() + " needs " +
                                   std::to_string(type.num_buffers()));
  }
  plan.nodes.push_back({n, d.null_count});
  if (d.null_count == 0) {
    plan.buffers.push_back({});
  } else {
    HIGGINS_RETURN_IF_ERROR(PlanBitmap(d.buffers[0], d.offset, n, "validity", plan));
  }
  switch (type.layout()) {
    case Layout::kFixedWidth: {
      if (type.id() == TypeId::kBool) return PlanBitmap(d.buffers[1], d.offset, n, "bool", plan);
      const int64_t width =
          type.id() == TypeId::kFixedSizeBinary ? type.byte_width() : type.bit_width() / 8;
      const Buffer& values = d.buffers[1];
      if (static_cast<int64_t>(values.size()) < (d.offset + n) * width) {
        return Status::InvalidArgument("values buffer is too small for its slots");
      }
      plan.buffers.push_back(
          {BodyBuffer::Kind::kBytes, values.data() + d.offset * width, n * width});
      return Status::OK();
    }
    case Layout::kVarBinary: return PlanVarBinary<int32_t>(d, plan);
    case Layout::kLargeVarBinary: return PlanVarBinary<int64_t>(d, plan);
    case Layout::kNull: break;
  }
  return Status::OK();
}

Result<BodyPlan> PlanBody(const RecordBatch& batch) {
  BodyPlan plan;
  plan.nodes.reserve(static_cast<size_t>(batch.num_columns()));
  plan.buffers.reserve(static_cast<size_t>(batch.num_columns()) * 3);
  for (int i = 0; i < batch.num_columns(); ++i) {
    if (Status st = PlanColumn(batch.column(i).data(), plan); !st.ok()) {
      return st.WithContext("column '" + batch.schema()->field(static_cast<size_t>(i)).name + "'");
    }
  }
  return plan;
}

template <typename Offset>
void EmitOffsets(const BodyBuffer& b, BufferBuilder& out) {
  if (b.base == 0) {
    out.Append(b.data, static_cast<size_t>(b.size));
    return;
  }
  out.Reserve(static_cast<size_t>(b.size));
  const auto base = static_cast<Offset>(b.base);
  for (int64_t i = 0; i < b.count; ++i) {
    out.UnsafeAppendValue<Offset>(
        static_cast<Offset>(bit_util::LoadLE<Offset>(b.data + i * sizeof(Offset)) - base));
  }
}

void Emit(const BodyBuffer& b, BufferBuilder& out) {
  switch (b.kind) {
    case BodyBuffer::Kind::kEmpty: return;
    case BodyBuffer::Kind::kBytes: out.Append(b.data, static_cast<size_t>(b.size)); return;
    case BodyBuffer::Kind::kZeros: out.AppendZeros(static_cast<size_t>(b.size)); return;
    case BodyBuffer::Kind::kOffsets32: EmitOffsets<int32_t>(b, out); return;
    case BodyBuffer::Kind::kOffsets64: EmitOffsets<int64_t>(b, out); return;
    case BodyBuffer::Kind::kBitmap: {
      const size_t start = out.size();
      if (b.bit_offset % 8 == 0) {
        out.Append(b.data + b.bit_offset / 8, static_cast<size_t>(b.size));
        // Zero the bits past the last slot, as a freshly built bitmap would have them.
        if (b.count % 8 != 0)
          out.data()[out.size() - 1] &= static_cast<uint8_t>((1u << (b.count % 8)) - 1);
      } else {
        out.AppendZeros(static_cast<size_t>(b.size));
        bit_util::CopyBitmap(b.data, b.bit_offset, b.count, out.data() + start);
      }
      return;
    }
  }
}

void AppendPadding(int64_t size, BufferBuilder& out) {
  out.AppendZeros(static_cast<size_t>(PadToAlignment(size) - size));
}

Status CheckUtf8(const KeyValueMetadata& metadata, const std::string& where) {
  for (size_t i = 0; i < metadata.size(); ++i) {
    const auto& [key, value] = metadata[i];
    if (!IsValidUtf8(key)) {
      return Status::InvalidArgument(where + "custom metadata key " + std::to_string(i) +
                                     " is not valid UTF-8");
    }
    if (!IsValidUtf8(value)) {
      std::string message = where;
      message.append("custom metadata value of key '").append(key).append("' is not valid UTF-8");
      return Status::InvalidArgument(std::move(message));
    }
  }
  return Status::OK();
}

// Readers refuse metadata strings that are not UTF-8 (field names, custom metadata, time zones).
Status CheckUtf8(const Schema& schema) {
  for (size_t i = 0; i < schema.num_fields(); ++i) {
    const Field& field = schema.field(i);
    if (!IsValidUtf8(field.name)) {
      return Status::InvalidArgument("the name of field " + std::to_string(i) +
                                     " is not valid UTF-8");
    }
    const std::string where = "field '" + field.name + "': ";
    if (field.type.id() == TypeId::kTimestamp && !IsValidUtf8(field.type.timezone())) {
      return Status::InvalidArgument(where + "time zone is not valid UTF-8");
    }
    HIGGINS_RETURN_IF_ERROR(CheckUtf8(field.metadata, where));
  }
  return CheckUtf8(schema.metadata(), "schema: ");
}

// The metadata size a message prefix declares for a flatbuffer of `flatbuffer_size` bytes
// (padding included), which is what readers compare with max_metadata_bytes.
int64_t PaddedMetadataSize(size_t flatbuffer_size) {
  return PadToAlignment(kMessagePrefixSize + static_cast<int64_t>(flatbuffer_size)) -
         kMessagePrefixSize;
}

// A record batch message's metadata (its encoded flatbuffer) and body (`body_length` bytes,
// padding included) against the limits readers apply.
Status CheckMessageSize(std::span<const uint8_t> flatbuffer, int64_t body_length,
                        const IpcLimits& limits) {
  HIGGINS_RETURN_IF_ERROR(
      CheckMetadataSize(PaddedMetadataSize(flatbuffer.size()), limits, "record batch metadata"));
  if (body_length <= limits.max_body_bytes) return Status::OK();
  return Status::ResourceExhausted("record batch body of " + std::to_string(body_length) +
                                   " bytes exceeds the limit of " +
                                   std::to_string(limits.max_body_bytes));
}

}  // namespace

int32_t AppendMessageMetadata(std::span<const uint8_t> flatbuffer, BufferBuilder& out) {
  const int64_t padded =
      PadToAlignment(kMessagePrefixSize + static_cast<int64_t>(flatbuffer.size()));
  uint8_t prefix[kMessagePrefixSize];
  bit_util::StoreLE<uint32_t>(prefix, kContinuationMarker);
  bit_util::StoreLE<int32_t>(prefix + 4, static_cast<int32_t>(padded - kMessagePrefixSize));
  out.Reserve(static_cast<size_t>(padded));
  out.Append(prefix, sizeof(prefix));
  out.Append(flatbuffer);
  out.AppendZeros(static_cast<size_t>(padded - kMessagePrefixSize) - flatbuffer.size());
  return static_cast<int32_t>(padded);
}

Status CheckMetadataSize(int64_t bytes, const IpcLimits& limits, std::string_view what) {
  if (bytes <= limits.max_metadata_bytes) return Status::OK();
  return Status::ResourceExhausted(std::string(what) + " of " + std::to_string(bytes) +
                                   " bytes exceeds the metadata limit of " +
                                   std::to_string(limits.max_metadata_bytes));
}

Result<MessageExtent> AppendSchemaMessage(const Schema& schema, const IpcLimits& limits,
                                          BufferBuilder& out) {
  if (schema.num_fields() > static_cast<size_t>(limits.max_fields)) {
    return Status::ResourceExhausted("schema has " + std::to_string(schema.num_fields()) +
                                     " fields, more than the limit of " +
                                     std::to_string(limits.max_fields));
  }
  HIGGINS_RETURN_IF_ERROR(CheckUtf8(schema));
  const std::vector<uint8_t> flatbuffer = EncodeSchemaMessage(schema);
  HIGGINS_RETURN_IF_ERROR(
      CheckMetadataSize(PaddedMetadataSize(flatbuffer.size()), limits, "schema message"));
  return MessageExtent{AppendMessageMetadata(flatbuffer, out), 0};
}

Result<MessageExtent> RecordBatchSerializer::Append(const RecordBatch& batch, BufferBuilder& out) {
  const IpcLimits& limits = options_.limits;
  if (batch.num_rows() > limits.max_batch_rows) {
    return Status::ResourceExhausted("record batch of " + std::to_string(batch.num_rows()) +
                                     " rows exceeds the limit of " +
                                     std::to_string(limits.max_batch_rows));
  }
  HIGGINS_ASSIGN_OR_RETURN(BodyPlan plan, PlanBody(batch));
  RecordBatchHeader header;
  header.length = batch.num_rows();
  header.nodes = std::move(plan.nodes);
  header.buffers.reserve(plan.buffers.size());
  header.compression = options_.compression;

  if (options_.compression == Compression::kNone) {
    int64_t body_length = 0;
    for (const BodyBuffer& b : plan.buffers) {
      header.buffers.push_back({body_length, b.size});
      body_length += PadToAlignment(b.size);
    }
    const std::vector<uint8_t> flatbuffer = EncodeRecordBatchMessage(header, body_length);
    HIGGINS_RETURN_IF_ERROR(CheckMessageSize(flatbuffer, body_length, limits));
    out.Reserve(static_cast<size_t>(
        PadToAlignment(kMessagePrefixSize + static_cast<int64_t>(flatbuffer.size())) +
        body_length));
    const int32_t metadata_length = AppendMessageMetadata(flatbuffer, out);
    for (const BodyBuffer& b : plan.buffers) {
      Emit(b, out);
      AppendPadding(b.size, out);
    }
    return MessageExtent{metadata_length, body_length};
  }

  body_.Clear();
  for (const BodyBuffer& b : plan.buffers) {
    const auto start = static_cast<int64_t>(body_.size());
    if (b.size != 0) {
      std::span<const uint8_t> input(b.data, static_cast<size_t>(b.size));
      if (b.kind != BodyBuffer::Kind::kBytes) {
        staging_.Clear();
        Emit(b, staging_);
        input = {staging_.data(), staging_.size()};
      }
      HIGGINS_RETURN_IF_ERROR(
          AppendCompressedBuffer(options_.compression, input, options_, frame_scratch_, body_));
    }
    const int64_t length = static_cast<int64_t>(body_.size()) - start;
    header.buffers.push_back({start, length});
    AppendPadding(length, body_);
  }
  const auto body_length = static_cast<int64_t>(body_.size());
  const std::vector<uint8_t> flatbuffer = EncodeRecordBatchMessage(header, body_length);
  HIGGINS_RETURN_IF_ERROR(CheckMessageSize(flatbuffer, body_length, limits));
  const int32_t metadata_length = AppendMessageMetadata(flatbuffer, out);
  out.Append(body_.data(), body_.size());
  return MessageExtent{metadata_length, body_length};
}

}  // namespace higgins::arrow::ipc
