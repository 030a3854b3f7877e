#include "server/kafka/producer_state.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "common/file_util.h"
#include "server/kafka/producer_ids.h"

namespace higgins::server::kafka {
namespace {

using higgins::kafka::ErrorCode;
using Verdict = ProducerStateTable::Verdict;
using Clock = ProducerStateTable::Clock;

constexpr int64_t kFirstId = 1000;

class ProducerStateTest : public ::testing::Test {
 protected:
  ProducerStateTable::Decision Begin(const ProducerBatch& batch,
                                     const std::string& partition = "p") {
    return table_.Begin(partition, batch, now_, [this](ErrorCode error, int64_t offset) {
      waited_.push_back({error, offset});
    });
  }
  /// Begins `batch` and expects it to be appended; then finishes it at `offset`.
  void Append(const ProducerBatch& batch, int64_t offset) {
    ASSERT_EQ(Begin(batch).verdict, Verdict::kAppend);
    EXPECT_TRUE(table_.Finish("p", batch, ErrorCode::kNone, offset).empty());
  }

  ProducerStateTable table_{
      ProducerStateTable::Options{.max_entries = 3, .expiry = std::chrono::seconds(60)},
      ProducerIdRange{.first = kFirstId, .end = kFirstId + 10}};
  Clock::time_point now_ = Clock::now();
  std::vector<std::pair<ErrorCode, int64_t>> waited_;
};

TEST(ProducerBatchTest, LastSequenceWraps) {
  EXPECT_EQ(ProducerBatch::Of(1, 0, 0, 10).last_sequence, 9);
  EXPECT_EQ(ProducerBatch::Of(1, 0, 2147483640, 10).last_sequence, 1);
  EXPECT_EQ(ProducerBatch::Of(1, 0, 5, 1).last_sequence, 5);
}

TEST_F(ProducerStateTest, GivesOutItsRangeOnce) {
  for (int64_t i = 0; i < 10; ++i) EXPECT_EQ(table_.NewProducerId(), kFirstId + i);
  EXPECT_EQ(table_.NewProducerId(), -1);
}

TEST_F(ProducerStateTest, RetriedBatchIsADuplicateWithItsOffset) {
  const int64_t id = table_.NewProducerId();
  Append(ProducerBatch::Of(id, 0, 0, 10), 100);
  Append(ProducerBatch::Of(id, 0, 10, 5), 110);
  auto again = Begin(ProducerBatch::Of(id, 0, 0, 10));
  EXPECT_EQ(again.verdict, Verdict::kDuplicate);
  EXPECT_EQ(again.base_offset, 100);
  again = Begin(ProducerBatch::Of(id, 0, 10, 5));
  EXPECT_EQ(again.verdict, Verdict::kDuplicate);
  EXPECT_EQ(again.base_offset, 110);
  Append(ProducerBatch::Of(id, 0, 15, 1), 115);
}

TEST_F(ProducerStateTest, KeepsTheLastFiveBatches) {
  const int64_t id = table_.NewProducerId();
  for (int32_t i = 0; i < 6; ++i) Append(ProducerBatch::Of(id, 0, i, 1), 10 * i);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 0, 1, 1)).verdict, Verdict::kDuplicate);
  // The first is forgotten: neither a duplicate nor the next.
  auto oldest = Begin(ProducerBatch::Of(id, 0, 0, 1));
  EXPECT_EQ(oldest.verdict, Verdict::kRefused);
  EXPECT_EQ(oldest.error, ErrorCode::kOutOfOrderSequenceNumber);
}

TEST_F(ProducerStateTest, GapsAndOverlapsAreOutOfOrder) {
  const int64_t id = table_.NewProducerId();
  auto first = Begin(ProducerBatch::Of(id, 0, 3, 1));  // ours, yet nothing seen: a gap
  EXPECT_EQ(first.verdict, Verdict::kRefused);
  EXPECT_EQ(first.error, ErrorCode::kOutOfOrderSequenceNumber);
  Append(ProducerBatch::Of(id, 0, 0, 4), 0);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 0, 5, 1)).error, ErrorCode::kOutOfOrderSequenceNumber);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 0, 2, 4)).error, ErrorCode::kOutOfOrderSequenceNumber);
  Append(ProducerBatch::Of(id, 0, 4, 1), 4);
}

TEST_F(ProducerStateTest, PartitionsHaveTheirOwnSequences) {
  const int64_t id = table_.NewProducerId();
  Append(ProducerBatch::Of(id, 0, 0, 2), 0);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 0, 0, 2), "q").verdict, Verdict::kAppend);
}

TEST_F(ProducerStateTest, AnEarlierProcessesProducerMustStartOver) {
  // Below kFirstId: given out by an earlier broker process, whose state is gone.
  auto lost = Begin(ProducerBatch::Of(7, 0, 40, 1));
  EXPECT_EQ(lost.verdict, Verdict::kRefused);
  EXPECT_EQ(lost.error, ErrorCode::kUnknownProducerId);
  EXPECT_EQ(Begin(ProducerBatch::Of(7, 0, 0, 1)).verdict, Verdict::kAppend);
}

