#include "subscribe_target.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace higgins::bench {
namespace {

TEST(FormatRecord, StampRoundTrips) {
  std::string record;
  FormatRecord({.key = 17, .stamp_ns = 1'234'567'890'123, .payload_bytes = 10}, &record);
  EXPECT_EQ(record, R"({"id":"k17","ts":1234567890123,"payload":"xxxxxxxxxx"})");
  EXPECT_EQ(ParseStamp(record), 1'234'567'890'123);
}

TEST(FormatRecord, PayloadPadsToTheRequestedSize) {
  std::string bare, padded;
  FormatRecord({.key = 999, .stamp_ns = NowNs()}, &bare);
  FormatRecord({.key = 999, .stamp_ns = NowNs(), .payload_bytes = 100 - bare.size()}, &padded);
  EXPECT_EQ(padded.size(), 100u);
}

TEST(ParseStamp, MissingOrMalformedStampIsMinusOne) {
  EXPECT_EQ(ParseStamp(R"({"id":"k1","payload":"x"})"), -1);
  EXPECT_EQ(ParseStamp(R"({"id":"k1","ts":"soon"})"), -1);
  EXPECT_EQ(ParseStamp(R"({"ts":)"), -1);
  EXPECT_EQ(ParseStamp(""), -1);
}

TEST(Arrivals, OnlyRecordsStampedInTheWindowAreMeasured) {
  Arrivals arrivals;
  arrivals.SetWindow(100, 200);
  arrivals.Add(99, 150, false);   // warm-up
  arrivals.Add(100, 130, false);  // measured: 30
  arrivals.Add(199, 210, true);   // measured: 11, a redelivery
  arrivals.Add(200, 250, false);  // after the window
  arrivals.Add(-1, 260, false);   // no stamp
  EXPECT_EQ(arrivals.received(), 5u);
  EXPECT_EQ(arrivals.latency_ns(), (std::vector<uint64_t>{30, 11}));
  EXPECT_EQ(arrivals.redelivered(), 1u);
  EXPECT_EQ(arrivals.unstamped(), 1u);
  EXPECT_EQ(arrivals.first_ns(), 150);
  EXPECT_EQ(arrivals.last_ns(), 260);
  EXPECT_EQ(arrivals.last_measured_ns(), 210);
}

TEST(InFlightLimit, AcquireBeyondTheLimitWaitsForARelease) {
  InFlightLimit limit(2);
  EXPECT_FALSE(limit.Acquire());
  EXPECT_FALSE(limit.Acquire());
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    limit.Release();
  });
  EXPECT_TRUE(limit.Acquire());  // a stall
  releaser.join();
}

}  // namespace
}  // namespace higgins::bench
