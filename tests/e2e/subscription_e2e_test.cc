// Subscriptions end to end (docs/architecture.md, "Subscriptions"): a real broker process pushes
// records to client connections; order per partition, 10,000 partitions, redelivery after the
// visibility timeout and none after acknowledgement, competing consumers, a consumer disconnecting,
// kill -9 and restart, and a subscription on a map stream.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "amount_configs.h"
#include "broker_process.h"
#include "higgins/client.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;

/// One pushed record: its partition, offset and `data` value.
struct Seen {
  std::string key;
  uint64_t offset = 0;
  int32_t data = 0;
  bool redelivered = false;
};

std::string Row(const std::string& id, int32_t data) {
  return R"({"id":")" + id + R"(","data":)" + std::to_string(data) + "}";
}

class SubscriptionTest : public ::testing::Test {
 protected:
  void Start(const char* config = kQuickStart) {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data");
    broker_->Start();
    client_ = Connect();
    if (config != nullptr) {
      Status s = client_->UploadConfiguration(config);
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
  }
  /// A broker with frames of `max_frame_bytes` and a memory stream `amount` {id, data, payload}.
  void StartWithPayloads(const std::string& max_frame_bytes) {
    broker_ = std::make_unique<BrokerProcess>(
        tmp_.path() + "/data", std::vector<std::string>{"--max-frame-bytes", max_frame_bytes});
    broker_->Start();
    client_ = Connect();
    Status s = client_->UploadConfiguration(
        "[storage.memory]\ntype = \"memory\"\n[schema.amount]\nid = \"string\"\n"
        "data = \"int32\"\npayload = \"string\"\n[streams.amount]\nschema = \"amount\"\n"
        "partition_key = \"id\"\n");
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  std::unique_ptr<Client> Connect() {
    ClientOptions options;
    options.port = broker_->port();
    auto client = Client::Connect(options);
    EXPECT_TRUE(client.ok()) << client.status().ToString();
    return client.ok() ? *std::move(client) : nullptr;
  }
  void Produce(const std::string& json) {
    auto produced = client_->ProduceJson("amount", json);
    ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  }
  std::string Subscribe(SubscriptionStart start = SubscriptionStart::Beginning(),
                        std::chrono::milliseconds timeout = 0ms,
                        const std::string& stream = "amount") {
    auto id = client_->CreateSubscription(stream, start, timeout);
    EXPECT_TRUE(id.ok()) << id.status().ToString();
    return id.ok() ? *id : std::string();
  }
  /// Deliveries to `client` until `n` records came or `patience` passed with nothing new.
  static std::vector<Seen> Receive(Client& client, size_t n, std::chrono::milliseconds patience = 5s) {
    std::vector<Seen> out;
    while (out.size() < n) {
      auto delivery = client.NextDelivery(patience);
      EXPECT_TRUE(delivery.ok()) << delivery.status().ToString();
      if (!delivery.ok() || !delivery->has_value()) break;
      const Records& r = (*delivery)->records;
      for (int64_t i = 0; i < r.num_rows(); ++i) {
        out.push_back({r.partition_key, r.offset + static_cast<uint64_t>(i),
                       r.batch.column(1).Value<int32_t>(i), r.redelivered});
      }
    }
    return out;
  }
  static void Ack(Client& client, const std::string& id, const std::vector<Seen>& seen) {
    std::vector<AckRange> ranges;
    for (const Seen& s : seen) ranges.push_back({s.key, s.offset, s.offset + 1});
    Status st = client.Acknowledge(id, ranges);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
  std::unique_ptr<Client> client_;
};

TEST_F(SubscriptionTest, PushesEveryPartitionInOffsetOrderAndLiveRecordsAsTheyCommit) {
  Start();
  for (int i = 0; i < 30; ++i) Produce(Row("k" + std::to_string(i % 3), i));
  const std::string id = Subscribe();
  auto taken = client_->Take(id, 100);
  ASSERT_TRUE(taken.ok()) << taken.status().ToString();
  EXPECT_EQ(*taken, 100u);
  auto seen = Receive(*client_, 30);
  ASSERT_EQ(seen.size(), 30u);
  std::map<std::string, uint64_t> next;
  for (const Seen& s : seen) {
    EXPECT_EQ(s.offset, next[s.key]++) << s.key;
    // Record i went to key i % 3 at offset i / 3.
    EXPECT_EQ(s.data, static_cast<int32_t>(s.offset * 3 + std::stoi(s.key.substr(1))));
    EXPECT_FALSE(s.redelivered);
  }
  // Live: a record produced now is pushed (demand 70 left).
  Produce(Row("k9", 99));
  auto live = Receive(*client_, 1);
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].key, "k9");
  EXPECT_EQ(live[0].data, 99);
  Ack(*client_, id, seen);
  Ack(*client_, id, live);
  auto info = client_->GetSubscription(id);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->stream, "amount");
  EXPECT_EQ(info->unacknowledged, 0u);
  EXPECT_EQ(info->pending, 0u);
  ASSERT_EQ(info->partitions.size(), 4u);
  EXPECT_EQ(info->partitions[0].key, "k0");
  EXPECT_EQ(info->partitions[0].watermark, 10u);
  EXPECT_EQ(info->partitions[0].count, 10u);
  ASSERT_EQ(info->consumer_list.size(), 1u);
  EXPECT_EQ(info->consumer_list[0].demand, 69u);
  EXPECT_EQ(info->consumer_list[0].in_flight, 0u);
}

