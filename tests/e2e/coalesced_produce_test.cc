// Coalesced one-row produces (docs/performance.md, "Small records"): many connections sending one
// record per request, on a real broker, with the network threads gathering them into shared log
// entries. Every request keeps its own offsets and reply; nothing acknowledged is lost at kill -9.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "amount_configs.h"
#include "broker_process.h"
#include "higgins/arrow/ipc/reader.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

constexpr int kConnections = 50;
constexpr int kKeys = 5;

higgins::wire::Message OneRowProduce(const std::string& key, int32_t value) {
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::PRODUCEREQUEST);
  m.mutable_producerequest()->set_stream_name("amount");
  m.mutable_producerequest()->set_payload(R"({"id":")" + key + R"(","data":)" +
                                          std::to_string(value) + "}");
  return m;
}

int32_t ValueAt(const higgins::wire::Message& reply) {
  EXPECT_EQ(ReplyErrors(reply), "");
  if (reply.getindexresponse().records_size() != 1) return INT32_MIN;
  arrow::RecordBatch batch = DecodeRecord(reply.getindexresponse().records(0));
  return batch.num_rows() == 1 ? batch.column(1).Value<int32_t>(0) : INT32_MIN;
}

class CoalescedProduceTest : public ::testing::Test {
 protected:
  /// Runs kConnections producers, each pipelining `pipeline` one-row requests at a time, until
  /// `stop` (or the broker goes away). Records every acknowledged (key, offset) -> value and
  /// counts offsets acknowledged twice.
  void RunProducers(int pipeline, const std::atomic<bool>& stop) {
    std::vector<std::thread> producers;
    for (int p = 0; p < kConnections; ++p) {
      producers.emplace_back([&, p] {
        WireClient client(broker_->port());
        for (int i = 0; !stop; ++i) {
          std::vector<std::pair<uint64_t, int32_t>> sent;
          for (int j = 0; j < pipeline; ++j) {
            const int32_t value = p * 1'000'000 + i * pipeline + j;
            sent.emplace_back(
                client.Send(OneRowProduce("k" + std::to_string(value % kKeys), value)), value);
          }
          for (const auto& [id, value] : sent) {
            auto reply = client.Receive();
            if (!reply) return;  // the broker died
            if (reply->correlationid() != id) {
              std::lock_guard lock(mu_);
              ++misordered_;
              return;
            }
            if (!ReplyErrors(*reply).empty()) return;
            const auto& r = reply->produceresponse();
            std::lock_guard lock(mu_);
            if (r.offsets_size() != 1 || r.partitions_size() != 1) {
              ++malformed_;
              continue;
            }
            const std::string& key = r.partitions(0);
            if (key != "k" + std::to_string(value % kKeys)) ++malformed_;
            if (!acknowledged_.emplace(std::make_pair(key, r.offsets(0)), value).second) {
              ++duplicates_;
            }
          }
        }
      });
    }
    for (auto& t : producers) t.join();
  }

  /// Starts a broker with `config`, runs the producers (`pipeline` requests in flight each)
  /// for 1.5 s, then calls `at_end` (with the producers still running) and waits for them.
  /// Expects no offset acknowledged twice, no malformed and no misordered reply.
  template <typename AtEnd>
  void ProduceFor1500Ms(std::string_view config, int pipeline, AtEnd at_end) {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data");
    broker_->Start();
    ASSERT_EQ(ReplyErrors(WireClient(broker_->port()).CreateConfiguration(config)), "");
    std::atomic<bool> stop{false};
    std::thread timer([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      at_end();
      stop = true;
    });
    RunProducers(pipeline, stop);
    timer.join();
    EXPECT_EQ(duplicates_, 0);
    EXPECT_EQ(malformed_, 0);
    EXPECT_EQ(misordered_, 0);
  }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
  std::mutex mu_;
  std::map<std::pair<std::string, uint64_t>, int32_t> acknowledged_;
  int duplicates_ = 0;
  int malformed_ = 0;
  int misordered_ = 0;
};

// Memory storage: offsets of concurrent one-row requests are distinct and dense per key, and
// each reply names its own row.
TEST_F(CoalescedProduceTest, ConcurrentOneRowRequestsGetDistinctDenseOffsets) {
  ProduceFor1500Ms(kQuickStart, /*pipeline=*/4, [] {});
  ASSERT_GT(acknowledged_.size(), 1000u);
  // Dense: each key's offsets are exactly 0..n-1.
  std::map<std::string, uint64_t> next;
  for (const auto& [position, value] : acknowledged_) {
    ASSERT_EQ(position.second, next[position.first]) << position.first;
    ++next[position.first];
  }
  // The stored record at each offset is the one its reply named (every 50th checked).
  WireClient client(broker_->port());
  size_t n = 0;
  for (const auto& [position, value] : acknowledged_) {
    if (n++ % 50 != 0) continue;
    ASSERT_EQ(ValueAt(client.QueryOffset("amount", position.first, position.second)), value)
        << position.first << "@" << position.second;
  }
}

// File storage, fsync on: kill -9 while 50 connections produce one row per request loses no
// acknowledged record, and no two acknowledged records share an offset.
TEST_F(CoalescedProduceTest, Kill9DuringFiftyConnectionOneRowProduceLosesNothing) {
  ProduceFor1500Ms(kFileConfig, /*pipeline=*/2, [this] { broker_->Kill9(); });
  ASSERT_GT(acknowledged_.size(), 500u) << "too few produces were acknowledged to test anything";

  broker_->Start();
  WireClient client(broker_->port());
  std::map<std::string, uint64_t> last;
  for (const auto& [position, value] : acknowledged_) {
    last[position.first] = std::max(last[position.first], position.second);
  }
  // Every acknowledged record is there, with its value.
  for (const auto& [position, value] : acknowledged_) {
    ASSERT_EQ(ValueAt(client.QueryOffset("amount", position.first, position.second)), value)
        << position.first << "@" << position.second;
  }
  // Offsets continue densely after recovery.
  for (const auto& [key, offset] : last) {
    auto latest = client.QueryLatest("amount", key);
    ASSERT_EQ(ReplyErrors(latest), "");
    const uint64_t recovered = latest.getindexresponse().records(0).offset();
    EXPECT_GE(recovered, offset);
    auto reply = client.Produce("amount", R"({"id":")" + key + R"(","data":-1})");
    ASSERT_EQ(ReplyErrors(reply), "");
    EXPECT_EQ(reply.produceresponse().offsets(0), recovered + 1);
  }
}

}  // namespace
}  // namespace higgins::test
