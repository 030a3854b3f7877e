#include "progress.h"

#include <gtest/gtest.h>

namespace higgins::cli {
namespace {

TEST(Progress, KnownSizeShowsABarAndPercent) {
  ProgressState state{450, 1000, 120000, 2.0};
  EXPECT_EQ(FormatProgress(state), "[#########...........]  45%  120000 records  60000 records/s");
}

TEST(Progress, CompleteInputFillsTheBar) {
  ProgressState state{1000, 1000, 7, 1.0};
  EXPECT_EQ(FormatProgress(state), "[####################] 100%  7 records  7 records/s");
}

TEST(Progress, UnknownSizeShowsRecordsOnly) {
  ProgressState state{450, std::nullopt, 10, 4.0};
  EXPECT_EQ(FormatProgress(state), "10 records  2 records/s");
}

TEST(Progress, NoTimeYetIsZeroPerSecond) {
  EXPECT_EQ(FormatRate(5, 0), "0 records/s");
}

TEST(Progress, BytesPastTheSizeStayAtOneHundredPercent) {
  ProgressState state{2000, 1000, 1, 1.0};
  EXPECT_EQ(FormatProgress(state).substr(0, 27), "[####################] 100%");
}

}  // namespace
}  // namespace higgins::cli
