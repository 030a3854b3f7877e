#include "server/kafka/kafka_requests.h"

#include <gtest/gtest.h>

#include <optional>
#include <string_view>

namespace higgins::server::kafka {
namespace {

// docs/kafka.md, "Values as Arrow": the client id asks for Arrow values with the word
// `higgins.value=arrow`.
TEST(ValueFormatTest, ClientIdAsksForArrowWithAWordOfItsOwn) {
  struct Case {
    std::optional<std::string_view> client_id;
    ValueFormat expected;
  };
  const Case cases[] = {
      {std::nullopt, ValueFormat::kJson},
      {"", ValueFormat::kJson},
      {"rdkafka", ValueFormat::kJson},
      {"higgins.value=arrow", ValueFormat::kArrow},
      {"dashboard;higgins.value=arrow", ValueFormat::kArrow},
      {"higgins.value=arrow dashboard", ValueFormat::kArrow},
      {"a,higgins.value=arrow,b", ValueFormat::kArrow},
      {"higgins.value=json", ValueFormat::kJson},
      {"higgins.value=arrows", ValueFormat::kJson},
      {"xhiggins.value=arrow", ValueFormat::kJson},
      {"my.higgins.value=arrow", ValueFormat::kJson},
      {"higgins.value=arrow-2", ValueFormat::kJson},
      {"higgins.value=arrowx;higgins.value=arrow", ValueFormat::kArrow},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ValueFormatFor(c.client_id), c.expected) << c.client_id.value_or("(null)");
  }
}

TEST(LooksLikeArrowIpcTest, FileMagicOrContinuationMarker) {
  EXPECT_TRUE(LooksLikeArrowIpc("ARROW1\0\0"));
  EXPECT_TRUE(LooksLikeArrowIpc(std::string_view("\xff\xff\xff\xff\x10\0\0\0", 8)));
  EXPECT_FALSE(LooksLikeArrowIpc("{\"id\":1}"));
  EXPECT_FALSE(LooksLikeArrowIpc(std::string_view("\xff\xff\xff\xff", 4)));
}

}  // namespace
}  // namespace higgins::server::kafka
