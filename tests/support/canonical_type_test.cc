#include "tests/support/canonical_type.h"

#include <gtest/gtest.h>

namespace higgins::testing {
namespace {

using arrow::DataType;
using arrow::TimeUnit;

TEST(CanonicalTypeName, ParametersAreSpelledInParenthesesWithoutSpaces) {
  EXPECT_EQ(CanonicalTypeName(DataType::Decimal128(10, 2)), "decimal128(10,2)");
  EXPECT_EQ(CanonicalTypeName(DataType::Timestamp(TimeUnit::kMicro)), "timestamp(us)");
  EXPECT_EQ(CanonicalTypeName(DataType::Timestamp(TimeUnit::kSecond, "UTC")), "timestamp(s,UTC)");
  EXPECT_EQ(CanonicalTypeName(DataType::Time64(TimeUnit::kNano)), "time64(ns)");
  EXPECT_EQ(CanonicalTypeName(DataType::Duration(TimeUnit::kMilli)), "duration(ms)");
  EXPECT_EQ(CanonicalTypeName(DataType::FixedSizeBinary(3)), "fixed_size_binary(3)");
  EXPECT_EQ(CanonicalTypeName(DataType::LargeUtf8()), "large_utf8");
}

TEST(ParseCanonicalTypeName, EveryTagRoundTrips) {
  for (const char* tag : {"null",
                          "bool",
                          "int8",
                          "int16",
                          "int32",
                          "int64",
                          "uint8",
                          "uint16",
                          "uint32",
                          "uint64",
                          "float16",
                          "float32",
                          "float64",
                          "utf8",
                          "large_utf8",
                          "binary",
                          "large_binary",
                          "fixed_size_binary(16)",
                          "date32",
                          "date64",
                          "decimal128(38,10)",
                          "timestamp(ns)",
                          "timestamp(ms,Europe/Paris)",
                          "time32(s)",
                          "time32(ms)",
                          "time64(us)",
                          "time64(ns)",
                          "duration(s)",
                          "duration(ns)"}) {
    auto type = ParseCanonicalTypeName(tag);
    ASSERT_TRUE(type.ok()) << tag << ": " << type.status().ToString();
    EXPECT_EQ(CanonicalTypeName(*type), tag);
  }
}

TEST(ParseCanonicalTypeName, RejectsUnknownTagsAndMismatchedUnits) {
  for (const char* tag :
       {"", "int", "list", "decimal128(10)", "time32(us)", "time64(s)", "duration(s,UTC)",
        "timestamp(minutes)", "fixed_size_binary(x)", "decimal128(10, 2)"}) {
    EXPECT_EQ(ParseCanonicalTypeName(tag).status().code(), StatusCode::kInvalidArgument) << tag;
  }
}

}  // namespace
}  // namespace higgins::testing
