// CRC-32C: the published check values, both paths, and extension across splits.
#include "kafka/crc32c.h"

#include <gtest/gtest.h>

#include <string>

namespace higgins::kafka {
namespace {

TEST(Crc32cTest, CheckValueOfTheDigits) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32cExtendPortable(0, "123456789"), 0xE3069283u);
}

TEST(Crc32cTest, Rfc3720Vectors) {
  // RFC 3720, appendix B.4: 32 bytes of zeros, of 0xFF, and ascending 0..31.
  const std::string zeros(32, '\0');
  const std::string ones(32, '\xff');
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(Crc32c(zeros), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(ones), 0x62A8AB43u);
  EXPECT_EQ(Crc32c(ascending), 0x46DD794Eu);
  EXPECT_EQ(Crc32cExtendPortable(0, zeros), 0x8A9136AAu);
  EXPECT_EQ(Crc32cExtendPortable(0, ones), 0x62A8AB43u);
  EXPECT_EQ(Crc32cExtendPortable(0, ascending), 0x46DD794Eu);
}

TEST(Crc32cTest, EmptyInputKeepsTheCrc) {
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32cExtend(0xE3069283u, ""), 0xE3069283u);
}

TEST(Crc32cTest, ExtendingEqualsOneCallAtEverySplitAndBothPathsAgree) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>((i * 131 + 7) & 0xff));
  const uint32_t whole = Crc32c(data);
  EXPECT_EQ(Crc32cExtendPortable(0, data), whole);
  const std::string_view view(data);
  for (size_t split = 0; split <= 40; ++split) {
    EXPECT_EQ(Crc32cExtend(Crc32c(view.substr(0, split)), view.substr(split)), whole) << split;
    EXPECT_EQ(
        Crc32cExtendPortable(Crc32cExtendPortable(0, view.substr(0, split)), view.substr(split)),
        whole)
        << split;
  }
  // Unaligned starts and odd lengths through both paths.
  for (size_t start = 0; start < 9; ++start) {
    for (size_t len : {0, 1, 7, 8, 9, 63, 64, 65}) {
      const auto part = view.substr(start, len);
      EXPECT_EQ(Crc32c(part), Crc32cExtendPortable(0, part)) << start << " " << len;
    }
  }
}

}  // namespace
}  // namespace higgins::kafka
