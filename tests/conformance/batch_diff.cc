#include "tests/conformance/batch_diff.h"

#include <algorithm>
#include <string>

#include "tests/support/canonical_value.h"

namespace higgins::conformance {
namespace {

using arrow::Array;

std::string MetadataText(const arrow::KeyValueMetadata& metadata) {
  std::string out = "{";
  for (const auto& [key, value] : metadata) {
    if (out.size() > 1) out += ", ";
    out += key + "=" + value;
  }
  return out + "}";
}

std::string FieldText(const arrow::Field& f) {
  std::string out = f.ToString();
  if (!f.metadata.empty()) out += " metadata " + MetadataText(f.metadata);
  return out;
}

std::string DescribeColumnDifference(const std::string& name, const Array& expected,
                                     const Array& actual, int max_rows) {
  std::string out;
  if (!(expected.type() == actual.type()) || expected.length() != actual.length()) {
    return "column '" + name + "': expected " + expected.type().ToString() + " x " +
           std::to_string(expected.length()) + ", got " + actual.type().ToString() + " x " +
           std::to_string(actual.length()) + "\n";
  }
  if (expected.null_count() != actual.null_count()) {
    out += "column '" + name + "': expected null_count " + std::to_string(expected.null_count()) +
           ", got " + std::to_string(actual.null_count()) + "\n";
  }
  int shown = 0;
  for (int64_t i = 0; i < expected.length() && shown < max_rows; ++i) {
    const std::string e = testing::CanonicalValue(expected, i);
    const std::string a = testing::CanonicalValue(actual, i);
    if (e != a) {
      out += "column '" + name + "' row " + std::to_string(i) + ": expected " + e + ", got " + a +
             "\n";
      ++shown;
    }
  }
  if (out.empty()) {
    out = "column '" + name + "': Array::Equals is false but every row renders the same\n";
  }
  return out;
}

}  // namespace

std::string DescribeSchemaDifference(const arrow::Schema& expected, const arrow::Schema& actual) {
  std::string out;
  const size_t n = std::max(expected.num_fields(), actual.num_fields());
  for (size_t i = 0; i < n; ++i) {
    const std::string e = i < expected.num_fields() ? FieldText(expected.field(i)) : "(none)";
    const std::string a = i < actual.num_fields() ? FieldText(actual.field(i)) : "(none)";
    if (e != a) out += "field " + std::to_string(i) + ": expected " + e + ", got " + a + "\n";
  }
  if (expected.metadata() != actual.metadata()) {
    out += "schema metadata: expected " + MetadataText(expected.metadata()) + ", got " +
           MetadataText(actual.metadata()) + "\n";
  }
  return out;
}

std::string DescribeBatchDifference(const arrow::RecordBatch& expected,
                                    const arrow::RecordBatch& actual, int max_rows) {
  if (expected.Equals(actual)) return {};
  std::string out = DescribeSchemaDifference(*expected.schema(), *actual.schema());
  if (!out.empty()) return out;
  if (expected.num_rows() != actual.num_rows()) {
    return "expected " + std::to_string(expected.num_rows()) + " rows, got " +
           std::to_string(actual.num_rows()) + "\n";
  }
  for (int c = 0; c < expected.num_columns(); ++c) {
    if (!expected.column(c).Equals(actual.column(c))) {
      out += DescribeColumnDifference(expected.schema()->field(static_cast<size_t>(c)).name,
                                      expected.column(c), actual.column(c), max_rows);
    }
  }
  return out.empty() ? "RecordBatch::Equals is false but no column differs\n" : out;
}

}  // namespace higgins::conformance
