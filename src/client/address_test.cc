#include "client/address.h"

#include <gtest/gtest.h>

namespace higgins::client_internal {
namespace {

TEST(AddressTest, HostAndPort) {
  auto parsed = ParseAddress("broker.example:4932");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->host, "broker.example");
  EXPECT_EQ(parsed->port, 4932);
}

TEST(AddressTest, BracketedIpv6) {
  auto parsed = ParseAddress("[::1]:65535");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->host, "::1");
  EXPECT_EQ(parsed->port, 65535);
  EXPECT_EQ(FormatAddress(parsed->host, parsed->port), "[::1]:65535");
  EXPECT_EQ(FormatAddress("127.0.0.1", 1), "127.0.0.1:1");
}

TEST(AddressTest, MalformedAddressesAreInvalidArguments) {
  for (const char* bad : {"", "host", "host:", ":4932", "host:0", "host:65536", "host:49x",
                          "::1:4932", "[::1]", "[::1:4932", "[]:4932", "host:-1"}) {
    auto parsed = ParseAddress(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(parsed.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << parsed.status().message();
  }
}

}  // namespace
}  // namespace higgins::client_internal
