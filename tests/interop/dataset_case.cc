#include "tests/interop/dataset_case.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "higgins/arrow/float16.h"
#include "tests/support/canonical_type.h"
#include "tests/support/int128_text.h"
#include "tests/support/whole_file.h"

namespace higgins::interop {
namespace {

using arrow::ArrayBuilder;
using arrow::TypeId;
using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

template <typename T>
bool ParseInteger(element e, T* out) {
  std::string_view text;
  if (e.get(text) == simdjson::SUCCESS) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && end == text.data() + text.size();
  }
  int64_t v = 0;
  if (e.get(v) != simdjson::SUCCESS || !std::in_range<T>(v)) return false;
  *out = static_cast<T>(v);
  return true;
}

bool ParseFloat(element e, double* out) {
  std::string_view text;
  if (e.get(text) == simdjson::SUCCESS) {
    if (text == "NaN")
      *out = std::numeric_limits<double>::quiet_NaN();
    else if (text == "Infinity")
      *out = std::numeric_limits<double>::infinity();
    else if (text == "-Infinity")
      *out = -std::numeric_limits<double>::infinity();
    else if (text == "-0")
      *out = -0.0;
    else
      return false;
    return true;
  }
  return e.get(*out) == simdjson::SUCCESS;
}

bool ParseHex(std::string_view text, std::string* out) {
  if (text.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < text.size(); i += 2) {
    unsigned byte = 0;
    auto [end, ec] = std::from_chars(text.data() + i, text.data() + i + 2, byte, 16);
    if (ec != std::errc() || end != text.data() + i + 2) return false;
    out->push_back(static_cast<char>(byte));
  }
  return true;
}

template <typename T>
bool AppendInteger(ArrayBuilder& b, element e) {
  T v{};
  if (!ParseInteger(e, &v)) return false;
  b.AppendPrimitive<T>(v);
  return true;
}

// Appends one canonical value (docs/conformance.md); false if it is not canonical for the type.
bool AppendCanonical(ArrayBuilder& b, element e) {
  if (e.is_null()) {
    b.AppendNull();
    return true;
  }
  switch (b.type().id()) {
    case TypeId::kNull: return false;
    case TypeId::kBool: {
      bool v = false;
      if (e.get(v) != simdjson::SUCCESS) return false;
      b.AppendBool(v);
      return true;
    }
    case TypeId::kInt8: return AppendInteger<int8_t>(b, e);
    case TypeId::kInt16: return AppendInteger<int16_t>(b, e);
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return AppendInteger<int32_t>(b, e);
    case TypeId::kUInt8: return AppendInteger<uint8_t>(b, e);
    case TypeId::kUInt16: return AppendInteger<uint16_t>(b, e);
    case TypeId::kUInt32: return AppendInteger<uint32_t>(b, e);
    case TypeId::kUInt64: return e.is_string() && AppendInteger<uint64_t>(b, e);
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTimestamp:
    case TypeId::kTime64:
    case TypeId::kDuration: return e.is_string() && AppendInteger<int64_t>(b, e);
    case TypeId::kFloat16:
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      double v = 0;
      if (!ParseFloat(e, &v)) return false;
      if (b.type().id() == TypeId::kFloat16) {
        b.AppendPrimitive<uint16_t>(arrow::FloatToHalf(static_cast<float>(v)));
      } else if (b.type().id() == TypeId::kFloat32) {
        b.AppendPrimitive<float>(static_cast<float>(v));
      } else {
        b.AppendPrimitive<double>(v);
      }
      return true;
    }
    case TypeId::kDecimal128: {
      std::string_view text;
      if (e.get(text) != simdjson::SUCCESS) return false;
      std::optional<__int128> v = testing::ParseInt128(text);
      if (!v) return false;
      b.AppendDecimal128(*v);
      return true;
    }
    case TypeId::kUtf8:
    case TypeId::kLargeUtf8: {
      std::string_view text;
      return e.get(text) == simdjson::SUCCESS && b.AppendBinary(text).ok();
    }
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary: {
      std::string_view text;
      std::string bytes;
      return e.get(text) == simdjson::SUCCESS && ParseHex(text, &bytes) &&
             b.AppendBinary(bytes).ok();
    }
  }
  return false;
}

struct CaseJson {
  object json;
  array fields;
};

Result<CaseJson> FindCase(array cases, std::string_view name) {
  for (element c : cases) {
    std::string_view n;
    if (c["name"].get(n) == simdjson::SUCCESS && n == name) {
      CaseJson out;
      if (c.get(out.json) != simdjson::SUCCESS) break;
      std::string_view fields_of;
      if (out.json["fields_of"].get(fields_of) == simdjson::SUCCESS) {
        HIGGINS_ASSIGN_OR_RETURN(CaseJson base, FindCase(cases, fields_of));
        out.fields = base.fields;
      } else if (out.json["fields"].get(out.fields) != simdjson::SUCCESS) {
        return Status::InvalidArgument("case '" + std::string(name) + "' has no fields");
      }
      return out;
    }
  }
  return Status::NotFound("no case '" + std::string(name) + "' in the dataset");
}

