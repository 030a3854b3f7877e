#include "arrow/json/json_row_builder.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "arrow/json/json_text.h"

namespace higgins::arrow::json {
namespace {

namespace od = simdjson::ondemand;

/// After this many rows the builders are sized for the whole input, extrapolated from the bytes
/// read so far (growing them by doubling costs copies and zeroing).
constexpr int64_t kRowsBeforeReserve = 64;

/// The key of `field` as written (escapes intact): from after its opening quote back from the
/// value, over whitespace, the ':' and whitespace, to its closing quote.
std::string_view RawKey(od::field& field) {
  const char* begin = field.key().raw();
  const char* p = field.value().raw_json_token().data();
  while (p > begin && IsJsonSpace(p[-1])) --p;
  if (p > begin) --p;  // ':'
  while (p > begin && IsJsonSpace(p[-1])) --p;
  if (p > begin) --p;  // closing quote
  return {begin, static_cast<size_t>(p - begin)};
}

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// memcmp() == 0 for the short lengths of field names, comparing whole words (two overlapping
/// loads cover 4..16 bytes) instead of calling the library.
bool SameBytes(const char* a, const char* b, size_t n) {
  if (n >= 8 && n <= 16) {
    return Load<uint64_t>(a) == Load<uint64_t>(b) &&
           Load<uint64_t>(a + n - 8) == Load<uint64_t>(b + n - 8);
  }
  if (n >= 4 && n < 8) {
    return Load<uint32_t>(a) == Load<uint32_t>(b) &&
           Load<uint32_t>(a + n - 4) == Load<uint32_t>(b + n - 4);
  }
  return std::memcmp(a, b, n) == 0;
}

}  // namespace

JsonRowBuilder::Column::Column(const Field& field)
    : builder(field.type),
      name(field.name),
      nullable(field.nullable),
      raw_matchable(field.name.find_first_of("\"\\") == std::string::npos) {
  switch (field.type.id()) {
    case TypeId::kInt8:
      fast = FastPath::kInteger;
      min = INT8_MIN;
      max = INT8_MAX;
      break;
    case TypeId::kInt16:
      fast = FastPath::kInteger;
      min = INT16_MIN;
      max = INT16_MAX;
      break;
    case TypeId::kInt32:
      fast = FastPath::kInteger;
      min = INT32_MIN;
      max = INT32_MAX;
      break;
    case TypeId::kInt64:
      fast = FastPath::kInteger;
      min = INT64_MIN;
      max = INT64_MAX;
      break;
    case TypeId::kUInt8:
      fast = FastPath::kInteger;
      max = UINT8_MAX;
      break;
    case TypeId::kUInt16:
      fast = FastPath::kInteger;
      max = UINT16_MAX;
      break;
    case TypeId::kUInt32:
      fast = FastPath::kInteger;
      max = UINT32_MAX;
      break;
    case TypeId::kFloat64: fast = FastPath::kFloat64; break;
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8: fast = FastPath::kString; break;
    default: break;
  }
}

JsonRowBuilder::JsonRowBuilder(const SchemaPtr& schema, UnknownFields unknown_fields,
                               const char* input, size_t size)
    : schema_(schema),
      unknown_fields_(unknown_fields),
      input_(input),
      input_end_(input + size),
      index_(*schema) {
  columns_.reserve(schema->num_fields());
  for (size_t i = 0; i < schema->num_fields(); ++i) {
    columns_.emplace_back(schema->field(i));
    // A later field with the same name as an earlier one is never matched by key.
    if (index_.Find(schema->field(i).name, -1) != static_cast<int>(i)) {
      columns_.back().raw_matchable = false;
    }
  }
}

// MatchKey and TryFast run for every field: inlined into AppendObject they keep simdjson's
// iterators in registers (measured: about 25% of the whole read on the flight-record benchmark).
[[gnu::always_inline]] inline int JsonRowBuilder::MatchKey(od::field& field, int guess,
                                                           std::string_view* key,
                                                           simdjson::error_code* error) {
  // Fast path: the raw key is exactly the expected field's name followed by its closing quote.
  // A name without quotes or backslashes cannot match raw bytes that hold an escape.
  const char* raw = field.key().raw();
  if (static_cast<size_t>(guess) < columns_.size()) {
    const Column& column = columns_[static_cast<size_t>(guess)];
    const size_t n = column.name.size();
    if (column.raw_matchable && static_cast<size_t>(input_end_ - raw) > n && raw[n] == '"' &&
        SameBytes(raw, column.name.data(), n)) {
      *key = column.name;
      return guess;
    }
  }
  return LookupKey(field, guess, key, error);
}

int JsonRowBuilder::LookupKey(od::field& field, int guess, std::string_view* key,
                              simdjson::error_code* error) {
  *key = RawKey(field);
  if (std::memchr(key->data(), '\\', key->size()) != nullptr) {
    *error = field.unescaped_key().get(*key);
    if (*error) return -1;
  }
  return index_.Find(*key, guess);
}

[[gnu::always_inline]] inline bool JsonRowBuilder::TryFast(int index, od::value& value,
                                                           Status* error) {
  Column& column = columns_[static_cast<size_t>(index)];
  switch (column.fast) {
    case FastPath::kInteger: {
      int64_t v = 0;
      if (value.get_int64().get(v) != simdjson::SUCCESS || v < column.min || v > column.max) {
        return false;
      }
      switch (column.builder.type().id()) {
        case TypeId::kInt8: column.builder.AppendPrimitive<int8_t>(static_cast<int8_t>(v)); break;
        case TypeId::kInt16:
          column.builder.AppendPrimitive<int16_t>(static_cast<int16_t>(v));
          break;
        case TypeId::kInt32:
          column.builder.AppendPrimitive<int32_t>(static_cast<int32_t>(v));
          break;
        case TypeId::kUInt8:
          column.builder.AppendPrimitive<uint8_t>(static_cast<uint8_t>(v));
          break;
        case TypeId::kUInt16:
          column.builder.AppendPrimitive<uint16_t>(static_cast<uint16_t>(v));
          break;
        case TypeId::kUInt32:
          column.builder.AppendPrimitive<uint32_t>(static_cast<uint32_t>(v));
          break;
        default: column.builder.AppendPrimitive<int64_t>(v); break;
      }
      return true;
    }
    case FastPath::kFloat64: {
      double v = 0;
      if (value.get_double().get(v) != simdjson::SUCCESS) return false;
      column.builder.AppendPrimitive<double>(v);
      return true;
    }
    case FastPath::kString: {
      std::string_view text;
      const simdjson::error_code failure = value.get_string().get(text);
      if (failure == simdjson::INCORRECT_TYPE) return false;  // not a string: general path
      // A failed unescape has consumed the string, so it cannot be retried.
      if (failure) {
        *error = Malformed(failure, value.raw_json_token().data());
        return true;
      }
      column.string_bytes += static_cast<int64_t>(text.size());
      if (Status status = column.builder.AppendBinary(text); !status.ok()) {
        *error = FieldError(index, status);
      }
      return true;
    }
    case FastPath::kNone: break;
  }
  return false;
}

Status JsonRowBuilder::AppendObject(od::object object, const char* location) {
  if (num_rows_ == kRowsBeforeReserve) Reserve(location);
  const int64_t stamp = num_rows_ + 1;
  seen_count_ = 0;
  int guess = 0;
  for (auto field_result : object) {
    if (field_result.error()) return Malformed(field_result.error(), location);
    // Used in place: copying it out with get() costs a store-forwarding stall per field.
    od::field& field = field_result.value_unsafe();
    std::string_view key;
    simdjson::error_code key_error = simdjson::SUCCESS;
    const int index = MatchKey(field, guess, &key, &key_error);
    od::value value = field.value();
    location = value.raw_json_token().data();
    if (key_error) return Malformed(key_error, location);
    if (index < 0) {
      if (unknown_fields_ == UnknownFields::kError) return KeyError(key, "not in the schema");
      HIGGINS_RETURN_IF_ERROR(SkipValue(value, 0));
      continue;
    }
    Column& column = columns_[static_cast<size_t>(index)];
    if (column.seen == stamp) return KeyError(key, "duplicate key");
    column.seen = stamp;
    ++seen_count_;
    guess = index + 1;
    Status error;
    if (TryFast(index, value, &error)) {
      if (!error.ok()) return error;
      continue;
    }
    HIGGINS_RETURN_IF_ERROR(AppendField(index, value));
  }
  return FinishRow();
}

void JsonRowBuilder::Reserve(const char* position) {
  ReserveFor(input_end_ - input_, position);
}

void JsonRowBuilder::ReserveFor(int64_t input_size, const char* position) {
  const int64_t consumed = position - input_;
  if (consumed <= 0) return;
  const double scale = static_cast<double>(input_size) / static_cast<double>(consumed);
  auto expected_rows = static_cast<int64_t>(static_cast<double>(num_rows_) * scale * 1.05);
  // An estimate from a few small rows must not reserve far more than the input could fill.
  int64_t row_bytes = 1;
  for (const Column& column : columns_) {
    const DataType& type = column.builder.type();
    row_bytes += type.layout() == Layout::kVarBinary        ? 4
                 : type.layout() == Layout::kLargeVarBinary ? 8
                                                            : (type.bit_width() + 7) / 8;
  }
  expected_rows = std::min(expected_rows, 2 * input_size / row_bytes);
  if (expected_rows <= num_rows_) return;
  for (Column& column : columns_) {
    const auto data_bytes = static_cast<int64_t>(static_cast<double>(column.string_bytes) * scale);
    column.builder.Reserve(expected_rows - num_rows_, std::min(data_bytes, input_size));
  }
}

Status JsonRowBuilder::FinishRow() {
  if (seen_count_ != columns_.size()) {
    const int64_t stamp = num_rows_ + 1;
    for (size_t i = 0; i < columns_.size(); ++i) {
      Column& column = columns_[i];
      if (column.seen == stamp) continue;
      if (!column.nullable) {
        return FieldError(static_cast<int>(i),
                          Status::InvalidArgument("missing value for a non-nullable field"));
      }
      column.builder.AppendNull();
    }
  }
  ++num_rows_;
  return Status::OK();
}

Result<RecordBatch> JsonRowBuilder::Finish() {
  std::vector<Array> columns;
  columns.reserve(columns_.size());
  for (Column& column : columns_) columns.push_back(column.builder.Finish());
  return RecordBatch::Make(schema_, num_rows_, std::move(columns));
}

}  // namespace higgins::arrow::json
