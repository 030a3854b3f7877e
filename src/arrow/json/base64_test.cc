#include "arrow/json/base64.h"

#include <gtest/gtest.h>

namespace higgins::arrow::json {
namespace {

std::string Encode(std::string_view bytes) {
  std::string out;
  Base64Encode(bytes, &out);
  return out;
}

TEST(Base64Test, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {{"", ""},
                                                                   {"f", "Zg=="},
                                                                   {"fo", "Zm8="},
                                                                   {"foo", "Zm9v"},
                                                                   {"foob", "Zm9vYg=="},
                                                                   {"fooba", "Zm9vYmE="},
                                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Encode(plain), encoded);
    std::string decoded;
    ASSERT_TRUE(Base64Decode(encoded, &decoded)) << encoded;
    EXPECT_EQ(decoded, plain);
  }
}

TEST(Base64Test, AllByteValuesRoundTrip) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  std::string decoded;
  ASSERT_TRUE(Base64Decode(Encode(bytes), &decoded));
  EXPECT_EQ(decoded, bytes);
}

TEST(Base64Test, BadInputIsRejected) {
  std::string out;
  for (std::string_view bad : {"Zg", "Zg=", "Zm9", "Z===", "Zg==Zg==", "Zm9v\n", "Zm-v", "Zm_v",
                               "Zh==", "Zm9=", " Zm9v", "=Zm9", "===="}) {
    EXPECT_FALSE(Base64Decode(bad, &out)) << bad;
  }
}

}  // namespace
}  // namespace higgins::arrow::json
