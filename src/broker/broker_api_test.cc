// The broker's protocol-free API in process (no sockets): produce and query, windows,
// subscriptions with acknowledgements, and what survives a restart. Every call goes through
// BrokerApi, as the protocol adapters make them.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <mutex>
#include <vector>

#include "broker/broker.h"
#include "udf/testing/fake_engine.h"

namespace higgins::broker {
namespace {

using namespace std::chrono_literals;
using Kind = QueryRequest::Kind;

constexpr std::string_view kConfiguration = R"toml(
[storage.disk]
type = "file"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
[streams.amount_windows]
base = "amount"
type = "window"
partition_key = "id"
schema = "amount"
window = { type = "count", interval = "2" }
)toml";

class BrokerApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("higgins_broker_api_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    Open();
    auto outcome = api().CreateConfiguration(kConfiguration);
    ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  }
  void TearDown() override {
    broker_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open() {
    BrokerOptions options;
    options.dir = dir_.string();
    options.engine = std::make_shared<udf::FakeEngine>();
    auto broker = Broker::Open(options);
    ASSERT_TRUE(broker.ok()) << broker.status().ToString();
    broker_ = *std::move(broker);
  }
  void Restart() {
    broker_.reset();
    Open();
  }
  BrokerApi& api() { return *broker_; }

  Result<stream::ProduceResult> Produce(std::string_view json) {
    std::promise<Result<stream::ProduceResult>> done;
    api().Produce("amount", json, stream::PayloadFormat::kJson,
                  [&](Result<stream::ProduceResult> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
  }
  Result<QueryAnswer> Query(Kind kind, std::string_view stream, std::string_view key,
                            uint64_t offset = 0, uint64_t end = UINT64_MAX) {
    QueryRequest request;
    request.stream = std::string(stream);
    request.key = std::string(key);
    request.kind = kind;
    request.offset = Offset(offset);
    request.end = Offset(end);
    return api().Query(request);
  }
  static std::vector<int32_t> Data(const QueryAnswer& answer) {
    std::vector<int32_t> out;
    const arrow::Array& data = answer.rows.batch.column(1);
    for (int64_t r = 0; r < answer.rows.batch.num_rows(); ++r)
      out.push_back(data.Value<int32_t>(r));
    return out;
  }

  std::filesystem::path dir_;
  std::unique_ptr<Broker> broker_;
};

TEST_F(BrokerApiTest, AProduceIsAnsweredWithDenseOffsetsPerPartitionKey) {
  auto first = Produce(R"([{"id":"a","data":1},{"id":"b","data":2},{"id":"a","data":3}])");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->offsets, (std::vector<uint64_t>{0, 0, 1}));
  auto second = Produce(R"({"id":"a","data":4})");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->offsets, (std::vector<uint64_t>{2}));
}

// ProduceMany: one answer per item, in order, as if each was produced alone.
std::vector<Result<stream::ProduceResult>> ProduceMany(BrokerApi& api, std::string_view stream,
                                                       const std::vector<std::string>& payloads) {
  std::vector<std::promise<Result<stream::ProduceResult>>> done(payloads.size());
  std::vector<BrokerApi::ProduceItem> items;
  for (size_t i = 0; i < payloads.size(); ++i) {
    items.push_back({payloads[i], stream::PayloadFormat::kAuto,
                     [&done, i](Result<stream::ProduceResult> r) { done[i].set_value(std::move(r)); }});
  }
  api.ProduceMany(stream, items);
  std::vector<Result<stream::ProduceResult>> results;
  for (auto& d : done) results.push_back(d.get_future().get());
  return results;
}

TEST_F(BrokerApiTest, CoalescedProducesAreEachAnsweredWithTheirOwnOffsets) {
  std::vector<std::string> payloads;
  for (int i = 0; i < 5; ++i) payloads.push_back(R"({"id":"a","data":)" + std::to_string(i) + "}");
  payloads.push_back(R"([{"id":"b","data":10},{"id":"a","data":5}])");
  auto results = ProduceMany(api(), "amount", payloads);
  for (size_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].status().ToString();
    EXPECT_EQ(results[i]->offsets, (std::vector<uint64_t>{i}));
    EXPECT_EQ(results[i]->partitions, (std::vector<std::string>{"a"}));
  }
  ASSERT_TRUE(results[5].ok());
  EXPECT_EQ(results[5]->partitions, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(results[5]->offsets, (std::vector<uint64_t>{0, 5}));
  Restart();  // file storage: committed and fsynced as one entry, recovered as one
  auto range = Query(Kind::kRange, "amount", "a", 0, 10);
  ASSERT_TRUE(range.ok()) << range.status().ToString();
  EXPECT_EQ(Data(*range), (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST_F(BrokerApiTest, ABadPayloadAmongCoalescedProducesFailsOnlyItself) {
  auto results = ProduceMany(api(), "amount",
                             {R"({"id":"a","data":1})", R"({"id":"a","data":"one"})", "",
                              R"({"id":"a","data":2})"});
  ASSERT_TRUE(results[0].ok()) << results[0].status().ToString();
  EXPECT_EQ(results[0]->offsets, (std::vector<uint64_t>{0}));
  EXPECT_EQ(results[1].status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(results[1].status().message().find("row 0, field 'data'"), std::string::npos)
      << results[1].status().message();
  EXPECT_EQ(results[2].status().code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(results[3].ok());
  EXPECT_EQ(results[3]->offsets, (std::vector<uint64_t>{1}));
  // A derived stream refuses every item; so does a stream that does not exist.
  for (const char* stream : {"amount_windows", "nope"}) {
    auto refused = ProduceMany(api(), stream, {R"({"id":"a","data":1})", R"({"id":"a","data":2})"});
    for (const auto& r : refused) EXPECT_FALSE(r.ok()) << stream;
  }
}

TEST_F(BrokerApiTest, EachQueryKindAnswersTheRecordsItNames) {
  ASSERT_TRUE(Produce(R"([{"id":"a","data":1},{"id":"a","data":2},{"id":"a","data":3}])").ok());

  auto at = Query(Kind::kOffset, "amount", "a", 1);
  ASSERT_TRUE(at.ok()) << at.status().ToString();
  EXPECT_EQ(at->rows.first_offset, 1u);
  EXPECT_EQ(Data(*at), (std::vector<int32_t>{2}));

  auto latest = Query(Kind::kLatest, "amount", "a");
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(latest->rows.first_offset, 2u);
  EXPECT_EQ(Data(*latest), (std::vector<int32_t>{3}));

  auto range = Query(Kind::kRange, "amount", "a", 1, 3);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(Data(*range), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(range->rows.timestamps_ms.size(), 2u);

  QueryRequest by_time;
  by_time.stream = "amount";
  by_time.key = "a";
  by_time.kind = Kind::kTimestamp;
  by_time.timestamp_ms = 0;
  auto first = api().Query(by_time);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->rows.first_offset, 0u);
  EXPECT_FALSE(first->window.has_value());
  ASSERT_TRUE(first->schema != nullptr);
  EXPECT_EQ(first->schema->num_fields(), 2u);
}

TEST_F(BrokerApiTest, WhatDoesNotExistIsNotFoundNamingTheStream) {
  ASSERT_TRUE(Produce(R"({"id":"a","data":1})").ok());
  auto no_stream = Query(Kind::kLatest, "nope", "a");
  EXPECT_EQ(no_stream.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_stream.status().message(),
            "stream 'nope' does not exist (declared streams: amount, amount_windows)");
  auto no_offset = Query(Kind::kOffset, "amount", "a", 5);
  EXPECT_EQ(no_offset.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_offset.status().message().rfind("stream 'amount': ", 0), 0u)
      << no_offset.status().message();
  auto no_key = Query(Kind::kLatest, "amount", "zzz");
  EXPECT_EQ(no_key.status().code(), StatusCode::kNotFound);
}

// Past ten, the declared streams are counted rather than listed.
TEST_F(BrokerApiTest, AnUnknownStreamListsTheFirstTenDeclared) {
  std::string more = "[storage.memory]\ntype = \"memory\"\n";
  for (int i = 0; i < 11; ++i) {
    more += "[streams.s" + std::to_string(10 + i) +
            "]\nschema = \"amount\"\npartition_key = \"id\"\nstorage = \"memory\"\n";
  }
  auto outcome = api().CreateConfiguration(more);
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  const std::string expected =
      "stream 'amont' does not exist (declared streams: amount, amount_windows, s10, s11, s12, "
      "s13, s14, s15, s16, s17 and 3 more)";
  EXPECT_EQ(Query(Kind::kLatest, "amont", "a").status(), Status::NotFound(expected));
  EXPECT_EQ(api().Metadata("amont").status(), Status::NotFound(expected));
}

TEST_F(BrokerApiTest, AWindowStreamAnswersWindowsOfItsBase) {
  ASSERT_TRUE(Produce(R"([{"id":"a","data":1},{"id":"a","data":2},{"id":"a","data":3}])").ok());
  auto window0 = Query(Kind::kOffset, "amount_windows", "a", 0);
  ASSERT_TRUE(window0.ok()) << window0.status().ToString();
  ASSERT_TRUE(window0->window.has_value());
  EXPECT_TRUE(window0->window->closed);
  EXPECT_EQ(Data(*window0), (std::vector<int32_t>{1, 2}));
  auto latest = Query(Kind::kLatest, "amount_windows", "a");
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(latest->window->window, 1u);
  EXPECT_FALSE(latest->window->closed);
  EXPECT_EQ(Data(*latest), (std::vector<int32_t>{3}));
  auto range = Query(Kind::kRange, "amount_windows", "a", 0);
  EXPECT_EQ(range.status().code(), StatusCode::kInvalidArgument);
}

/// Collects pushes; the delivery thread calls `push`.
struct Pushes {
  std::mutex mu;
  std::vector<subscription::SubscriptionPush> got;
  subscription::PushSink Sink() {
    subscription::PushSink sink;
    sink.push = [this](std::vector<subscription::SubscriptionPush> pushes) {
      std::lock_guard lock(mu);
      for (auto& p : pushes) got.push_back(std::move(p));
    };
    return sink;
  }
  size_t Records() {
    std::lock_guard lock(mu);
    size_t n = 0;
    for (const auto& p : got) n += static_cast<size_t>(p.records.rows.batch.num_rows());
    return n;
  }
  bool WaitFor(size_t records) {
    for (int i = 0; i < 500 && Records() < records; ++i) std::this_thread::sleep_for(10ms);
    return Records() >= records;
  }
};

TEST_F(BrokerApiTest, ASubscriptionPushesAndItsAcknowledgementsSurviveARestart) {
  ASSERT_TRUE(Produce(R"([{"id":"a","data":1},{"id":"a","data":2},{"id":"b","data":3}])").ok());
  auto id = api().CreateSubscription("amount", SubscriptionStart{}, 60'000ms);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  Pushes pushes;
  auto demand = api().Take(*id, "amount", ConsumerId(1), 10, pushes.Sink());
  ASSERT_TRUE(demand.ok()) << demand.status().ToString();
  ASSERT_TRUE(pushes.WaitFor(3));

  std::promise<Status> acked;
  api().Acknowledge(
      *id, "amount", {subscription::OffsetRange{"a", 0, 2}},
      [&](Status s, std::vector<subscription::OffsetRange>) { acked.set_value(std::move(s)); });
  Status s = acked.get_future().get();
  ASSERT_TRUE(s.ok()) << s.ToString();
  api().RemoveConsumer(ConsumerId(1));

  Restart();
  auto report = api().GetSubscription(*id, "amount");
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_TRUE(report->durable);
  auto listed = api().ListSubscriptions("amount");
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  // After the restart only b's record, never acknowledged, is pushed again.
  Pushes again;
  ASSERT_TRUE(api().Take(*id, "amount", ConsumerId(2), 10, again.Sink()).ok());
  ASSERT_TRUE(again.WaitFor(1));
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(again.Records(), 1u);
  {
    std::lock_guard lock(again.mu);
    EXPECT_EQ(again.got[0].key, "b");
  }
  api().RemoveConsumer(ConsumerId(2));
  EXPECT_TRUE(api().DeleteSubscription(*id, "amount").ok());
  EXPECT_EQ(api().GetSubscription(*id, "amount").status().code(), StatusCode::kNotFound);
}

TEST_F(BrokerApiTest, ListingTheSubscriptionsOfAMissingStreamIsNotFound) {
  EXPECT_EQ(api().ListSubscriptions("nope").status().code(), StatusCode::kNotFound);
  auto all = api().ListSubscriptions("");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->empty());
}

TEST_F(BrokerApiTest, RecordsAndTheTopographySurviveARestart) {
  ASSERT_TRUE(Produce(R"([{"id":"a","data":1},{"id":"a","data":2}])").ok());
  Restart();
  auto latest = Query(Kind::kLatest, "amount", "a");
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest->rows.first_offset, 1u);
  EXPECT_EQ(Data(*latest), (std::vector<int32_t>{2}));
  auto next = Produce(R"({"id":"a","data":3})");
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->offsets, (std::vector<uint64_t>{2}));
  auto metadata = api().Metadata("amount");
  ASSERT_TRUE(metadata.ok());
  ASSERT_EQ(metadata->size(), 1u);
  EXPECT_EQ((*metadata)[0].record_count, 3u);
  EXPECT_NE(api().TopographyToml().find("amount_windows"), std::string::npos);
}

}  // namespace
}  // namespace higgins::broker
