#include "stream/partitioning.h"

#include <gtest/gtest.h>

namespace higgins::stream {
namespace {

// Values of Kafka's Utils.murmur2 (the same cases as Kafka's UtilsTest, cross-checked with
// kafkajs' Java-compatible murmur2).
TEST(Murmur2Test, MatchesKafka) {
  EXPECT_EQ(Murmur2("21"), -973932308);
  EXPECT_EQ(Murmur2("foobar"), -790332482);
  EXPECT_EQ(Murmur2("a-little-bit-long-string"), -985981536);
  EXPECT_EQ(Murmur2("a-little-bit-longer-string"), -1486304829);
  EXPECT_EQ(Murmur2("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"), -58897971);
  EXPECT_EQ(Murmur2("abc"), 479470107);
  EXPECT_EQ(Murmur2("key"), -1079937367);
  EXPECT_EQ(Murmur2(""), 275646681);
}

TEST(BucketOfTest, KafkaDefaultPartitioner) {
  // (murmur2 & 0x7fffffff) % n
  EXPECT_EQ(BucketOf("key", 1), BucketId(0));
  EXPECT_EQ(BucketOf("key", 8), BucketId((-1079937367 & 0x7fffffff) % 8));
  EXPECT_EQ(BucketOf("abc", 10), BucketId(479470107u % 10));
}

TEST(CheckSameKeysTest, EqualKeysPassAndEveryDifferenceIsNamed) {
  arrow::ArrayBuilder strings(arrow::DataType::Utf8());
  ASSERT_TRUE(strings.AppendBinary("a").ok());
  ASSERT_TRUE(strings.AppendBinary("b").ok());
  strings.AppendNull();
  arrow::Array s = strings.Finish();
  const std::string a = "a", b = "b", c = "c";
  const std::string* same[] = {&a, &b};
  EXPECT_TRUE(CheckSameKeys(s, same, "id").ok());
  const std::string* changed[] = {&a, &c};
  EXPECT_EQ(CheckSameKeys(s, changed, "id").message(),
            "row 1: the module changed the partition key from 'c' to 'b'");
  const std::string* to_null[] = {&a, &b, &c};
  EXPECT_EQ(CheckSameKeys(s, to_null, "id").message(),
            "row 2: partition key 'id': the partition key is null");
  arrow::ArrayBuilder ints(arrow::DataType::Int64());
  ints.AppendPrimitive<int64_t>(-12);
  ints.AppendPrimitive<int64_t>(42);
  const std::string minus12 = "-12", forty_two = "42", other = "43";
  const std::string* int_keys[] = {&minus12, &forty_two};
  arrow::Array i = ints.Finish();
  EXPECT_TRUE(CheckSameKeys(i, int_keys, "n").ok());
  const std::string* int_changed[] = {&minus12, &other};
  EXPECT_EQ(CheckSameKeys(i, int_changed, "n").message(),
            "row 1: the module changed the partition key from '43' to '42'");
}

arrow::Array Strings(const std::vector<std::string>& values) {
  arrow::ArrayBuilder b(arrow::DataType::Utf8());
  for (const auto& v : values) EXPECT_TRUE(b.AppendBinary(v).ok());
  return b.Finish();
}

TEST(SameKeyColumnTest, EqualBuffersPassAndAnyDifferenceOrUnknownCaseIsNotSame) {
  const arrow::Array in = Strings({"k1", "k22", "k333"});
  EXPECT_TRUE(SameKeyColumn(Strings({"k1", "k22", "k333"}), in));
  EXPECT_FALSE(SameKeyColumn(Strings({"k1", "k23", "k333"}), in));  // one byte differs
  EXPECT_FALSE(SameKeyColumn(Strings({"k1", "k2", "2k333"}), in));  // same bytes, other cuts
  EXPECT_FALSE(SameKeyColumn(Strings({"k1", "k22"}), in));          // fewer rows
  // Slices compare their own rows: equal offsets from the same start.
  EXPECT_TRUE(SameKeyColumn(in.Slice(1, 2), Strings({"k0", "k22", "k333"}).Slice(1, 2)));
  // Offsets that start apart are rebased.
  EXPECT_TRUE(SameKeyColumn(Strings({"k22", "k333"}), in.Slice(1, 2)));
  EXPECT_FALSE(SameKeyColumn(Strings({"k22", "k334"}), in.Slice(1, 2)));
  EXPECT_FALSE(SameKeyColumn(Strings({"k223", "k33"}), in.Slice(1, 2)));
  arrow::ArrayBuilder with_null(arrow::DataType::Utf8());
  ASSERT_TRUE(with_null.AppendBinary("k1").ok());
  with_null.AppendNull();
  ASSERT_TRUE(with_null.AppendBinary("k333").ok());
  EXPECT_FALSE(SameKeyColumn(with_null.Finish(), in));
  auto ints = [](std::vector<int64_t> values) {
    arrow::ArrayBuilder b(arrow::DataType::Int64());
    for (int64_t v : values) b.AppendPrimitive<int64_t>(v);
    return b.Finish();
  };
  EXPECT_TRUE(SameKeyColumn(ints({-12, 42, 7}).Slice(1, 2), ints({0, 42, 7}).Slice(1, 2)));
  EXPECT_FALSE(SameKeyColumn(ints({-12, 42, 7}), ints({-12, 42, 8})));
  EXPECT_FALSE(SameKeyColumn(ints({1, 2, 3}), in));  // other types
}

TEST(PartitionKeyOfTest, StringsAndIntegers) {
  arrow::ArrayBuilder strings(arrow::DataType::Utf8());
  ASSERT_TRUE(strings.AppendBinary("customer-1").ok());
  ASSERT_TRUE(strings.AppendBinary("").ok());
  strings.AppendNull();
  ASSERT_TRUE(strings.AppendBinary(std::string_view("a\0b", 3)).ok());
  arrow::Array s = strings.Finish();
  std::string key;
  ASSERT_TRUE(PartitionKeyOf(s, 0, &key).ok());
  EXPECT_EQ(key, "customer-1");
  EXPECT_EQ(PartitionKeyOf(s, 1, &key).message(), "the partition key is empty");
  EXPECT_EQ(PartitionKeyOf(s, 2, &key).message(), "the partition key is null");
  EXPECT_EQ(PartitionKeyOf(s, 3, &key).message(), "the partition key contains a zero byte");

  arrow::ArrayBuilder ints(arrow::DataType::Int64());
  ints.AppendPrimitive<int64_t>(-12);
  arrow::Array i = ints.Finish();
  ASSERT_TRUE(PartitionKeyOf(i, 0, &key).ok());
  EXPECT_EQ(key, "-12");
  arrow::ArrayBuilder big(arrow::DataType::UInt64());
  big.AppendPrimitive<uint64_t>(18446744073709551615ull);
  ASSERT_TRUE(PartitionKeyOf(big.Finish(), 0, &key).ok());
  EXPECT_EQ(key, "18446744073709551615");
}

TEST(CheckQueryKeyTest, IntegerKeysMustBeCanonicalDecimal) {
  const arrow::DataType int32 = arrow::DataType::Int32();
  EXPECT_TRUE(CheckQueryKey(int32, "42").ok());
  EXPECT_TRUE(CheckQueryKey(int32, "-7").ok());
  EXPECT_TRUE(CheckQueryKey(int32, "0").ok());
  for (const char* bad :
       {"abc", "", "00", "+0", "-0", "042", "4 2", "1e3", "99999999999999999999"}) {
    const Status s = CheckQueryKey(int32, bad);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(CheckQueryKey(int32, "abc").message(),
            "partition key 'abc' is not an integer in decimal (the stream's partition key is "
            "int32; write it like 42 or -7)");
  EXPECT_TRUE(CheckQueryKey(arrow::DataType::UInt64(), "18446744073709551615").ok());
  EXPECT_FALSE(CheckQueryKey(arrow::DataType::UInt64(), "-1").ok());
}

TEST(CheckQueryKeyTest, StringKeysAreAnyText) {
  EXPECT_TRUE(CheckQueryKey(arrow::DataType::Utf8(), "00").ok());
  EXPECT_TRUE(CheckQueryKey(arrow::DataType::Utf8(), "abc").ok());
}

}  // namespace
}  // namespace higgins::stream
