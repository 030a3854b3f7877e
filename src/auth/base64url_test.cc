#include "auth/base64url.h"

#include <gtest/gtest.h>

#include <string>

namespace higgins::auth {
namespace {

// RFC 4648 §10's test vectors, unpadded.
TEST(Base64UrlTest, EncodesRfc4648Vectors) {
  EXPECT_EQ(Base64UrlEncode(""), "");
  EXPECT_EQ(Base64UrlEncode("f"), "Zg");
  EXPECT_EQ(Base64UrlEncode("fo"), "Zm8");
  EXPECT_EQ(Base64UrlEncode("foo"), "Zm9v");
  EXPECT_EQ(Base64UrlEncode("foob"), "Zm9vYg");
  EXPECT_EQ(Base64UrlEncode("fooba"), "Zm9vYmE");
  EXPECT_EQ(Base64UrlEncode("foobar"), "Zm9vYmFy");
}

TEST(Base64UrlTest, UsesTheUrlAlphabetForTheLastTwoSextets) {
  EXPECT_EQ(Base64UrlEncode("\xfb\xff\xbf"), "-_-_");  // "+/+/" in standard base64
  EXPECT_EQ(Base64UrlDecode("-_-_"), std::string("\xfb\xff\xbf"));
}

TEST(Base64UrlTest, DecodeInvertsEncodeForEveryByteAndLength) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= bytes.size(); n += 7) {
    const std::string prefix = bytes.substr(0, n);
    EXPECT_EQ(Base64UrlDecode(Base64UrlEncode(prefix)), prefix) << n;
  }
}

TEST(Base64UrlTest, DecodeRefusesPaddingStandardAlphabetAndImpossibleLengths) {
  EXPECT_EQ(Base64UrlDecode("Zg=="), std::nullopt);
  EXPECT_EQ(Base64UrlDecode("+/+/"), std::nullopt);
  EXPECT_EQ(Base64UrlDecode("Zm9 v"), std::nullopt);
  EXPECT_EQ(Base64UrlDecode(std::string("Zm\0v", 4)), std::nullopt);
  EXPECT_EQ(Base64UrlDecode("Zm9vY"), std::nullopt);  // 4n + 1 characters
  EXPECT_EQ(Base64UrlDecode(""), std::string());
}

TEST(Base64UrlTest, AlphabetCheck) {
  EXPECT_TRUE(IsBase64UrlAlphabet(""));
  EXPECT_TRUE(IsBase64UrlAlphabet("AZaz09-_"));
  EXPECT_FALSE(IsBase64UrlAlphabet("a.b"));
  EXPECT_FALSE(IsBase64UrlAlphabet("a="));
  EXPECT_FALSE(IsBase64UrlAlphabet("\xc3\xa9"));
}

}  // namespace
}  // namespace higgins::auth
