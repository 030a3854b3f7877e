#include "higgins/arrow/type.h"

#include <gtest/gtest.h>

#include <utility>

#include "common/tz_database.h"

namespace higgins::arrow {
namespace {

TEST(TypeTagTest, EveryDesignTagParses) {
  struct Case {
    const char* tag;
    DataType type;
  };
  const Case cases[] = {
      {"string", DataType::Utf8()},        {"large_string", DataType::LargeUtf8()},
      {"bytes", DataType::Binary()},       {"large_bytes", DataType::LargeBinary()},
      {"bool", DataType::Bool()},          {"int8", DataType::Int8()},
      {"int16", DataType::Int16()},        {"int32", DataType::Int32()},
      {"int64", DataType::Int64()},        {"uint8", DataType::UInt8()},
      {"uint16", DataType::UInt16()},      {"uint32", DataType::UInt32()},
      {"uint64", DataType::UInt64()},      {"float16", DataType::Float16()},
      {"float32", DataType::Float32()},    {"float64", DataType::Float64()},
      {"date32", DataType::Date32()},      {"date64", DataType::Date64()},
      {"decimal", DataType::Decimal128(38, 10)},
      {"decimal(10, 2)", DataType::Decimal128(10, 2)},
      {"timestamp", DataType::Timestamp(TimeUnit::kMilli)},
      {"timestamp(us)", DataType::Timestamp(TimeUnit::kMicro)},
      {"timestamp(ns, UTC)", DataType::Timestamp(TimeUnit::kNano, "UTC")},
      {"timestamp(s,Europe/Paris)", DataType::Timestamp(TimeUnit::kSecond, "Europe/Paris")},
      {"timestamp(ms,+05:30)", DataType::Timestamp(TimeUnit::kMilli, "+05:30")},
      {"timestamp(us,America/Argentina/Buenos_Aires)",
       DataType::Timestamp(TimeUnit::kMicro, "America/Argentina/Buenos_Aires")},
      {"fixed_size_binary(1048576)", DataType::FixedSizeBinary(1 << 20)},
      {"time32(ms)", DataType::Time32(TimeUnit::kMilli)},
      {"time64(ns)", DataType::Time64(TimeUnit::kNano)},
      {"duration(us)", DataType::Duration(TimeUnit::kMicro)},
      {"fixed_size_binary(16)", DataType::FixedSizeBinary(16)},
      {"null", DataType::Null()},
      {"utf8", DataType::Utf8()},
      {"decimal128(5,0)", DataType::Decimal128(5, 0)},
  };
  for (const Case& c : cases) {
    Result<DataType> t = ParseTypeTag(c.tag);
    ASSERT_TRUE(t.ok()) << c.tag << ": " << t.status().ToString();
    EXPECT_EQ(*t, c.type) << c.tag;
    // The canonical tag parses back to the same type.
    Result<DataType> back = ParseTypeTag(TypeTag(*t));
    ASSERT_TRUE(back.ok()) << TypeTag(*t);
    EXPECT_EQ(*back, *t) << TypeTag(*t);
  }
}

TEST(TypeTagTest, UnknownTagListsValidTags) {
  Result<DataType> t = ParseTypeTag("int33");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("unknown type tag 'int33'"), std::string::npos);
  EXPECT_NE(t.status().message().find("valid tags: string"), std::string::npos);
}

constexpr std::string_view kValidTagList =
    "valid tags: string, large_string, bytes, large_bytes, bool, int8, int16, int32, int64, "
    "uint8, uint16, uint32, uint64, float16, float32, float64, date32, date64, decimal, "
    "decimal(P,S), timestamp, timestamp(UNIT[,TZ]), time32(s|ms), time64(us|ns), "
    "duration(UNIT), fixed_size_binary(N), null";

TEST(TypeTagTest, AMistypedTagSuggestsTheNearest) {
  EXPECT_EQ(ParseTypeTag("int23").status().message(),
            "unknown type tag 'int23' (did you mean int32?); " + std::string(kValidTagList));
  EXPECT_EQ(ParseTypeTag("strng").status().message(),
            "unknown type tag 'strng' (did you mean string?); " + std::string(kValidTagList));
  EXPECT_EQ(
      ParseTypeTag("timestmp(ms)").status().message(),
      "unknown type tag 'timestmp(ms)' (did you mean timestamp?); " + std::string(kValidTagList));
}

TEST(TypeTagTest, ATagNearNothingGetsTheListAlone) {
  EXPECT_EQ(ParseTypeTag("varchar").status().message(),
            "unknown type tag 'varchar'; " + std::string(kValidTagList));
}

TEST(TypeTagTest, TimeZonesAreCheckedAgainstTheTzDatabase) {
  if (!IsTzZone("UTC").has_value()) GTEST_SKIP() << "no tz database on this system";
  EXPECT_TRUE(ParseTypeTag("timestamp(ms, America/Argentina/Buenos_Aires)").ok());
  const std::string why = "time zone 'Not/AZone' is not in the tz database (" + TzDatabaseDir() +
                          "): use a zone name like UTC or Europe/Paris, or an offset like +02:00";
  EXPECT_EQ(
      ParseTypeTag("timestamp(ms, Not/AZone)").status().message(),
      "unknown type tag 'timestamp(ms, Not/AZone)' (" + why + "); " + std::string(kValidTagList));
}

TEST(TypeTagTest, BadParametersAreRejected) {
  for (const char* tag : {"decimal(39,2)", "decimal(0,0)", "decimal(5,6)", "decimal(5)",
                          "time32(us)", "time64(s)", "timestamp(minutes)", "timestamp()",
                          "fixed_size_binary(0)", "fixed_size_binary(x)", "int32(4)", "decimal(5,2",
                          "timestamp(ms, )", "timestamp(ms,))", "timestamp(ms,+25:00)",
                          "timestamp(ms,a b)", "timestamp(ms,+2:00)", "timestamp(ms,1UTC)",
                          "fixed_size_binary(1048577)", "fixed_size_binary(2147483647)"}) {
    EXPECT_FALSE(ParseTypeTag(tag).ok()) << tag;
  }
}

TEST(TypeTagTest, BlanksAroundTokensAreAllowed) {
  const std::pair<const char*, DataType> cases[] = {
      {" int32 ", DataType::Int32()},
      {"\tbool\t", DataType::Bool()},
      {"decimal( 5 , 2 )", DataType::Decimal128(5, 2)},
      {" decimal ( 5 ,2 ) ", DataType::Decimal128(5, 2)},
      {"timestamp( ms , UTC )", DataType::Timestamp(TimeUnit::kMilli, "UTC")},
      {"fixed_size_binary(\t4\t)", DataType::FixedSizeBinary(4)},
  };
  for (const auto& [tag, type] : cases) {
    Result<DataType> t = ParseTypeTag(tag);
    ASSERT_TRUE(t.ok()) << tag << ": " << t.status().ToString();
    EXPECT_EQ(*t, type) << tag;
  }
}

TEST(TypeTagTest, BlanksInsideTokensAndOtherWhiteSpaceAreRefused) {
  for (const char* tag : {"int 32", "decimal(5 2)", "decimal(1 0,2)", "time32(m s)", "int32\n",
                          "\nint32", "\rbool", "decimal(5,\n2)", "timestamp(ms,\vUTC)", "\fint8"}) {
    EXPECT_FALSE(ParseTypeTag(tag).ok()) << tag;
  }
}

TEST(DataTypeTest, LayoutAndWidths) {
  EXPECT_EQ(DataType::Bool().bit_width(), 1);
  EXPECT_EQ(DataType::Decimal128(10, 2).bit_width(), 128);
  EXPECT_EQ(DataType::FixedSizeBinary(3).bit_width(), 24);
  EXPECT_EQ(DataType::Utf8().num_buffers(), 3);
  EXPECT_EQ(DataType::Int8().num_buffers(), 2);
  EXPECT_EQ(DataType::Null().num_buffers(), 0);
  EXPECT_EQ(DataType::LargeBinary().layout(), Layout::kLargeVarBinary);
  EXPECT_TRUE(DataType::Duration(TimeUnit::kNano).is_temporal());
}

TEST(DataTypeTest, ToStringMatchesArrowNames) {
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMilli, "UTC").ToString(), "timestamp[ms, tz=UTC]");
  EXPECT_EQ(DataType::Decimal128(10, 2).ToString(), "decimal128(10, 2)");
  EXPECT_EQ(DataType::Float16().ToString(), "halffloat");
}

TEST(DataTypeTest, EqualityComparesParameters) {
  EXPECT_FALSE(DataType::Timestamp(TimeUnit::kMilli) == DataType::Timestamp(TimeUnit::kMilli, "UTC"));
  EXPECT_FALSE(DataType::Decimal128(10, 2) == DataType::Decimal128(10, 3));
  EXPECT_TRUE(DataType::Int32() == DataType::Int32());
}

}  // namespace
}  // namespace higgins::arrow
