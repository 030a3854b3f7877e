#include "higgins/status.h"

#include <gtest/gtest.h>

#include "higgins/result.h"

namespace higgins {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return Status::InvalidArgument("not positive: " + std::to_string(v));
  return v;
}

Result<int> Doubled(int v) {
  HIGGINS_ASSIGN_OR_RETURN(int x, ParsePositive(v));
  return x * 2;
}

Status CheckBoth(int a, int b) {
  HIGGINS_RETURN_IF_ERROR(ParsePositive(a).status());
  HIGGINS_RETURN_IF_ERROR(ParsePositive(b).status());
  return Status::OK();
}

TEST(StatusTest, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(StatusTest, ErrorToStringNamesCode) {
  Status s = Status::NotFound("stream 'x'");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.ToString(), "NotFound: stream 'x'");
}

TEST(StatusTest, WithContextPrefixesMessageAndKeepsCode) {
  Status s = Status::Corruption("bad offset").WithContext("column 'a'");
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.message(), "column 'a': bad offset");
  EXPECT_TRUE(Status::OK().WithContext("x").ok());
}

TEST(ResultTest, AssignOrReturnPropagatesError) {
  EXPECT_EQ(*Doubled(4), 8);
  Result<int> r = Doubled(-1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "not positive: -1");
  EXPECT_EQ(r.value_or(7), 7);
}

TEST(ResultTest, ReturnIfErrorStopsAtFirstFailure) {
  EXPECT_TRUE(CheckBoth(1, 2).ok());
  EXPECT_EQ(CheckBoth(1, -2).message(), "not positive: -2");
  EXPECT_EQ(CheckBoth(-1, -2).message(), "not positive: -1");
}

TEST(ResultTest, MoveOnlyValue) {
  Result<std::unique_ptr<int>> r(std::make_unique<int>(5));
  ASSERT_TRUE(r.ok());
  std::unique_ptr<int> p = std::move(r).value();
  EXPECT_EQ(*p, 5);
}

}  // namespace
}  // namespace higgins
