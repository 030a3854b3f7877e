#include "subscription/subscription_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "common/file_util.h"

namespace higgins::subscription {
namespace {

SubscriptionDecl Decl() {
  SubscriptionDecl d;
  d.id = SubscriptionId("0123456789abcdef");
  d.stream = "amount";
  d.stream_id = StreamId(7);
  d.start = SubscriptionStartKind::kCurrent;
  d.timeout_ms = 1500;
  d.start_offsets = {{"a", 3}, {"b", 0}};
  return d;
}

SubscriptionRecord Ack(std::vector<OffsetRange> ranges) {
  SubscriptionRecord r;
  r.type = SubscriptionRecord::Type::kAcknowledge;
  r.acknowledged = std::move(ranges);
  return r;
}

TEST(SubscriptionLogTest, RecordsRoundTripAndATornTailEndsTheLog) {
  SubscriptionRecord create;
  create.decl = Decl();
  SubscriptionRecord state;
  state.type = SubscriptionRecord::Type::kState;
  state.state = {{"a", 5, {{7, 9}}}, {"b", 0, {}}};
  const std::string log = EncodeSubscriptionRecord(create) + EncodeSubscriptionRecord(state) +
                          EncodeSubscriptionRecord(Ack({{"a", 5, 7}, {"c", 0, 1}}));
  size_t end = 0;
  auto records = DecodeSubscriptionLog(log, &end);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ(end, log.size());
  EXPECT_EQ((*records)[0].decl, Decl());
  ASSERT_EQ((*records)[1].state.size(), 2u);
  EXPECT_EQ((*records)[1].state[0].watermark, 5u);
  EXPECT_EQ((*records)[1].state[0].acknowledged[0], std::make_pair(uint64_t{7}, uint64_t{9}));
  EXPECT_EQ((*records)[2].acknowledged[1], (OffsetRange{"c", 0, 1}));
  // Every cut inside the last record drops only it; a flipped byte too.
  const size_t last = log.size() - EncodeSubscriptionRecord(Ack({{"a", 5, 7}, {"c", 0, 1}})).size();
  for (size_t cut = last; cut < log.size(); ++cut) {
    auto torn = DecodeSubscriptionLog(log.substr(0, cut), &end);
    ASSERT_TRUE(torn.ok());
    EXPECT_EQ(torn->size(), 2u);
    EXPECT_EQ(end, last);
  }
  std::string flipped = log;
  flipped[log.size() - 3] ^= 0x40;
  auto damaged = DecodeSubscriptionLog(flipped, &end);
  ASSERT_TRUE(damaged.ok());
  EXPECT_EQ(damaged->size(), 2u);
  // Damage with whole records after it is no torn write: corruption, not a silent cut.
  std::string middle = log;
  middle[last - 3] ^= 0x40;
  auto corrupt = DecodeSubscriptionLog(middle, &end);
  EXPECT_EQ(corrupt.status().code(), StatusCode::kCorruption);
  EXPECT_NE(corrupt.status().message().find("not a torn write"), std::string::npos);
}

TEST(SubscriptionLogTest, AppendsSurviveReopenAndRewriteKeepsTheState) {
  char folder[] = "/tmp/higgins-sublog-XXXXXX";
  ASSERT_NE(::mkdtemp(folder), nullptr);
  const std::string path = std::string(folder) + "/subs/x.log";
  {
    auto log = SubscriptionLog::Create(path, Decl());
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    auto p1 = (*log)->Append(Ack({{"a", 3, 4}}));
    auto p2 = (*log)->Append(Ack({{"a", 4, 6}}));
    ASSERT_TRUE(p1.ok() && p2.ok());
    EXPECT_LT(*p1, *p2);
    ASSERT_TRUE((*log)->Sync(*p2).ok());
  }
  // A torn append after them.
  {
    auto bytes = ReadFileToString(path);
    ASSERT_TRUE(bytes.ok());
    std::string torn = *bytes + EncodeSubscriptionRecord(Ack({{"z", 0, 1}})).substr(0, 9);
    ASSERT_TRUE(WriteFileAtomically(path, torn).ok());
  }
  std::vector<SubscriptionRecord> records;
  auto log = SubscriptionLog::Open(path, &records);
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2].acknowledged[0], (OffsetRange{"a", 4, 6}));
  ASSERT_TRUE((*log)->Rewrite(Decl(), {{"a", 6, {}}}).ok());
  auto p = (*log)->Append(Ack({{"b", 0, 2}}));
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE((*log)->Sync(*p).ok());
  log->reset();
  records.clear();
  ASSERT_TRUE(SubscriptionLog::Open(path, &records).ok());
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1].type, SubscriptionRecord::Type::kState);
  EXPECT_EQ(records[1].state[0].watermark, 6u);
  EXPECT_EQ(records[2].acknowledged[0], (OffsetRange{"b", 0, 2}));
  std::filesystem::remove_all(folder);
}

TEST(SubscriptionLogTest, ALogWithoutDeclarationIsCorrupt) {
  char folder[] = "/tmp/higgins-sublog-XXXXXX";
  ASSERT_NE(::mkdtemp(folder), nullptr);
  const std::string path = std::string(folder) + "/y.log";
  ASSERT_TRUE(WriteFileAtomically(path, EncodeSubscriptionRecord(Ack({{"a", 0, 1}}))).ok());
  std::vector<SubscriptionRecord> records;
  EXPECT_EQ(SubscriptionLog::Open(path, &records).status().code(), StatusCode::kCorruption);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace higgins::subscription
