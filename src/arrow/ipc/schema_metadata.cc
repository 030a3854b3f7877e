#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrow/ipc/schema_metadata_internal.h"
#include "arrow/utf8.h"

namespace higgins::arrow::ipc::internal {
namespace {

namespace fb = ::flatbuffers;

using KeyValueVector = fb::Vector<fb::Offset<fbs::KeyValue>>;

// Names of the Type union members, indexed by tag, as they appear in Arrow's schema and in
// error messages ("type List is not supported").
constexpr std::array<std::string_view, 27> kTypeTagNames = {
    "NONE",          "Null",      "Int",           "FloatingPoint",
    "Binary",        "Utf8",      "Bool",          "Decimal",
    "Date",          "Time",      "Timestamp",     "Interval",
    "List",          "Struct",    "Union",         "FixedSizeBinary",
    "FixedSizeList", "Map",       "Duration",      "LargeBinary",
    "LargeUtf8",     "LargeList", "RunEndEncoded", "BinaryView",
    "Utf8View",      "ListView",  "LargeListView"};

std::string TypeTagName(fbs::Type tag) {
  const auto index = static_cast<size_t>(tag);
  if (index < kTypeTagNames.size()) return std::string(kTypeTagNames[index]);
  return "with union tag " + std::to_string(index);
}

// ----------------------------------------------------------------------------------------------
// Encoding

fb::Offset<KeyValueVector> BuildMetadata(fb::FlatBufferBuilder& fbb, const KeyValueMetadata& md) {
  if (md.empty()) return 0;
  std::vector<fb::Offset<fbs::KeyValue>> entries;
  entries.reserve(md.size());
  for (const auto& [key, value] : md) {
    const auto k = fbb.CreateString(key);
    const auto v = fbb.CreateString(value);
    entries.push_back(fbs::CreateKeyValue(fbb, k, v));
  }
  return fbb.CreateVector(entries);
}

fbs::TimeUnit ToFbsUnit(TimeUnit unit) {
  return static_cast<fbs::TimeUnit>(unit);
}

std::pair<fbs::Type, fb::Offset<void>> BuildType(fb::FlatBufferBuilder& fbb, const DataType& t) {
  auto integer = [&](int bits, bool is_signed) {
    return std::pair{fbs::Type_Int, fbs::CreateInt(fbb, bits, is_signed).Union()};
  };
  auto floating = [&](fbs::Precision p) {
    return std::pair{fbs::Type_FloatingPoint, fbs::CreateFloatingPoint(fbb, p).Union()};
  };
  switch (t.id()) {
    case TypeId::kNull: return {fbs::Type_Null, fbs::CreateNull(fbb).Union()};
    case TypeId::kBool: return {fbs::Type_Bool, fbs::CreateBool(fbb).Union()};
    case TypeId::kInt8: return integer(8, true);
    case TypeId::kInt16: return integer(16, true);
    case TypeId::kInt32: return integer(32, true);
    case TypeId::kInt64: return integer(64, true);
    case TypeId::kUInt8: return integer(8, false);
    case TypeId::kUInt16: return integer(16, false);
    case TypeId::kUInt32: return integer(32, false);
    case TypeId::kUInt64: return integer(64, false);
    case TypeId::kFloat16: return floating(fbs::Precision_HALF);
    case TypeId::kFloat32: return floating(fbs::Precision_SINGLE);
    case TypeId::kFloat64: return floating(fbs::Precision_DOUBLE);
    case TypeId::kUtf8: return {fbs::Type_Utf8, fbs::CreateUtf8(fbb).Union()};
    case TypeId::kLargeUtf8: return {fbs::Type_LargeUtf8, fbs::CreateLargeUtf8(fbb).Union()};
    case TypeId::kBinary: return {fbs::Type_Binary, fbs::CreateBinary(fbb).Union()};
    case TypeId::kLargeBinary: return {fbs::Type_LargeBinary, fbs::CreateLargeBinary(fbb).Union()};
    case TypeId::kFixedSizeBinary:
      return {fbs::Type_FixedSizeBinary, fbs::CreateFixedSizeBinary(fbb, t.byte_width()).Union()};
    case TypeId::kDate32: return {fbs::Type_Date, fbs::CreateDate(fbb, fbs::DateUnit_DAY).Union()};
    case TypeId::kDate64:
      return {fbs::Type_Date, fbs::CreateDate(fbb, fbs::DateUnit_MILLISECOND).Union()};
    case TypeId::kTimestamp: {
      const auto tz = t.timezone().empty() ? 0 : fbb.CreateString(t.timezone());
      return {fbs::Type_Timestamp, fbs::CreateTimestamp(fbb, ToFbsUnit(t.unit()), tz).Union()};
    }
    case TypeId::kTime32:
      return {fbs::Type_Time, fbs::CreateTime(fbb, ToFbsUnit(t.unit()), 32).Union()};
    case TypeId::kTime64:
      return {fbs::Type_Time, fbs::CreateTime(fbb, ToFbsUnit(t.unit()), 64).Union()};
    case TypeId::kDuration:
      return {fbs::Type_Duration, fbs::CreateDuration(fbb, ToFbsUnit(t.unit())).Union()};
    case TypeId::kDecimal128:
      return {fbs::Type_Decimal, fbs::CreateDecimal(fbb, t.precision(), t.scale(), 128).Union()};
  }
  return {fbs::Type_Null, fbs::CreateNull(fbb).Union()};
}

fb::Offset<fbs::Field> BuildField(fb::FlatBufferBuilder& fbb, const Field& field,
                                  const DictionaryField* dictionary) {
  const auto name = fbb.CreateString(field.name);
  const auto [tag, type] = BuildType(fbb, field.type);
  fb::Offset<fbs::DictionaryEncoding> encoding = 0;
  if (dictionary != nullptr) {
    const DataType& index = dictionary->index_type;
    const auto index_type =
        fbs::CreateInt(fbb, static_cast<int32_t>(index.bit_width()), index.is_signed_integer());
    encoding = fbs::CreateDictionaryEncoding(fbb, dictionary->id, index_type);
  }
  // Arrow C++ and JS both write an empty children vector for primitive types.
  const auto children = fbb.CreateVector(std::vector<fb::Offset<fbs::Field>>{});
  const auto metadata = BuildMetadata(fbb, field.metadata);
  return fbs::CreateField(fbb, name, field.nullable, tag, type, encoding, children, metadata);
}

// ----------------------------------------------------------------------------------------------
// Decoding

// A FlatBuffers string as std::string (empty when absent), or Corruption saying `what` is not
// valid UTF-8: Arrow requires UTF-8 for every string in the metadata, and names and metadata
// reach JSON output and error messages.
Result<std::string> ParseString(const fb::String* s, const std::string& what) {
  if (s == nullptr) return std::string();
  if (!IsValidUtf8(s->string_view())) return Status::Corruption(what + " is not valid UTF-8");
  return s->str();
}

Result<KeyValueMetadata> ParseMetadata(const KeyValueVector* entries) {
  KeyValueMetadata md;
  if (entries == nullptr) return md;
  md.reserve(entries->size());
  for (uint32_t i = 0; i < entries->size(); ++i) {
    const fbs::KeyValue* kv = entries->Get(i);
    HIGGINS_ASSIGN_OR_RETURN(std::string key,
                             ParseString(kv->key(), "custom metadata key " + std::to_string(i)));
    HIGGINS_ASSIGN_OR_RETURN(
        std::string value, ParseString(kv->value(), "custom metadata value of key '" + key + "'"));
    md.emplace_back(std::move(key), std::move(value));
  }
  return md;
}

Result<TimeUnit> ParseTimeUnit(fbs::TimeUnit unit) {
  if (unit < fbs::TimeUnit_MIN || unit > fbs::TimeUnit_MAX) {
    return Status::Corruption("invalid time unit " + std::to_string(unit));
  }
  return static_cast<TimeUnit>(unit);
}

// Parses the type of `field` (which is named `name` in errors); dictionary encoding and child
// fields are checked by the caller.
Result<DataType> ParseType(const fbs::Field& field) {
  const fbs::Type tag = field.type_type();
  const std::string type_name = TypeTagName(tag);
  if (tag == fbs::Type_NONE) return Status::Corruption("missing type");
  if (field.type() == nullptr) return Status::Corruption("type " + type_name + " has no table");
  auto invalid = [&](const std::string& what) {
    return Status::Corruption("type " + type_name + ": " + what);
  };
  switch (tag) {
    case fbs::Type_Null: return DataType::Null();
    case fbs::Type_Bool: return DataType::Bool();
    case fbs::Type_Utf8: return DataType::Utf8();
    case fbs::Type_LargeUtf8: return DataType::LargeUtf8();
    case fbs::Type_Binary: return DataType::Binary();
    case fbs::Type_LargeBinary: return DataType::LargeBinary();
    case fbs::Type_Int: {
      const fbs::Int& t = *field.type_as_Int();
      const bool s = t.is_signed();
      switch (t.bitWidth()) {
        case 8: return s ? DataType::Int8() : DataType::UInt8();
        case 16: return s ? DataType::Int16() : DataType::UInt16();
        case 32: return s ? DataType::Int32() : DataType::UInt32();
        case 64: return s ? DataType::Int64() : DataType::UInt64();
        default: return invalid("bitWidth " + std::to_string(t.bitWidth()));
      }
    }
    case fbs::Type_FloatingPoint:
      switch (field.type_as_FloatingPoint()->precision()) {
        case fbs::Precision_HALF: return DataType::Float16();
        case fbs::Precision_SINGLE: return DataType::Float32();
        case fbs::Precision_DOUBLE: return DataType::Float64();
        default: return invalid("unknown precision");
      }
    case fbs::Type_Date:
      switch (field.type_as_Date()->unit()) {
        case fbs::DateUnit_DAY: return DataType::Date32();
        case fbs::DateUnit_MILLISECOND: return DataType::Date64();
        default: return invalid("unknown unit");
      }
    case fbs::Type_Time: {
      const fbs::Time& t = *field.type_as_Time();
      HIGGINS_ASSIGN_OR_RETURN(TimeUnit unit, ParseTimeUnit(t.unit()));
      const bool coarse = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
      if (t.bitWidth() == 32 && coarse) return DataType::Time32(unit);
      if (t.bitWidth() == 64 && !coarse) return DataType::Time64(unit);
      return invalid("bitWidth " + std::to_string(t.bitWidth()) + " does not match unit " +
                     std::string(TimeUnitName(unit)));
    }
    case fbs::Type_Timestamp: {
      const fbs::Timestamp& t = *field.type_as_Timestamp();
      HIGGINS_ASSIGN_OR_RETURN(TimeUnit unit, ParseTimeUnit(t.unit()));
      auto timezone = ParseString(t.timezone(), "time zone");
      if (!timezone.ok()) return invalid(timezone.status().message());
      return DataType::Timestamp(unit, std::move(timezone).value());
    }
    case fbs::Type_Duration: {
      HIGGINS_ASSIGN_OR_RETURN(TimeUnit unit, ParseTimeUnit(field.type_as_Duration()->unit()));
      return DataType::Duration(unit);
    }
    case fbs::Type_FixedSizeBinary: {
      const int32_t width = field.type_as_FixedSizeBinary()->byteWidth();
      if (width < 0) return invalid("negative byteWidth");
      if (width > kMaxFixedSizeBinaryWidth) {
        return Status::NotSupported("type FixedSizeBinary with byteWidth " + std::to_string(width) +
                                    " is not supported (limit " +
                                    std::to_string(kMaxFixedSizeBinaryWidth) + ")");
      }
      return DataType::FixedSizeBinary(width);
    }
    case fbs::Type_Decimal: {
      const fbs::Decimal& t = *field.type_as_Decimal();
      if (t.bitWidth() != 128) {
        return Status::NotSupported("type Decimal with bitWidth " + std::to_string(t.bitWidth()) +
                                    " is not supported");
      }
      if (t.precision() < 1 || t.precision() > kMaxDecimal128Precision) {
        return invalid("precision " + std::to_string(t.precision()) + " is outside 1..38");
      }
      DataType type = DataType::Decimal128(t.precision(), t.scale());
      if (Status st = type.Validate(); !st.ok()) {
        return Status::NotSupported("type " + type.ToString() +
                                    " is not supported: " + st.message());
      }
      return type;
    }
    default: return Status::NotSupported("type " + type_name + " is not supported");
  }
}

// The index type of a DictionaryEncoding: an Int table, signed int32 when absent (Schema.fbs).
Result<DataType> ParseIndexType(const fbs::DictionaryEncoding& encoding) {
  if (encoding.dictionaryKind() != fbs::DictionaryKind_DenseArray) {
    return Status::NotSupported("dictionary kind " + std::to_string(encoding.dictionaryKind()) +
                                " is not supported (only DenseArray is)");
  }
  const fbs::Int* index = encoding.indexType();
  if (index == nullptr) return DataType::Int32();
  const bool s = index->is_signed();
  switch (index->bitWidth()) {
    case 8: return s ? DataType::Int8() : DataType::UInt8();
    case 16: return s ? DataType::Int16() : DataType::UInt16();
    case 32: return s ? DataType::Int32() : DataType::UInt32();
    case 64: return s ? DataType::Int64() : DataType::UInt64();
    default:
      return Status::Corruption("dictionary index type Int has bitWidth " +
                                std::to_string(index->bitWidth()));
  }
}

// Parses field number `index` of a schema (the index names it when its name is not UTF-8). A
// dictionary-encoded field gets its value type; its encoding goes to `*dictionary`.
Result<Field> ParseField(const fbs::Field& f, size_t index,
                         std::optional<DictionaryField>* dictionary) {
  Field field;
  HIGGINS_ASSIGN_OR_RETURN(field.name,
                           ParseString(f.name(), "the name of field " + std::to_string(index)));
  auto in_field = [&](const Status& st) {
    return Status(st.code(), "field '" + field.name + "': " + st.message());
  };
  auto type = ParseType(f);
  if (!type.ok() && f.dictionary() != nullptr &&
      type.status().code() == StatusCode::kNotSupported) {
    return in_field(Status::NotSupported(
        "dictionary-encoded type " + TypeTagName(f.type_type()) +
        " is not supported: dictionary values must have a flat type (nested types, and the "
        "dictionaries nested in them, are not supported)"));
  }
  if (!type.ok()) return in_field(type.status());
  field.type = std::move(type).value();
  dictionary->reset();
  if (const fbs::DictionaryEncoding* encoding = f.dictionary(); encoding != nullptr) {
    auto index_type = ParseIndexType(*encoding);
    if (!index_type.ok()) return in_field(index_type.status());
    *dictionary = DictionaryField{index, encoding->id(), std::move(index_type).value()};
  }
  if (f.children() != nullptr && f.children()->size() != 0) {
    return in_field(Status::NotSupported("type " + TypeTagName(f.type_type()) +
                                         " with child fields is not supported"));
  }
  field.nullable = f.nullable();
  auto metadata = ParseMetadata(f.custom_metadata());
  if (!metadata.ok()) return in_field(metadata.status());
  field.metadata = std::move(metadata).value();
  return field;
}

// Fields may share a dictionary (the same id), but then they share its value type too.
Status CheckSharedDictionary(const std::vector<Field>& fields,
                             const std::vector<DictionaryField>& earlier,
                             const DictionaryField& added) {
  for (const DictionaryField& other : earlier) {
    if (other.id != added.id) continue;
    const Field& a = fields[other.field_index];
    const Field& b = fields[added.field_index];
    if (!(a.type == b.type)) {
      return Status::Corruption("fields '" + a.name + "' and '" + b.name +
                                "' share dictionary id " + std::to_string(added.id) +
                                " but their value types differ (" + a.type.ToString() + ", " +
                                b.type.ToString() + ")");
    }
    break;
  }
  return Status::OK();
}

}  // namespace

fb::Offset<fbs::Schema> BuildSchema(fb::FlatBufferBuilder& fbb, const Schema& schema,
                                    std::span<const DictionaryField> dictionary_fields) {
  std::vector<fb::Offset<fbs::Field>> fields;
  fields.reserve(schema.num_fields());
  for (size_t i = 0; i < schema.num_fields(); ++i) {
    const DictionaryField* dictionary = nullptr;
    for (const DictionaryField& d : dictionary_fields) {
      if (d.field_index == i) dictionary = &d;
    }
    fields.push_back(BuildField(fbb, schema.field(i), dictionary));
  }
  const auto field_vector = fbb.CreateVector(fields);
  const auto metadata = BuildMetadata(fbb, schema.metadata());
  return fbs::CreateSchema(fbb, fbs::Endianness_Little, field_vector, metadata);
}

Result<SchemaPtr> ParseSchema(const fbs::Schema& schema, const IpcLimits& limits,
                              std::vector<DictionaryField>* dictionary_fields) {
  dictionary_fields->clear();
  if (schema.endianness() == fbs::Endianness_Big) {
    return Status::NotSupported("big-endian Arrow data is not supported");
  }
  if (schema.endianness() != fbs::Endianness_Little) {
    return Status::Corruption("schema has an invalid endianness value");
  }
  std::vector<Field> fields;
  if (const auto* entries = schema.fields(); entries != nullptr) {
    if (entries->size() > static_cast<size_t>(limits.max_fields)) {
      return Status::ResourceExhausted("schema has " + std::to_string(entries->size()) +
                                       " fields, more than the limit of " +
                                       std::to_string(limits.max_fields));
    }
    fields.reserve(entries->size());
    std::optional<DictionaryField> dictionary;
    for (uint32_t i = 0; i < entries->size(); ++i) {
      HIGGINS_ASSIGN_OR_RETURN(Field field, ParseField(*entries->Get(i), i, &dictionary));
      fields.push_back(std::move(field));
      if (dictionary) {
        HIGGINS_RETURN_IF_ERROR(CheckSharedDictionary(fields, *dictionary_fields, *dictionary));
        dictionary_fields->push_back(*dictionary);
      }
    }
  }
  auto metadata = ParseMetadata(schema.custom_metadata());
  if (!metadata.ok()) return metadata.status().WithContext("schema");
  return MakeSchema(std::move(fields), std::move(metadata).value());
}

}  // namespace higgins::arrow::ipc::internal