TEST_F(SubscriptionTest, StartsAtTheCurrentEndAnOffsetOrATimestamp) {
  Start();
  for (int i = 0; i < 4; ++i) Produce(Row("a", i));
  std::this_thread::sleep_for(5ms);  // a later commit timestamp than the records before
  auto middle = client_->ProduceJson("amount", Row("a", 4));
  ASSERT_TRUE(middle.ok());
  std::this_thread::sleep_for(5ms);
  const std::string current = Subscribe(SubscriptionStart::Current());
  const std::string offset = Subscribe(SubscriptionStart::Offset(3));
  const std::string time = Subscribe(SubscriptionStart::Timestamp(middle->timestamp_ms));
  Produce(Row("a", 5));
  Produce(Row("b", 6));  // a new partition: from its start for `current`
  for (const auto& [id, first] : std::vector<std::pair<std::string, int>>{
           {current, 5}, {offset, 3}, {time, 4}}) {
    auto consumer = Connect();
    ASSERT_TRUE(consumer->Take(id, 100).ok());
    auto seen = Receive(*consumer, 100, 1s);
    std::vector<int32_t> a;
    std::vector<int32_t> b;
    for (const Seen& s : seen) (s.key == "a" ? a : b).push_back(s.data);
    std::vector<int32_t> expected;
    for (int v = first; v <= 5; ++v) expected.push_back(v);
    EXPECT_EQ(a, expected) << "start of " << id;
    // FROM_OFFSET 3 applies to every partition: b has one record, at offset 0.
    EXPECT_EQ(b, id == offset ? std::vector<int32_t>{} : std::vector<int32_t>{6});
  }
}