Result<arrow::SchemaPtr> BuildSchema(array fields) {
  std::vector<arrow::Field> out;
  for (element f : fields) {
    std::string_view name;
    std::string_view tag;
    if (f["name"].get(name) != simdjson::SUCCESS || f["type"].get(tag) != simdjson::SUCCESS) {
      return Status::InvalidArgument("dataset field without name or type");
    }
    bool nullable = true;
    if (f["nullable"].error() != simdjson::NO_SUCH_FIELD) {
      if (f["nullable"].get(nullable) != simdjson::SUCCESS) {
        return Status::InvalidArgument("field '" + std::string(name) + "': nullable not a bool");
      }
    }
    HIGGINS_ASSIGN_OR_RETURN(arrow::DataType type, testing::ParseCanonicalTypeName(tag));
    out.emplace_back(std::string(name), std::move(type), nullable);
  }
  return arrow::MakeSchema(std::move(out));
}

Result<arrow::RecordBatch> BuildBatch(const DatasetCase& c, size_t batch_index, array rows,
                                      bool sliced) {
  std::vector<element> all(rows.begin(), rows.end());
  for (element row : all) {
    if (!row.is_object())
      return Status::InvalidArgument("case '" + c.name + "': a row is not an object");
  }
  const auto n = static_cast<int64_t>(all.size());
  if (sliced) {
    std::vector<element> reversed(all.rbegin(), all.rend());
    std::vector<element> padded = reversed;
    padded.insert(padded.end(), all.begin(), all.end());
    padded.insert(padded.end(), reversed.begin(), reversed.end());
    all = std::move(padded);
  }
  std::vector<arrow::Array> columns;
  for (const arrow::Field& f : c.schema->fields()) {
    ArrayBuilder b(f.type);
    for (size_t r = 0; r < all.size(); ++r) {
      element value;
      const bool present = all[r][f.name].get(value) == simdjson::SUCCESS;
      if (!present) {
        b.AppendNull();
      } else if (!AppendCanonical(b, value)) {
        return Status::InvalidArgument("case '" + c.name + "' batch " +
                                       std::to_string(batch_index) + " row " + std::to_string(r) +
                                       " field '" + f.name + "': not a canonical " +
                                       testing::CanonicalTypeName(f.type) + " value");
      }
    }
    columns.push_back(b.Finish());
  }
  HIGGINS_ASSIGN_OR_RETURN(
      arrow::RecordBatch batch,
      arrow::RecordBatch::Make(c.schema, static_cast<int64_t>(all.size()), std::move(columns)));
  return sliced ? batch.Slice(n, n) : batch;
}

}  // namespace

Result<DatasetCase> LoadDatasetCase(const std::string& path, std::string_view name) {
  HIGGINS_ASSIGN_OR_RETURN(Buffer text, testing::ReadWholeFile(path));
  simdjson::dom::parser parser;
  element root;
  array cases;
  if (parser.parse(reinterpret_cast<const char*>(text.data()), text.size()).get(root) !=
          simdjson::SUCCESS ||
      root["cases"].get(cases) != simdjson::SUCCESS) {
    return Status::InvalidArgument("'" + path + "' is not a dataset (no cases array)");
  }
  HIGGINS_ASSIGN_OR_RETURN(CaseJson json, FindCase(cases, name));
  DatasetCase out;
  out.name = std::string(name);
  HIGGINS_ASSIGN_OR_RETURN(out.schema, BuildSchema(json.fields));
  bool sliced = false;
  if (json.json["sliced"].error() != simdjson::NO_SUCH_FIELD &&
      json.json["sliced"].get(sliced) != simdjson::SUCCESS) {
    return Status::InvalidArgument("case '" + out.name + "': sliced is not a bool");
  }
  array batches;
  if (json.json["batches"].get(batches) != simdjson::SUCCESS) {
    return Status::InvalidArgument("case '" + out.name + "' has no batches");
  }
  for (element rows : batches) {
    array row_array;
    if (rows.get(row_array) != simdjson::SUCCESS) {
      return Status::InvalidArgument("case '" + out.name + "': a batch is not an array of rows");
    }
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch,
                             BuildBatch(out, out.batches.size(), row_array, sliced));
    out.batches.push_back(std::move(batch));
  }
  return out;
}

}  // namespace higgins::interop
