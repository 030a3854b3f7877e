// Full-jitter backoff bounds and the transient-answer classification.
#include "s3/backoff.h"

#include <gtest/gtest.h>

namespace higgins::s3 {
namespace {

using std::chrono::milliseconds;

TEST(FullJitterBackoffTest, StaysWithinTheDoublingCeiling) {
  std::mt19937_64 rng(1);
  for (int attempt = 1; attempt <= 8; ++attempt) {
    const int64_t ceiling = std::min<int64_t>(5000, int64_t{100} << (attempt - 1));
    int64_t largest = 0;
    for (int i = 0; i < 2000; ++i) {
      const milliseconds d = FullJitterBackoff(milliseconds(100), milliseconds(5000), attempt, rng);
      ASSERT_GE(d.count(), 0);
      ASSERT_LE(d.count(), ceiling);
      largest = std::max(largest, d.count());
    }
    EXPECT_GT(largest, ceiling / 2) << "the delays should spread over the whole range";
  }
}

TEST(FullJitterBackoffTest, HugeAttemptNumbersDoNotOverflow) {
  std::mt19937_64 rng(2);
  for (int attempt : {63, 64, 1000, INT32_MAX}) {
    const milliseconds d =
        FullJitterBackoff(milliseconds(1'000'000), milliseconds(INT64_MAX / 2), attempt, rng);
    EXPECT_GE(d.count(), 0);
  }
  EXPECT_EQ(FullJitterBackoff(milliseconds(0), milliseconds(10), 3, rng).count(), 0);
}

TEST(TransientTest, ServerErrorsThrottlingAndRequestTimeout) {
  EXPECT_TRUE(IsTransientHttpStatus(500, ""));
  EXPECT_TRUE(IsTransientHttpStatus(503, "SlowDown"));
  EXPECT_TRUE(IsTransientHttpStatus(429, ""));
  EXPECT_TRUE(IsTransientHttpStatus(400, "RequestTimeout"));
  EXPECT_FALSE(IsTransientHttpStatus(400, "InvalidArgument"));
  EXPECT_FALSE(IsTransientHttpStatus(403, "SignatureDoesNotMatch"));
  EXPECT_FALSE(IsTransientHttpStatus(404, "NoSuchKey"));
  EXPECT_FALSE(IsTransientHttpStatus(200, ""));
  EXPECT_FALSE(IsTransientHttpStatus(501, "NotImplemented"));
}

}  // namespace
}  // namespace higgins::s3