TEST_F(SubscriptionTest, TenThousandPartitions) {
  Start();
  std::string batch;
  for (int i = 0; i < 20'000; ++i) batch += Row("key-" + std::to_string(i % 10'000), i) + "\n";
  Produce(batch);
  const std::string id = Subscribe();
  ASSERT_TRUE(client_->Take(id, 20'000).ok());
  auto seen = Receive(*client_, 20'000);
  ASSERT_EQ(seen.size(), 20'000u);
  std::map<std::string, std::vector<uint64_t>> offsets;
  for (const Seen& s : seen) offsets[s.key].push_back(s.offset);
  EXPECT_EQ(offsets.size(), 10'000u);
  for (const auto& [key, o] : offsets) EXPECT_EQ(o, (std::vector<uint64_t>{0, 1})) << key;
  Ack(*client_, id, seen);
  auto info = client_->GetSubscription(id);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->unacknowledged, 0u);
  EXPECT_EQ(info->partitions.size(), 10'000u);
}

TEST_F(SubscriptionTest, RedeliversOnlyWhatWasNotAcknowledgedInTime) {
  Start();
  for (int i = 0; i < 10; ++i) Produce(Row("a", i));
  const std::string id = Subscribe(SubscriptionStart::Beginning(), 300ms);
  ASSERT_TRUE(client_->Take(id, 10).ok());
  auto seen = Receive(*client_, 10);
  ASSERT_EQ(seen.size(), 10u);
  // Acknowledge 0-3 and 7; 4-6, 8 and 9 come back after the timeout.
  std::vector<Seen> acked(seen.begin(), seen.begin() + 4);
  acked.push_back(seen[7]);
  Ack(*client_, id, acked);
  ASSERT_TRUE(client_->Take(id, 10).ok());
  auto again = Receive(*client_, 5, 3s);
  ASSERT_EQ(again.size(), 5u);
  std::vector<uint64_t> offsets;
  for (const Seen& s : again) {
    offsets.push_back(s.offset);
    EXPECT_TRUE(s.redelivered);
  }
  EXPECT_EQ(offsets, (std::vector<uint64_t>{4, 5, 6, 8, 9}));
  Ack(*client_, id, again);
  // Nothing more, even after several timeouts.
  EXPECT_TRUE(Receive(*client_, 1, 1s).empty());
  auto info = client_->GetSubscription(id);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->partitions[0].watermark, 10u);
}

TEST_F(SubscriptionTest, AcknowledgingWhatWasNeverPushedIsAnError) {
  Start();
  for (int i = 0; i < 5; ++i) Produce(Row("a", i));
  const std::string id = Subscribe();
  ASSERT_TRUE(client_->Take(id, 2).ok());
  ASSERT_EQ(Receive(*client_, 2).size(), 2u);
  std::vector<AckRange> beyond{{"a", 0, 3}};
  Status s = client_->Acknowledge(id, beyond);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("never pushed"), std::string::npos) << s.ToString();
  std::vector<AckRange> empty{{"a", 1, 1}};
  EXPECT_EQ(client_->Acknowledge(id, empty).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(client_->Take("00000000-0000-4000-8000-000000000000", 1).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(client_->CreateSubscription("nope", SubscriptionStart::Beginning()).status().code(),
            StatusCode::kNotFound);
}

TEST_F(SubscriptionTest, PushesLargerThanTheFrameLimitAreSplit) {
  // 1 MiB frames, 60 records of 60 KB on one key: one push of them would be 3.6 MB.
  StartWithPayloads("1048576");
  const std::string big(60'000, 'x');
  for (int r = 0; r < 6; ++r) {
    std::string batch;
    for (int i = 0; i < 10; ++i) {
      batch += R"({"id":"big","data":)" + std::to_string(r * 10 + i) + R"(,"payload":")" + big +
               "\"}\n";
    }
    Produce(batch);
  }
  const std::string id = Subscribe();
  ASSERT_TRUE(client_->Take(id, 1000).ok());
  auto seen = Receive(*client_, 60);
  ASSERT_EQ(seen.size(), 60u);
  for (int i = 0; i < 60; ++i) {
    EXPECT_EQ(seen[i].offset, static_cast<uint64_t>(i));
    EXPECT_EQ(seen[i].data, i);
  }
}

TEST_F(SubscriptionTest, ARecordLargerThanTheFrameLimitIsReportedToItsConsumer) {
  // 4 KiB frames: a ~3.9 KB record can be produced, but its push (with the schema and the
  // envelope) is larger than a frame.
  StartWithPayloads("4096");
  Produce(R"({"id":"big","data":1,"payload":")" + std::string(3'900, 'x') + "\"}");
  Produce(R"({"id":"small","data":2,"payload":"y"})");
  const std::string id = Subscribe();
  ASSERT_TRUE(client_->Take(id, 10).ok());
  bool small_seen = false;
  Status reported;
  for (int i = 0; i < 2; ++i) {
    auto delivery = client_->NextDelivery(5s);
    if (!delivery.ok()) {
      reported = delivery.status();
      continue;
    }
    ASSERT_TRUE(delivery->has_value()) << "nothing came: the consumer was left waiting";
    EXPECT_EQ((*delivery)->records.partition_key, "small");
    small_seen = true;
  }
  EXPECT_TRUE(small_seen);
  EXPECT_EQ(reported.code(), StatusCode::kResourceExhausted) << reported.ToString();
  EXPECT_NE(reported.message().find("partition 'big' at offset 0"), std::string::npos)
      << reported.ToString();
  EXPECT_NE(reported.message().find("frame limit"), std::string::npos) << reported.ToString();
  // The connection and the subscription go on.
  Produce(R"({"id":"small","data":3,"payload":"z"})");
  auto next = client_->NextDelivery(5s);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  ASSERT_TRUE(next->has_value());
  EXPECT_EQ((*next)->records.offset, 1u);
}

TEST_F(SubscriptionTest, ARecordTooLargeToPushUnderALongKeyIsReportedAndLaterRecordsFlow) {
  // 4 KiB frames and a 4000-byte key: the request holds the key once, a push twice (in the
  // batch and in Record.partition), so the record cannot be pushed. The error push that takes
  // its place quotes 64 bytes of the key: it fits, and the consumer is not left waiting.
  StartWithPayloads("4096");
  const std::string key(4000, 'L');
  Produce(R"({"id":")" + key + R"(","data":1,"payload":""})");
  const std::string id = Subscribe();
  ASSERT_TRUE(client_->Take(id, 10).ok());
  auto reported = client_->NextDelivery(5s);
  ASSERT_FALSE(reported.ok()) << (reported->has_value() ? "a delivery of records came"
                                                        : "nothing came: the consumer waits");
  EXPECT_EQ(reported.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(reported.status().message(),
            "a push of 1 record(s) of partition '" + std::string(64, 'L') +
                "'…(4000 bytes) at offset 0 takes 8588 bytes, more than the frame limit of 4096");
  // The consumer keeps receiving the records produced after it.
  for (int i = 2; i <= 4; ++i) Produce(R"({"id":"small","data":)" + std::to_string(i) + "}");
  auto seen = Receive(*client_, 3);
  ASSERT_EQ(seen.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[i].key, "small");
    EXPECT_EQ(seen[i].offset, static_cast<uint64_t>(i));
    EXPECT_EQ(seen[i].data, i + 2);
  }
}

TEST_F(SubscriptionTest, ASubscriptionOfManyPartitionsIsListedAsFarAsAFrameHolds) {
  StartWithPayloads("4096");
  for (int request = 0; request < 40; ++request) {  // 50 rows per request fit in a frame
    std::string rows;
    for (int k = request * 50; k < request * 50 + 50; ++k) {
      rows += R"({"id":"k)" + std::to_string(k) + R"(","data":1,"payload":""})" + "\n";
    }
    Produce(rows);
  }
  const std::string id = Subscribe();
  auto info = client_->GetSubscription(id);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_TRUE(info->partitions_truncated);
  EXPECT_GT(info->partitions.size(), 10u);
  EXPECT_LT(info->partitions.size(), 2000u);
  EXPECT_EQ(info->partitions.front().key, "k0");
}

TEST_F(SubscriptionTest, ConsumersLearnThatTheirSubscriptionEnded) {
  Start();
  Produce(Row("a", 1));
  const std::string id = Subscribe();
  const std::string other = Subscribe();
  auto consumer = Connect();
  ASSERT_TRUE(consumer->Take(id, 10).ok());
  ASSERT_TRUE(consumer->Take(other, 10).ok());
  ASSERT_EQ(Receive(*consumer, 2).size(), 2u);
  ASSERT_TRUE(client_->DeleteSubscription(id).ok());
  auto ended = consumer->NextDelivery(5s);
  EXPECT_EQ(ended.status().code(), StatusCode::kNotFound);
  EXPECT_NE(ended.status().message().find("was deleted"), std::string::npos);
  // Deleting the stream ends the other.
  ASSERT_TRUE(client_->DeleteConfiguration("amount").ok());
  ended = consumer->NextDelivery(5s);
  EXPECT_EQ(ended.status().code(), StatusCode::kNotFound);
  EXPECT_NE(ended.status().message().find("stream 'amount' was deleted"), std::string::npos)
      << ended.status().ToString();
  EXPECT_EQ(client_->GetSubscription(other).status().code(), StatusCode::kNotFound);
}

TEST_F(SubscriptionTest, CompetingConsumersShareTheRecordsAndADisconnectGivesBackItsShare) {
  Start();
  std::string batch;
  for (int i = 0; i < 600; ++i) batch += Row("k" + std::to_string(i % 6), i) + "\n";
  Produce(batch);
  const std::string id = Subscribe();
  auto a = Connect();
  auto b = Connect();
  auto c = Connect();
  ASSERT_TRUE(a->Take(id, 200).ok());
  ASSERT_TRUE(b->Take(id, 200).ok());
  ASSERT_TRUE(c->Take(id, 200).ok());
  auto seen_a = Receive(*a, 200);
  auto seen_b = Receive(*b, 200);
  auto seen_c = Receive(*c, 200);
  EXPECT_EQ(seen_a.size(), 200u);
  EXPECT_EQ(seen_b.size(), 200u);
  EXPECT_EQ(seen_c.size(), 200u);
  std::set<std::pair<std::string, uint64_t>> all;
  for (const auto* seen : {&seen_a, &seen_b, &seen_c}) {
    for (const Seen& s : *seen) EXPECT_TRUE(all.insert({s.key, s.offset}).second) << "twice";
  }
  EXPECT_EQ(all.size(), 600u);
  Ack(*a, id, seen_a);
  Ack(*b, id, seen_b);
  // c leaves without acknowledging: its 200 records go to a.
  c.reset();
  ASSERT_TRUE(a->Take(id, 1000).ok());
  auto back = Receive(*a, 200);
  ASSERT_EQ(back.size(), 200u);
  std::set<std::pair<std::string, uint64_t>> returned;
  for (const Seen& s : back) {
    EXPECT_TRUE(s.redelivered);
    returned.insert({s.key, s.offset});
  }
  std::set<std::pair<std::string, uint64_t>> of_c;
  for (const Seen& s : seen_c) of_c.insert({s.key, s.offset});
  EXPECT_EQ(returned, of_c);
  Ack(*a, id, back);
  EXPECT_TRUE(Receive(*a, 1, 500ms).empty());
  auto info = a->GetSubscription(id);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->unacknowledged, 0u);
  EXPECT_EQ(info->consumers, 2u);  // a and b
}

TEST_F(SubscriptionTest, AcknowledgementsSurviveKillNineAndNothingIsSkipped) {
  Start(kFileConfig);
  std::string batch;
  for (int i = 0; i < 100; ++i) batch += Row("k" + std::to_string(i % 4), i) + "\n";
  Produce(batch);
  const std::string id = Subscribe(SubscriptionStart::Beginning(), 60'000ms);
  ASSERT_TRUE(client_->Take(id, 60).ok());
  auto seen = Receive(*client_, 60);
  ASSERT_EQ(seen.size(), 60u);
  // Acknowledge every other record received.
  std::vector<Seen> acked;
  std::set<std::pair<std::string, uint64_t>> acked_set;
  for (size_t i = 0; i < seen.size(); i += 2) {
    acked.push_back(seen[i]);
    acked_set.insert({seen[i].key, seen[i].offset});
  }
  Ack(*client_, id, acked);
  client_.reset();
  broker_->Kill9();
  broker_->Start();
  client_ = Connect();
  ASSERT_TRUE(client_->Take(id, 1000).ok());
  auto after = Receive(*client_, 70);
  // Everything but what was acknowledged, each once: the 30 unacknowledged received, and the
  // 40 never pushed.
  std::set<std::pair<std::string, uint64_t>> got;
  for (const Seen& s : after) {
    EXPECT_EQ(acked_set.count({s.key, s.offset}), 0u) << s.key << " " << s.offset;
    EXPECT_TRUE(got.insert({s.key, s.offset}).second);
  }
  EXPECT_EQ(got.size(), 70u);
  EXPECT_TRUE(Receive(*client_, 1, 300ms).empty());
  Ack(*client_, id, after);
  auto info = client_->GetSubscription(id);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_TRUE(info->durable);
  for (const auto& p : info->partitions) EXPECT_EQ(p.watermark, 25u) << p.key;
  // Deleted: gone after a restart too.
  ASSERT_TRUE(client_->DeleteSubscription(id).ok());
  client_.reset();
  broker_->Kill9();
  broker_->Start();
  client_ = Connect();
  EXPECT_EQ(client_->GetSubscription(id).status().code(), StatusCode::kNotFound);
}

TEST_F(SubscriptionTest, ASubscriptionOnAMapStreamSeesDerivedRecords) {
  Start(nullptr);
  const std::string wasm = ReadExampleModule("double");
  auto version = client_->UploadModule(
      "double", std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(wasm.data()), wasm.size()));
  ASSERT_TRUE(version.ok()) << version.status().ToString();
  Status s = client_->UploadConfiguration(std::string(kQuickStart) +
                                          "[streams.doubled]\nbase = \"amount\"\ntype = \"map\"\n"
                                          "partition_key = \"id\"\nschema = \"amount\"\n"
                                          "fn = \"double\"\n");
  ASSERT_TRUE(s.ok()) << s.ToString();
  const std::string id = Subscribe(SubscriptionStart::Beginning(), 0ms, "doubled");
  ASSERT_TRUE(client_->Take(id, 10).ok());
  for (int i = 1; i <= 3; ++i) Produce(Row("x", i));
  auto seen = Receive(*client_, 3);
  ASSERT_EQ(seen.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(seen[i].offset, static_cast<uint64_t>(i));
    EXPECT_EQ(seen[i].data, 2 * (i + 1));
  }
}

TEST_F(SubscriptionTest, ASubscriptionOnACountWindowStreamGetsEachWindowOnceClosed) {
  Start(nullptr);
  Status s = client_->UploadConfiguration(
      std::string(kQuickStart) +
      "[streams.fives]\nbase = \"amount\"\ntype = \"window\"\npartition_key = \"id\"\n"
      "schema = \"amount\"\nwindow = { type = \"count\", interval = \"5\" }\n");
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int i = 0; i < 12; ++i) Produce(Row("a", i));
  const std::string id = Subscribe(SubscriptionStart::Beginning(), 0ms, "fives");
  ASSERT_TRUE(client_->Take(id, 10).ok());
  auto window = [&](uint64_t number, int first) {
    auto delivery = client_->NextDelivery(5s);
    ASSERT_TRUE(delivery.ok() && delivery->has_value()) << "window " << number;
    const Records& r = (*delivery)->records;
    EXPECT_EQ(r.stream, "fives");
    EXPECT_EQ(r.offset, number);
    ASSERT_TRUE(r.window.has_value());
    EXPECT_TRUE(r.window->closed);
    EXPECT_EQ(r.window->start, number * 5);
    ASSERT_EQ(r.num_rows(), 5);
    for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(r.batch.column(1).Value<int32_t>(i), first + i);
    std::vector<AckRange> ack{{"a", number, number + 1}};
    EXPECT_TRUE(client_->Acknowledge(id, ack).ok());
  };
  window(0, 0);
  window(1, 5);
  // Window 2 is open (2 records): not pushed until it closes.
  auto none = client_->NextDelivery(300ms);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  for (int i = 12; i < 15; ++i) Produce(Row("a", i));
  window(2, 10);
  EXPECT_EQ(client_->CreateSubscription("fives", SubscriptionStart::Beginning()).ok(), true);
}

TEST_F(SubscriptionTest, WindowStreamsAPushCannotCarryAreRefusedWithTheReason) {
  broker_ = std::make_unique<BrokerProcess>(
      tmp_.path() + "/data", std::vector<std::string>{"--max-range-records", "10"});
  broker_->Start();
  client_ = Connect();
  Status s = client_->UploadConfiguration(
      std::string(kQuickStart) +
      "[streams.twenties]\nbase = \"amount\"\ntype = \"window\"\npartition_key = \"id\"\n"
      "schema = \"amount\"\nwindow = { type = \"count\", interval = \"20\" }\n"
      "[streams.seconds]\nbase = \"amount\"\ntype = \"window\"\npartition_key = \"id\"\n"
      "schema = \"amount\"\nwindow = { type = \"time\", interval = \"1s\" }\n");
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto big = client_->CreateSubscription("twenties", SubscriptionStart::Beginning());
  EXPECT_EQ(big.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(big.status().message().find("has windows of 20 records, more than a push may carry "
                                        "(--max-range-records, 10)"),
            std::string::npos)
      << big.status().ToString();
  auto timed = client_->CreateSubscription("seconds", SubscriptionStart::Beginning());
  EXPECT_EQ(timed.status().code(), StatusCode::kNotSupported);
  EXPECT_NE(timed.status().message().find("is a time window stream"), std::string::npos)
      << timed.status().ToString();
}

}  // namespace
}  // namespace higgins::test