TEST_F(ProducerStateTest, EpochsOrderProducers) {
  const int64_t id = table_.NewProducerId();
  Append(ProducerBatch::Of(id, 1, 0, 3), 0);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 0, 3, 1)).error, ErrorCode::kInvalidProducerEpoch);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 2, 3, 1)).error, ErrorCode::kOutOfOrderSequenceNumber);
  Append(ProducerBatch::Of(id, 2, 0, 1), 3);
  EXPECT_EQ(Begin(ProducerBatch::Of(id, 1, 3, 1)).error, ErrorCode::kInvalidProducerEpoch);
}

TEST_F(ProducerStateTest, ARetryWhileTheFirstAttemptIsBeingAppendedWaitsForIt) {
  const int64_t id = table_.NewProducerId();
  const ProducerBatch batch = ProducerBatch::Of(id, 0, 0, 3);
  ASSERT_EQ(Begin(batch).verdict, Verdict::kAppend);
  EXPECT_EQ(Begin(batch).verdict, Verdict::kWaiting);
  EXPECT_EQ(Begin(batch).verdict, Verdict::kWaiting);
  auto waiters = table_.Finish("p", batch, ErrorCode::kNone, 42);
  ASSERT_EQ(waiters.size(), 2u);
  for (auto& waiter : waiters) waiter(ErrorCode::kNone, 42);
  EXPECT_EQ(waited_.size(), 2u);
  EXPECT_EQ(waited_[0], std::make_pair(ErrorCode::kNone, int64_t{42}));
  EXPECT_EQ(Begin(batch).verdict, Verdict::kDuplicate);
}

TEST_F(ProducerStateTest, AFailedAppendCanBeRetried) {
  const int64_t id = table_.NewProducerId();
  Append(ProducerBatch::Of(id, 0, 0, 1), 0);
  const ProducerBatch batch = ProducerBatch::Of(id, 0, 1, 2);
  ASSERT_EQ(Begin(batch).verdict, Verdict::kAppend);
  EXPECT_TRUE(table_.Finish("p", batch, ErrorCode::kInvalidRecord, -1).empty());
  EXPECT_EQ(Begin(batch).verdict, Verdict::kAppend);
  // The first batch of a pair failing leaves nothing: it starts at 0 again.
  const int64_t other = table_.NewProducerId();
  const ProducerBatch first = ProducerBatch::Of(other, 0, 0, 2);
  ASSERT_EQ(Begin(first).verdict, Verdict::kAppend);
  table_.Finish("p", first, ErrorCode::kInvalidRecord, -1);
  EXPECT_EQ(Begin(first).verdict, Verdict::kAppend);
}

TEST_F(ProducerStateTest, BoundedAndExpiring) {
  for (int i = 0; i < 5; ++i) Append(ProducerBatch::Of(table_.NewProducerId(), 0, 0, 1), i);
  EXPECT_EQ(table_.size(), 3u);  // max_entries: the least recently used went
  table_.Expire(now_ + std::chrono::seconds(59));
  EXPECT_EQ(table_.size(), 3u);
  table_.Expire(now_ + std::chrono::seconds(60));
  EXPECT_EQ(table_.size(), 0u);
}

TEST_F(ProducerStateTest, RefusesNegativeFields) {
  EXPECT_EQ(Begin(ProducerBatch::Of(kFirstId, -1, 0, 1)).error, ErrorCode::kInvalidRecord);
  EXPECT_EQ(Begin(ProducerBatch{.producer_id = kFirstId, .epoch = 0, .first_sequence = -5}).error,
            ErrorCode::kInvalidRecord);
}

class ProducerIdsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/producer-ids-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { (void)RemoveTree(dir_); }
  std::string dir_;
};

TEST_F(ProducerIdsTest, EachClaimFollowsTheLast) {
  const std::string path = dir_ + "/kafka/producer-ids";
  auto first = ClaimProducerIds(path, 100);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->first, 0);
  EXPECT_EQ(first->end, 100);
  auto second = ClaimProducerIds(path, 100);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->first, 100);
  EXPECT_EQ(*ReadFileToString(path), "200\n");
}

TEST_F(ProducerIdsTest, RefusesADamagedFileAndExhaustion) {
  const std::string path = dir_ + "/producer-ids";
  std::ofstream(path) << "12x\n";
  auto damaged = ClaimProducerIds(path, 100);
  EXPECT_EQ(damaged.status().code(), StatusCode::kCorruption) << damaged.status().ToString();
  std::ofstream(path) << "9223372036854775800\n";
  auto used_up = ClaimProducerIds(path, 100);
  EXPECT_EQ(used_up.status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace higgins::server::kafka
