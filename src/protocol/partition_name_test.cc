#include "protocol/partition_name.h"

#include <gtest/gtest.h>

namespace higgins::protocol {
namespace {

std::string Padded(std::string key) {
  key.resize(kPaddedPartitionBytes, '\0');
  return key;
}

TEST(PartitionNameTest, PaddedThirtyTwoByteNameIsUnpadded) {
  auto key = DecodePartitionName(Padded("customer-1"));
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(*key, "customer-1");
}

TEST(PartitionNameTest, UnpaddedShortKeyIsTakenAsItIs) {
  EXPECT_EQ(DecodePartitionName("1").value(), "1");
}

TEST(PartitionNameTest, ThirtyTwoBytesWithoutPaddingAreTheKey) {
  const std::string key(kPaddedPartitionBytes, 'k');
  EXPECT_EQ(DecodePartitionName(key).value(), key);
  EXPECT_EQ(EncodePartitionName(key), key);
}

TEST(PartitionNameTest, LongNamesAreTakenAsTheyAreUpToTheLimit) {
  const std::string longer(100, 'L');
  EXPECT_EQ(DecodePartitionName(longer).value(), longer);
  EXPECT_EQ(EncodePartitionName(longer), longer);

  const std::string at_limit(kMaxPartitionKeyBytes, 'x');
  EXPECT_EQ(DecodePartitionName(at_limit).value(), at_limit);

  const auto over = DecodePartitionName(std::string(kMaxPartitionKeyBytes + 1, 'x'));
  EXPECT_EQ(over.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(over.status().message(),
            "invalid partition key: 4097 bytes, more than the limit of 4096");
}

TEST(PartitionNameTest, TrailingZerosAreOnlyPaddingInThirtyTwoByteNames) {
  // 33 bytes: not the padded form, so the zero byte is part of the key and refused.
  std::string wire(kPaddedPartitionBytes, 'a');
  wire.push_back('\0');
  EXPECT_EQ(DecodePartitionName(wire).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DecodePartitionName(std::string("abc\0", 4)).status().message(),
            "invalid partition key: zero byte at position 3");
}

TEST(PartitionNameTest, EmbeddedZeroByteIsRefused) {
  const auto padded = DecodePartitionName(Padded(std::string("ab\0cd", 5)));
  EXPECT_EQ(padded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(padded.status().message(), "invalid partition key: zero byte at position 2");

  EXPECT_EQ(DecodePartitionName(std::string("\0x", 2)).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(PartitionNameTest, EmptyKeyIsRefused) {
  EXPECT_EQ(DecodePartitionName("").status().message(), "invalid partition key: empty");
  EXPECT_EQ(DecodePartitionName(std::string(kPaddedPartitionBytes, '\0')).status().message(),
            "invalid partition key: empty");
}

TEST(PartitionNameTest, EncodePadsShortKeysToThirtyTwoBytes) {
  EXPECT_EQ(EncodePartitionName("42"), Padded("42"));
}

TEST(PartitionNameTest, EncodeThenDecodeGivesTheKeyBackAtEveryLength) {
  for (size_t n = 1; n <= 80; ++n) {
    std::string key(n, '\0');
    for (size_t i = 0; i < n; ++i) key[i] = static_cast<char>('a' + i % 26);
    auto back = DecodePartitionName(EncodePartitionName(key));
    ASSERT_TRUE(back.ok()) << n;
    EXPECT_EQ(*back, key);
  }
}

TEST(PartitionNameTest, NonUtf8BytesAreKeptAsBytes) {
  const std::string key = "\xff\xfe";
  EXPECT_EQ(DecodePartitionName(Padded(key)).value(), key);
}

}  // namespace
}  // namespace higgins::protocol
