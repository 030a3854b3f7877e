// Percent-encoding, canonical queries, endpoints and bucket URLs.
#include "s3/s3_address.h"

#include <gtest/gtest.h>

namespace higgins::s3 {
namespace {

TEST(UriEncodeTest, KeepsUnreservedAndOptionallySlash) {
  EXPECT_EQ(UriEncode("AZaz09-_.~", false), "AZaz09-_.~");
  EXPECT_EQ(UriEncode("a/b", true), "a/b");
  EXPECT_EQ(UriEncode("a/b", false), "a%2Fb");
}

TEST(UriEncodeTest, EncodesEverythingElseUpperCaseHex) {
  EXPECT_EQ(UriEncode("a b=c+d*e:f?g&h%i", true), "a%20b%3Dc%2Bd%2Ae%3Af%3Fg%26h%25i");
  EXPECT_EQ(UriEncode("\xC3\xA9t\xC3\xA9", true), "%C3%A9t%C3%A9");  // "été"
  EXPECT_EQ(UriEncode(std::string_view("\x00\xFF", 2), true), "%00%FF");
}

TEST(CanonicalQueryTest, SortsEncodesAndAlwaysWritesEquals) {
  EXPECT_EQ(CanonicalQuery({}), "");
  EXPECT_EQ(CanonicalQuery({{"uploads", ""}}), "uploads=");
  EXPECT_EQ(CanonicalQuery({{"uploadId", "x/y+z"}, {"partNumber", "3"}}),
            "partNumber=3&uploadId=x%2Fy%2Bz");
  EXPECT_EQ(CanonicalQuery({{"prefix", "a b"}, {"list-type", "2"}, {"continuation-token", "t=="}}),
            "continuation-token=t%3D%3D&list-type=2&prefix=a%20b");
}

TEST(ParseEndpointTest, AcceptsSchemeHostPort) {
  auto e = ParseEndpoint("http://127.0.0.1:4568", "us-east-1");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(*e, (Endpoint{false, "127.0.0.1:4568"}));
  auto s = ParseEndpoint("HTTPS://s3.eu-west-1.amazonaws.com/", "eu-west-1");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (Endpoint{true, "s3.eu-west-1.amazonaws.com"}));
  auto v6 = ParseEndpoint("http://[::1]:9000", "us-east-1");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->authority, "[::1]:9000");
}

TEST(ParseEndpointTest, EmptyMeansAwsOfTheRegion) {
  auto e = ParseEndpoint("", "ap-south-1");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(*e, (Endpoint{true, "s3.ap-south-1.amazonaws.com"}));
  EXPECT_EQ(ParseEndpoint("", "Bad Region").status().code(), StatusCode::kInvalidArgument);
}

TEST(ParseEndpointTest, RefusesWhatDoesNotParse) {
  for (const char* bad :
       {"127.0.0.1:4568", "ftp://host", "http://", "http://host:", "http://host:0",
        "http://host:65536", "http://host:12ab", "http://host/path", "http://user@host",
        "http://ho st", "http://[::1", "http://[::1]x", "http://host?x=1"}) {
    auto e = ParseEndpoint(bad, "us-east-1");
    EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(BucketAddressTest, PathStyle) {
  auto a = BucketAddress::Make({false, "127.0.0.1:4568"}, "my_Bucket", true);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->ObjectUrl("dir/a b", {}), "http://127.0.0.1:4568/my_Bucket/dir/a%20b");
  EXPECT_EQ(a->ObjectUrl("k", {{"uploads", ""}}), "http://127.0.0.1:4568/my_Bucket/k?uploads=");
  EXPECT_EQ(a->BucketUrl({{"list-type", "2"}}), "http://127.0.0.1:4568/my_Bucket?list-type=2");
}

TEST(BucketAddressTest, VirtualHostedStyle) {
  auto a = BucketAddress::Make({true, "s3.us-east-1.amazonaws.com"}, "logs.example", false);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->ObjectUrl("x/y", {}), "https://logs.example.s3.us-east-1.amazonaws.com/x/y");
  EXPECT_EQ(a->BucketUrl({}), "https://logs.example.s3.us-east-1.amazonaws.com/");
}

TEST(BucketAddressTest, RefusesUnusableBucketNames) {
  EXPECT_FALSE(BucketAddress::Make({false, "h"}, "", true).ok());
  EXPECT_FALSE(BucketAddress::Make({false, "h"}, "a/b", true).ok());
  EXPECT_FALSE(BucketAddress::Make({false, "h"}, "Upper", false).ok());
  EXPECT_FALSE(BucketAddress::Make({false, "h"}, "ab", false).ok());
  EXPECT_FALSE(BucketAddress::Make({false, "h"}, "-abc", false).ok());
  EXPECT_FALSE(BucketAddress::Make({false, "[::1]:9000"}, "abc", false).ok());
}

}  // namespace
}  // namespace higgins::s3
