#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::arrow {

/// The Arrow logical types Higgins supports. Layouts follow the Arrow Columnar Format 1.5
/// ("Physical Memory Layout"); IPC type tags are mapped in ipc/metadata.cc.
enum class TypeId : uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kUtf8,
  kLargeUtf8,
  kBinary,
  kLargeBinary,
  kFixedSizeBinary,
  kDate32,     // int32 days since 1970-01-01
  kDate64,     // int64 milliseconds since the epoch
  kTimestamp,  // int64 in `unit` since the epoch, optional time zone
  kTime32,     // int32 seconds or milliseconds since midnight
  kTime64,     // int64 microseconds or nanoseconds since midnight
  kDuration,   // int64 in `unit`
  kDecimal128, // 16-byte two's complement little-endian unscaled integer
};

enum class TimeUnit : uint8_t { kSecond = 0, kMilli = 1, kMicro = 2, kNano = 3 };

/// "s", "ms", "us", "ns".
std::string_view TimeUnitName(TimeUnit unit);

/// Physical layout of a type's buffers (Arrow spec "Buffer Listing for Each Layout").
enum class Layout : uint8_t {
  kNull,           // no buffers
  kFixedWidth,     // validity, values (bool: bit-packed values)
  kVarBinary,      // validity, int32 offsets, data
  kLargeVarBinary, // validity, int64 offsets, data
};

/// A value type describing one Arrow data type, parameters included. Cheap to copy (the time zone
/// is the only heap member). Equality compares every parameter.
class DataType {
 public:
  DataType() = default;

  static DataType Null() { return DataType(TypeId::kNull); }
  static DataType Bool() { return DataType(TypeId::kBool); }
  static DataType Int8() { return DataType(TypeId::kInt8); }
  static DataType Int16() { return DataType(TypeId::kInt16); }
  static DataType Int32() { return DataType(TypeId::kInt32); }
  static DataType Int64() { return DataType(TypeId::kInt64); }
  static DataType UInt8() { return DataType(TypeId::kUInt8); }
  static DataType UInt16() { return DataType(TypeId::kUInt16); }
  static DataType UInt32() { return DataType(TypeId::kUInt32); }
  static DataType UInt64() { return DataType(TypeId::kUInt64); }
  static DataType Float16() { return DataType(TypeId::kFloat16); }
  static DataType Float32() { return DataType(TypeId::kFloat32); }
  static DataType Float64() { return DataType(TypeId::kFloat64); }
  static DataType Utf8() { return DataType(TypeId::kUtf8); }
  static DataType LargeUtf8() { return DataType(TypeId::kLargeUtf8); }
  static DataType Binary() { return DataType(TypeId::kBinary); }
  static DataType LargeBinary() { return DataType(TypeId::kLargeBinary); }
  static DataType Date32() { return DataType(TypeId::kDate32); }
  static DataType Date64() { return DataType(TypeId::kDate64); }
  /// 0 <= byte_width <= kMaxFixedSizeBinaryWidth (checked by Validate()).
  static DataType FixedSizeBinary(int32_t byte_width);
  /// precision 1..38, 0 <= scale <= precision is the supported range (checked by Validate()).
  static DataType Decimal128(int32_t precision, int32_t scale);
  static DataType Timestamp(TimeUnit unit, std::string timezone = {});
  /// unit must be kSecond or kMilli.
  static DataType Time32(TimeUnit unit);
  /// unit must be kMicro or kNano.
  static DataType Time64(TimeUnit unit);
  static DataType Duration(TimeUnit unit);

  TypeId id() const { return id_; }
  /// Decimal128 only.
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  /// FixedSizeBinary: bytes per value.
  int32_t byte_width() const { return byte_width_; }
  /// Timestamp, Time32, Time64, Duration.
  TimeUnit unit() const { return unit_; }
  /// Timestamp only; empty means no time zone ("naive" local time in Arrow terms).
  const std::string& timezone() const { return timezone_; }

  Layout layout() const;
  /// Bits per value for fixed-width layouts (1 for bool); 0 for other layouts.
  int64_t bit_width() const;
  /// Number of IPC buffers: 0 for null, 2 for fixed width, 3 for variable width.
  int num_buffers() const;

  bool is_integer() const { return id_ >= TypeId::kInt8 && id_ <= TypeId::kUInt64; }
  bool is_signed_integer() const { return id_ >= TypeId::kInt8 && id_ <= TypeId::kInt64; }
  bool is_unsigned_integer() const { return id_ >= TypeId::kUInt8 && id_ <= TypeId::kUInt64; }
  bool is_floating() const { return id_ >= TypeId::kFloat16 && id_ <= TypeId::kFloat64; }
  bool is_string() const { return id_ == TypeId::kUtf8 || id_ == TypeId::kLargeUtf8; }
  /// utf8, large_utf8, binary, large_binary.
  bool is_var_binary() const { return id_ >= TypeId::kUtf8 && id_ <= TypeId::kLargeBinary; }
  /// date32/64, timestamp, time32/64, duration: stored as a plain signed integer.
  bool is_temporal() const { return id_ >= TypeId::kDate32 && id_ <= TypeId::kDuration; }

  /// Checks the parameters (decimal precision/scale, time units, byte width).
  Status Validate() const;

  /// Arrow-style display name: "int32", "utf8", "decimal128(10, 2)", "timestamp[ms, tz=UTC]",
  /// "time32[s]", "duration[ns]", "fixed_size_binary[16]".
  std::string ToString() const;

  friend bool operator==(const DataType& a, const DataType& b) {
    return a.id_ == b.id_ && a.precision_ == b.precision_ && a.scale_ == b.scale_ &&
           a.byte_width_ == b.byte_width_ && a.unit_ == b.unit_ && a.timezone_ == b.timezone_;
  }

 private:
  explicit DataType(TypeId id) : id_(id) {}

  TypeId id_ = TypeId::kNull;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t byte_width_ = 0;
  TimeUnit unit_ = TimeUnit::kSecond;
  std::string timezone_;
};

/// Default precision and scale of the bare `decimal` configuration tag.
inline constexpr int32_t kDefaultDecimalPrecision = 38;
inline constexpr int32_t kDefaultDecimalScale = 10;
inline constexpr int32_t kMaxDecimal128Precision = 38;
/// Explicit limit on fixed_size_binary widths (1 MiB per value): every slot, null or not, costs
/// the full width, so wider values belong in binary/large_binary.
inline constexpr int32_t kMaxFixedSizeBinaryWidth = 1 << 20;

/// Parses a configuration type tag (docs/configuration.md, "Type tags"): `string large_string bytes
/// large_bytes bool int8..int64 uint8..uint64 float16 float32 float64 date32 date64 decimal
/// decimal(P,S) timestamp timestamp(UNIT) timestamp(UNIT,TZ) time32(UNIT) time64(UNIT)
/// duration(UNIT) fixed_size_binary(N) null`, plus the Arrow names utf8, large_utf8, binary,
/// large_binary, boolean and decimal128(P,S) as aliases. Whitespace inside parentheses is ignored.
/// Errors: InvalidArgument naming the tag and listing the valid ones.
Result<DataType> ParseTypeTag(std::string_view tag);

/// The canonical configuration tag for a type; ParseTypeTag(TypeTag(t)) == t.
std::string TypeTag(const DataType& type);

}  // namespace higgins::arrow
