#include "arrow/ipc/test_util.h"

#include <fstream>
#include <iterator>

#include "higgins/arrow/float16.h"
#include "arrow/ipc/framing.h"
#include "higgins/bit_util.h"

namespace higgins::arrow::ipc::testing {

Array MakeBool(const std::vector<std::optional<bool>>& values) {
  ArrayBuilder builder(DataType::Bool());
  for (const auto& v : values) {
    if (v) {
      builder.AppendBool(*v);
    } else {
      builder.AppendNull();
    }
  }
  return builder.Finish();
}

Array MakeBinary(const DataType& type, const std::vector<std::optional<std::string>>& values) {
  ArrayBuilder builder(type);
  for (const auto& v : values) {
    if (v) {
      if (!builder.AppendBinary(*v).ok()) std::abort();
    } else {
      builder.AppendNull();
    }
  }
  return builder.Finish();
}

SchemaPtr AllTypesSchema() {
  return MakeSchema(
      {
          Field("id", DataType::Int32(), /*nullable=*/false),
          Field("null_col", DataType::Null()),
          Field("bool_col", DataType::Bool()),
          Field("i8", DataType::Int8()),
          Field("i16", DataType::Int16()),
          Field("i32", DataType::Int32(), true, {{"origin", "sensor"}, {"unit", "mm"}}),
          Field("i64", DataType::Int64()),
          Field("u8", DataType::UInt8()),
          Field("u16", DataType::UInt16()),
          Field("u32", DataType::UInt32()),
          Field("u64", DataType::UInt64()),
          Field("f16", DataType::Float16()),
          Field("f32", DataType::Float32()),
          Field("f64", DataType::Float64()),
          Field("utf8", DataType::Utf8()),
          Field("large_utf8", DataType::LargeUtf8()),
          Field("binary", DataType::Binary()),
          Field("large_binary", DataType::LargeBinary()),
          Field("fsb", DataType::FixedSizeBinary(3)),
          Field("date32", DataType::Date32()),
          Field("date64", DataType::Date64()),
          Field("ts_utc", DataType::Timestamp(TimeUnit::kMilli, "UTC")),
          Field("ts_naive", DataType::Timestamp(TimeUnit::kNano)),
          Field("time32", DataType::Time32(TimeUnit::kSecond)),
          Field("time64", DataType::Time64(TimeUnit::kNano)),
          Field("duration", DataType::Duration(TimeUnit::kMicro)),
          Field("decimal", DataType::Decimal128(10, 2)),
      },
      {{"producer", "higgins-test"}, {"empty", ""}});
}

namespace {

template <typename T, typename Make>
std::vector<std::optional<T>> Values(int64_t rows, int seed, bool nullable, Make make) {
  std::vector<std::optional<T>> out;
  out.reserve(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) {
    if (nullable && i % 3 == 1) {
      out.push_back(std::nullopt);
    } else {
      out.push_back(static_cast<T>(make(i + seed)));
    }
  }
  return out;
}

std::string Text(int64_t i) {
  static const char* kWords[] = {"", "a", "héllo", "Higgins", "€uro", "stream-of-bytes"};
  return std::string(kWords[i % 6]) + std::to_string(i);
}

}  // namespace

RecordBatch AllTypesBatch(int64_t rows, int seed) {
  std::vector<Array> cols;
  const SchemaPtr schema = AllTypesSchema();
  cols.push_back(MakePrimitive<int32_t>(
      DataType::Int32(), Values<int32_t>(rows, seed, false, [](int64_t i) { return int32_t(i); })));
  cols.push_back(MakeNullArray(DataType::Null(), rows));
  {
    std::vector<std::optional<bool>> b;
    for (int64_t i = 0; i < rows; ++i) {
      b.push_back(i % 3 == 1 ? std::nullopt : std::optional<bool>((i + seed) % 2 == 0));
    }
    cols.push_back(MakeBool(b));
  }
  cols.push_back(MakePrimitive<int8_t>(
      DataType::Int8(),
      Values<int8_t>(rows, seed, true, [](int64_t i) { return int8_t(i * 7 - 100); })));
  cols.push_back(MakePrimitive<int16_t>(
      DataType::Int16(),
      Values<int16_t>(rows, seed, true, [](int64_t i) { return int16_t(-i * 301); })));
  cols.push_back(MakePrimitive<int32_t>(
      DataType::Int32(),
      Values<int32_t>(rows, seed, true, [](int64_t i) { return int32_t(i * 100003); })));
  cols.push_back(MakePrimitive<int64_t>(
      DataType::Int64(),
      Values<int64_t>(rows, seed, true, [](int64_t i) { return int64_t(i) * -4000000007LL; })));
  cols.push_back(MakePrimitive<uint8_t>(
      DataType::UInt8(),
      Values<uint8_t>(rows, seed, true, [](int64_t i) { return uint8_t(i * 13); })));
  cols.push_back(MakePrimitive<uint16_t>(
      DataType::UInt16(),
      Values<uint16_t>(rows, seed, true, [](int64_t i) { return uint16_t(i * 977); })));
  cols.push_back(MakePrimitive<uint32_t>(
      DataType::UInt32(),
      Values<uint32_t>(rows, seed, true, [](int64_t i) { return uint32_t(i * 2654435761u); })));
  cols.push_back(
      MakePrimitive<uint64_t>(DataType::UInt64(), Values<uint64_t>(rows, seed, true, [](int64_t i) {
                                return uint64_t(i) * 0x9E3779B97F4A7C15ull;
                              })));
  cols.push_back(MakePrimitive<uint16_t>(DataType::Float16(),
                                         Values<uint16_t>(rows, seed, true, [](int64_t i) {
                                           return FloatToHalf(float(i) * 0.25f - 3.0f);
                                         })));
  cols.push_back(MakePrimitive<float>(
      DataType::Float32(),
      Values<float>(rows, seed, true, [](int64_t i) { return float(i) / 3.0f; })));
  cols.push_back(MakePrimitive<double>(
      DataType::Float64(),
      Values<double>(rows, seed, true, [](int64_t i) { return double(i) * -1.5e100; })));
  const auto text = Values<std::string>(rows, seed, true, [](int64_t i) { return Text(i); });
  cols.push_back(MakeBinary(DataType::Utf8(), text));
  cols.push_back(MakeBinary(DataType::LargeUtf8(), text));
  const auto bytes = Values<std::string>(rows, seed, true, [](int64_t i) {
    return std::string(static_cast<size_t>(i % 5), static_cast<char>(0xF0 + i % 16));
  });
  cols.push_back(MakeBinary(DataType::Binary(), bytes));
  cols.push_back(MakeBinary(DataType::LargeBinary(), bytes));
  cols.push_back(
      MakeBinary(DataType::FixedSizeBinary(3), Values<std::string>(rows, seed, true, [](int64_t i) {
                   return std::string{char(i), char(i >> 8), '\0'};
                 })));
  cols.push_back(MakePrimitive<int32_t>(
      DataType::Date32(),
      Values<int32_t>(rows, seed, true, [](int64_t i) { return int32_t(19000 + i); })));
  cols.push_back(MakePrimitive<int64_t>(
      DataType::Date64(),
      Values<int64_t>(rows, seed, true, [](int64_t i) { return int64_t(i) * 86400000; })));
  cols.push_back(MakePrimitive<int64_t>(
      DataType::Timestamp(TimeUnit::kMilli, "UTC"),
      Values<int64_t>(rows, seed, true, [](int64_t i) { return 1700000000000 + i; })));
  cols.push_back(MakePrimitive<int64_t>(
      DataType::Timestamp(TimeUnit::kNano),
      Values<int64_t>(rows, seed, true, [](int64_t i) { return -i * 1000000007; })));
  cols.push_back(MakePrimitive<int32_t>(
      DataType::Time32(TimeUnit::kSecond),
      Values<int32_t>(rows, seed, true, [](int64_t i) { return int32_t(i % 86400); })));
  cols.push_back(MakePrimitive<int64_t>(
      DataType::Time64(TimeUnit::kNano),
      Values<int64_t>(rows, seed, true, [](int64_t i) { return i * 1000; })));
  cols.push_back(
      MakePrimitive<int64_t>(DataType::Duration(TimeUnit::kMicro),
                             Values<int64_t>(rows, seed, true, [](int64_t i) { return -i; })));
  cols.push_back(MakePrimitive<__int128>(
      DataType::Decimal128(10, 2),
      Values<__int128>(rows, seed, true, [](int64_t i) { return __int128(i) * 12345 - 999999; })));
  auto batch = RecordBatch::Make(schema, rows, std::move(cols));
  if (!batch.ok()) std::abort();
  return std::move(batch).value();
}

SchemaPtr SimpleSchema() {
  return MakeSchema({Field("id", DataType::Int32(), false), Field("name", DataType::Utf8())});
}

RecordBatch SimpleBatch(int64_t rows, int seed) {
  std::vector<std::optional<int32_t>> ids;
  std::vector<std::optional<std::string>> names;
  for (int64_t i = 0; i < rows; ++i) {
    ids.push_back(static_cast<int32_t>(i + seed));
    names.push_back(i % 4 == 3 ? std::nullopt : std::optional<std::string>(Text(i + seed)));
  }
  auto batch = RecordBatch::Make(
      SimpleSchema(), rows,
      {MakePrimitive<int32_t>(DataType::Int32(), ids), MakeBinary(DataType::Utf8(), names)});
  if (!batch.ok()) std::abort();
  return std::move(batch).value();
}

void AppendFramed(std::span<const uint8_t> flatbuffer, std::span<const uint8_t> body,
                  std::vector<uint8_t>& out) {
  const int64_t padded = PadToAlignment(8 + static_cast<int64_t>(flatbuffer.size()));
  uint8_t prefix[8];
  bit_util::StoreLE<uint32_t>(prefix, kContinuationMarker);
  bit_util::StoreLE<int32_t>(prefix + 4, static_cast<int32_t>(padded - 8));
  out.insert(out.end(), prefix, prefix + 8);
  out.insert(out.end(), flatbuffer.begin(), flatbuffer.end());
  out.resize(out.size() + static_cast<size_t>(padded - 8) - flatbuffer.size(), 0);
  out.insert(out.end(), body.begin(), body.end());
}

std::vector<uint8_t> MakeRawStream(const Schema& schema, const std::vector<RawBatch>& batches,
                                   bool with_eos) {
  std::vector<uint8_t> out;
  AppendFramed(EncodeSchemaMessage(schema), {}, out);
  for (const RawBatch& batch : batches) {
    AppendFramed(EncodeRecordBatchMessage(batch.header, static_cast<int64_t>(batch.body.size())),
                 batch.body, out);
  }
  if (with_eos) out.insert(out.end(), kEndOfStream, kEndOfStream + 8);
  return out;
}

Buffer ToBuffer(const std::vector<uint8_t>& bytes) {
  return Buffer::Copy(bytes);
}

std::vector<uint8_t> ToVector(const Buffer& buffer) {
  return std::vector<uint8_t>(buffer.data(), buffer.data() + buffer.size());
}

Buffer ReadSharedFile(const std::string& relative_path) {
  std::ifstream in(std::string(HIGGINS_SHARED_DIR) + "/" + relative_path, std::ios::binary);
  if (!in) return Buffer();
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return Buffer::Copy(bytes);
}

}  // namespace higgins::arrow::ipc::testing
