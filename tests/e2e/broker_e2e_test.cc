// End-to-end tests: a real `higgins` process on loopback, driven over TCP with the wire protocol.
#include <sys/wait.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/writer.h"
#include "arrow/json/json_reader.h"
#include "broker_process.h"
#include "config/configuration.h"
#include "amount_configs.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

int32_t DataAt(const higgins::wire::Message& reply, int64_t row = 0) {
  EXPECT_EQ(reply.type(), higgins::wire::Message::GETINDEXRESPONSE) << ReplyErrors(reply);
  EXPECT_EQ(ReplyErrors(reply), "");
  if (reply.getindexresponse().records_size() != 1) {
    ADD_FAILURE() << "expected one record, got " << reply.getindexresponse().records_size();
    return INT32_MIN;
  }
  arrow::RecordBatch batch = DecodeRecord(reply.getindexresponse().records(0));
  if (batch.num_rows() <= row) {
    ADD_FAILURE() << "record has " << batch.num_rows() << " rows";
    return INT32_MIN;
  }
  return batch.column(1).Value<int32_t>(row);
}

class BrokerTest : public ::testing::Test {
 protected:
  void StartBroker(std::vector<std::string> args = {}) {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data", std::move(args));
    broker_->Start();
  }
  std::unique_ptr<WireClient> Connect() { return std::make_unique<WireClient>(broker_->port()); }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
};

TEST_F(BrokerTest, QuickStartProduceThenQueryLatest) {
  StartBroker();
  auto client = Connect();
  ASSERT_TRUE(client->Ping());
  auto created = client->CreateConfiguration(kQuickStart);
  ASSERT_EQ(created.type(), higgins::wire::Message::CREATECONFIGURATIONRESPONSE);
  ASSERT_EQ(ReplyErrors(created), "");

  auto produced = client->Produce("amount", R"({"id":"key","data":21})");
  ASSERT_EQ(produced.type(), higgins::wire::Message::PRODUCERESPONSE);
  ASSERT_EQ(ReplyErrors(produced), "");
  ASSERT_EQ(produced.produceresponse().partitions_size(), 1);
  EXPECT_EQ(produced.produceresponse().partitions(0), "key");
  ASSERT_EQ(produced.produceresponse().offsets_size(), 1);
  EXPECT_EQ(produced.produceresponse().offsets(0), 0u);

  auto latest = client->QueryLatest("amount", "key");
  EXPECT_EQ(DataAt(latest), 21);
  const auto& record = latest.getindexresponse().records(0);
  EXPECT_EQ(record.offset(), 0u);
  EXPECT_EQ(record.stream(), "amount");
  // The prototype's partition form: the key zero-padded to 32 bytes.
  EXPECT_EQ(record.partition(), std::string("key") + std::string(29, '\0'));
  ASSERT_EQ(record.timestamps_size(), 1);
  EXPECT_EQ(record.timestamps(0), produced.produceresponse().timestamp());

  // The padded form is accepted on input too.
  auto padded = client->QueryLatest("amount", std::string("key") + std::string(29, '\0'));
  EXPECT_EQ(DataAt(padded), 21);
}

TEST_F(BrokerTest, ManyKeysAndOffsetsInEveryPayloadForm) {
  StartBroker();
  auto client = Connect();
  ASSERT_EQ(ReplyErrors(client->CreateConfiguration(kQuickStart)), "");
  constexpr int kKeys = 40;
  constexpr int kRounds = 12;
  // value = key * 1000 + round; offsets per key are the rounds.
  for (int round = 0; round < kRounds; ++round) {
    std::string payload;
    const int form = round % 3;
    if (form == 0) payload = "[";
    for (int k = 0; k < kKeys; ++k) {
      std::string row = R"({"id":"k)" + std::to_string(k) + R"(","data":)" +
                        std::to_string(k * 1000 + round) + "}";
      if (form == 0) {
        payload += (k == 0 ? "" : ",") + row;
      } else {
        payload += row + "\n";
      }
    }
    if (form == 0) payload += "]";
    higgins::wire::Message reply;
    if (form == 2) {
      // The same rows as an Arrow IPC stream.
      auto schema = arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8()),
                                       arrow::Field("data", arrow::DataType::Int32())});
      auto batch = arrow::json::ReadJson(payload, schema);
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      auto ipc = arrow::ipc::WriteStream(schema, {*batch});
      ASSERT_TRUE(ipc.ok());
      reply = client->Produce("amount", std::string_view(reinterpret_cast<const char*>(ipc->data()),
                                                         ipc->size()));
    } else {
      reply = client->Produce("amount", payload);
    }
    ASSERT_EQ(ReplyErrors(reply), "") << "round " << round;
    const auto& r = reply.produceresponse();
    ASSERT_EQ(r.offsets_size(), kKeys);
    ASSERT_EQ(r.partitions_size(), kKeys);
    for (int k = 0; k < kKeys; ++k) {
      EXPECT_EQ(r.partitions(static_cast<int>(r.partition_indexes(k))), "k" + std::to_string(k));
      EXPECT_EQ(r.offsets(k), static_cast<uint64_t>(round));
    }
  }
  for (int k = 0; k < kKeys; k += 7) {
    const std::string key = "k" + std::to_string(k);
    for (int round = 0; round < kRounds; round += 5) {
      EXPECT_EQ(DataAt(client->QueryOffset("amount", key, static_cast<uint64_t>(round))),
                k * 1000 + round);
    }
    EXPECT_EQ(DataAt(client->QueryLatest("amount", key)), k * 1000 + kRounds - 1);
    // A bounded range: offsets [3, 8).
    higgins::wire::Index range;
    range.set_type(higgins::wire::Index::RANGE);
    range.set_stream("amount");
    range.set_partition(key);
    range.set_index(3);
    range.set_end(8);
    auto ranged = client->Query(range);
    ASSERT_EQ(ReplyErrors(ranged), "");
    const auto& record = ranged.getindexresponse().records(0);
    EXPECT_EQ(record.offset(), 3u);
    EXPECT_EQ(record.count(), 5u);
    arrow::RecordBatch batch = DecodeRecord(record);
    ASSERT_EQ(batch.num_rows(), 5);
    for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(batch.column(1).Value<int32_t>(i), k * 1000 + 3 + i);
  }
  // Missing offset, partition and stream are NotFound errors in the reply.
  auto missing = client->QueryOffset("amount", "k1", kRounds);
  EXPECT_EQ(missing.getindexresponse().code(), higgins::wire::NOT_FOUND);
  EXPECT_EQ(ReplyErrors(missing), "index 0: stream 'amount': partition 'k1' has no offset 12 "
                                  "(latest is 11)");
  auto no_key = client->QueryLatest("amount", "nope");
  EXPECT_EQ(ReplyErrors(no_key), "index 0: stream 'amount': partition 'nope' has no records");
  auto no_stream = client->QueryLatest("nope", "k1");
  EXPECT_EQ(no_stream.getindexresponse().code(), higgins::wire::NOT_FOUND);
  EXPECT_EQ(ReplyErrors(no_stream),
            "index 0: stream 'nope' does not exist (declared streams: amount)");

  // Metadata counts partitions and records.
  higgins::wire::Message meta;
  meta.set_type(higgins::wire::Message::METADATAREQUEST);
  meta.mutable_metadatarequest()->set_name("amount");
  auto m = client->Call(meta);
  ASSERT_EQ(ReplyErrors(m), "");
  ASSERT_EQ(m.metadataresponse().streams_size(), 1);
  EXPECT_EQ(m.metadataresponse().streams(0).partition_count(), static_cast<uint64_t>(kKeys));
  EXPECT_EQ(m.metadataresponse().streams(0).record_count(), static_cast<uint64_t>(kKeys * kRounds));
}

TEST_F(BrokerTest, QueryByTimestampFindsFirstRecordAtOrAfter) {
  StartBroker();
  auto client = Connect();
  ASSERT_EQ(ReplyErrors(client->CreateConfiguration(kQuickStart)), "");
  std::vector<uint64_t> stamps;
  for (int i = 0; i < 3; ++i) {
    auto r = client->Produce("amount", R"({"id":"t","data":)" + std::to_string(i) + "}");
    ASSERT_EQ(ReplyErrors(r), "");
    stamps.push_back(r.produceresponse().timestamp());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (int i = 0; i < 3; ++i) {
    higgins::wire::Index index;
    index.set_type(higgins::wire::Index::TIMESTAMP);
    index.set_stream("amount");
    index.set_partition("t");
    index.set_timestamp(stamps[static_cast<size_t>(i)]);
    EXPECT_EQ(DataAt(client->Query(index)), i);
  }
  higgins::wire::Index after;
  after.set_type(higgins::wire::Index::TIMESTAMP);
  after.set_stream("amount");
  after.set_partition("t");
  after.set_timestamp(stamps.back() + 1);
  EXPECT_EQ(client->Query(after).getindexresponse().code(), higgins::wire::NOT_FOUND);
}

TEST_F(BrokerTest, PipelinedRequestsAreAnsweredInOrder) {
  StartBroker();
  auto client = Connect();
  ASSERT_EQ(ReplyErrors(client->CreateConfiguration(kQuickStart)), "");
  std::vector<uint64_t> ids;
  std::vector<higgins::wire::Message::Type> expected;
  for (int i = 0; i < 300; ++i) {
    higgins::wire::Message m;
    if (i % 3 == 0) {
      m.set_type(higgins::wire::Message::PRODUCEREQUEST);
      m.mutable_producerequest()->set_stream_name("amount");
      m.mutable_producerequest()->set_payload(R"({"id":"p","data":)" + std::to_string(i) + "}");
      expected.push_back(higgins::wire::Message::PRODUCERESPONSE);
    } else if (i % 3 == 1) {
      m.set_type(higgins::wire::Message::PING);
      m.mutable_ping()->set_data(std::to_string(i));
      expected.push_back(higgins::wire::Message::PONG);
    } else {
      m.set_type(higgins::wire::Message::GETINDEXREQUEST);
      auto* index = m.mutable_getindexrequest()->add_indexes();
      index->set_type(higgins::wire::Index::LATEST);
      index->set_stream("amount");
      index->set_partition("p");
      expected.push_back(higgins::wire::Message::GETINDEXRESPONSE);
    }
    ids.push_back(client->Send(m));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    auto reply = client->Receive();
    ASSERT_TRUE(reply.has_value());
    EXPECT_EQ(reply->correlationid(), ids[i]);
    EXPECT_EQ(reply->type(), expected[i]);
    if (reply->type() == higgins::wire::Message::PRODUCERESPONSE) {
      EXPECT_EQ(reply->produceresponse().offsets(0), i / 3);
    }
    if (reply->type() == higgins::wire::Message::GETINDEXRESPONSE) {
      // The produce just before this query was answered first, so the query sees it.
      EXPECT_EQ(DataAt(*reply), static_cast<int32_t>(i - 2));
    }
  }
}

// Requests pipelined behind a configuration change see its effect: the change runs on the
// broker's administrative thread, and the session holds back what follows until it is done.
TEST_F(BrokerTest, PipelinedRequestsWaitForTheConfigurationChangeBeforeThem) {
  StartBroker();
  auto client = Connect();
  auto produce = [](int32_t value) {
    higgins::wire::Message m;
    m.set_type(higgins::wire::Message::PRODUCEREQUEST);
    m.mutable_producerequest()->set_stream_name("amount");
    m.mutable_producerequest()->set_payload(R"({"id":"a","data":)" + std::to_string(value) + "}");
    return m;
  };
  higgins::wire::Message create;
  create.set_type(higgins::wire::Message::CREATECONFIGURATIONREQUEST);
  create.mutable_createconfigurationrequest()->set_data(kQuickStart);
  higgins::wire::Message remove;
  remove.set_type(higgins::wire::Message::DELETECONFIGURATIONREQUEST);
  remove.mutable_deleteconfigurationrequest()->set_key("streams.amount");
  higgins::wire::Message latest;
  latest.set_type(higgins::wire::Message::GETINDEXREQUEST);
  auto* index = latest.mutable_getindexrequest()->add_indexes();
  index->set_type(higgins::wire::Index::LATEST);
  index->set_stream("amount");
  index->set_partition("a");
  // create, produce 1, produce 2, latest, delete, produce 3, create, produce 4, latest
  const std::vector<higgins::wire::Message> pipeline = {
      create, produce(1), produce(2), latest, remove, produce(3), create, produce(4), latest};
  for (const auto& m : pipeline) client->Send(m);
  std::vector<higgins::wire::Message> replies;
  for (size_t i = 0; i < pipeline.size(); ++i) {
    auto reply = client->Receive();
    ASSERT_TRUE(reply.has_value()) << i;
    replies.push_back(*reply);
  }
  EXPECT_EQ(ReplyErrors(replies[0]), "");
  ASSERT_EQ(ReplyErrors(replies[1]), "");
  EXPECT_EQ(replies[1].produceresponse().offsets(0), 0u);
  EXPECT_EQ(replies[2].produceresponse().offsets(0), 1u);
  EXPECT_EQ(DataAt(replies[3]), 2);
  EXPECT_EQ(ReplyErrors(replies[4]), "");
  // After the delete the stream is gone: the produce fails rather than being acknowledged
  // into a stream about to disappear.
  EXPECT_EQ(replies[5].produceresponse().code(), higgins::wire::NOT_FOUND) << ReplyErrors(replies[5]);
  EXPECT_EQ(ReplyErrors(replies[6]), "");
  ASSERT_EQ(ReplyErrors(replies[7]), "");
  EXPECT_EQ(replies[7].produceresponse().offsets(0), 0u);  // the new stream starts again
  EXPECT_EQ(DataAt(replies[8]), 4);
}

TEST_F(BrokerTest, RestartAfterKill9KeepsEveryAcknowledgedRecord) {
  StartBroker();
  {
    auto client = Connect();
    ASSERT_EQ(ReplyErrors(client->CreateConfiguration(kFileConfig)), "");
  }
  // Producers run until the broker is killed; every acknowledged (key, offset) -> value is kept.
  std::mutex mu;
  std::map<std::pair<std::string, uint64_t>, int32_t> acknowledged;
  std::atomic<bool> stop{false};
  std::vector<std::thread> producers;
  for (int p = 0; p < 3; ++p) {
    producers.emplace_back([&, p] {
      WireClient client(broker_->port());
      for (int i = 0; !stop; ++i) {
        // Pipeline a few requests, then read their replies.
        std::vector<std::pair<uint64_t, std::vector<int32_t>>> sent;
        for (int j = 0; j < 4; ++j) {
          std::string payload;
          std::vector<int32_t> values;
          for (int row = 0; row < 5; ++row) {
            int32_t value = p * 10'000'000 + i * 100 + j * 10 + row;
            values.push_back(value);
            payload += R"({"id":"key)" + std::to_string((value / 10) % 7) + R"(","data":)" +
                       std::to_string(value) + "}\n";
          }
          higgins::wire::Message m;
          m.set_type(higgins::wire::Message::PRODUCEREQUEST);
          m.mutable_producerequest()->set_stream_name("amount");
          m.mutable_producerequest()->set_payload(payload);
          sent.emplace_back(client.Send(m), values);
        }
        for (auto& [id, values] : sent) {
          auto reply = client.Receive();
          if (!reply) return;  // the broker died
          if (!ReplyErrors(*reply).empty()) return;
          const auto& r = reply->produceresponse();
          std::lock_guard lock(mu);
          for (int row = 0; row < r.offsets_size(); ++row) {
            acknowledged[{r.partitions(static_cast<int>(r.partition_indexes(row))),
                          r.offsets(row)}] = values[static_cast<size_t>(row)];
          }
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  broker_->Kill9();
  stop = true;
  for (auto& t : producers) t.join();
  ASSERT_GT(acknowledged.size(), 100u) << "too few produces were acknowledged to test anything";

  broker_->Start();
  auto client = Connect();
  std::map<std::string, uint64_t> latest_acknowledged;
  for (const auto& [position, value] : acknowledged) {
    latest_acknowledged[position.first] =
        std::max(latest_acknowledged[position.first], position.second);
  }
  size_t checked = 0;
  for (const auto& [position, value] : acknowledged) {
    // Every tenth, plus the last of each key.
    if (checked++ % 10 != 0 && latest_acknowledged[position.first] != position.second) continue;
    auto reply = client->QueryOffset("amount", position.first, position.second);
    ASSERT_EQ(DataAt(reply), value) << position.first << "@" << position.second;
  }
  // Offsets stay dense after recovery: the next produce continues each partition.
  for (const auto& [key, last] : latest_acknowledged) {
    auto latest = client->QueryLatest("amount", key);
    ASSERT_EQ(ReplyErrors(latest), "");
    const uint64_t recovered = latest.getindexresponse().records(0).offset();
    EXPECT_GE(recovered, last);
    auto reply = client->Produce("amount", R"({"id":")" + key + R"(","data":-1})");
    ASSERT_EQ(ReplyErrors(reply), "");
    EXPECT_EQ(reply.produceresponse().offsets(0), recovered + 1);
  }
}

TEST_F(BrokerTest, TopographyAndModulesSurviveRestart) {
  StartBroker();
  {
    auto client = Connect();
    higgins::wire::Message upload;
    upload.set_type(higgins::wire::Message::UPLOADMODULEREQUEST);
    upload.mutable_uploadmodulerequest()->set_name("double");
    upload.mutable_uploadmodulerequest()->set_value(ReadExampleModule("double"));
    ASSERT_EQ(ReplyErrors(client->Call(upload)), "");
    ASSERT_EQ(ReplyErrors(client->CreateConfiguration(std::string(kFileConfig) + R"(
[streams.result]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double"
)")), "");
    ASSERT_EQ(ReplyErrors(client->Produce("amount", R"({"id":"a","data":5})")), "");
  }
  ASSERT_EQ(broker_->Terminate(), 0) << broker_->Log();
  broker_->Start();
  auto client = Connect();
  EXPECT_EQ(DataAt(client->QueryLatest("amount", "a")), 5);
  higgins::wire::Message get;
  get.set_type(higgins::wire::Message::GETCURRENTTOPOGRAPHYREQUEST);
  get.mutable_getcurrenttopographyrequest();
  auto topography = client->Call(get);
  const std::string toml = topography.getcurrenttopographyresponse().toml();
  auto parsed = config::ParseConfiguration(toml);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString() << "\n" << toml;
  EXPECT_EQ(parsed->streams.size(), 2u);
  // Uploading the returned topography again is a no-op.
  EXPECT_EQ(ReplyErrors(client->CreateConfiguration(toml)), "");
  // Producing to the derived stream is refused.
  EXPECT_EQ(ReplyErrors(client->Produce("result", R"({"id":"a","data":5})")),
            "stream 'result' is derived (map): its records are produced by the broker, not by "
            "clients");
}

TEST_F(BrokerTest, SigtermAnswersInFlightProduces) {
  StartBroker();
  auto client = Connect();
  ASSERT_EQ(ReplyErrors(client->CreateConfiguration(kFileConfig)), "");
  std::vector<uint64_t> ids;
  for (int i = 0; i < 50; ++i) {
    higgins::wire::Message m;
    m.set_type(higgins::wire::Message::PRODUCEREQUEST);
    m.mutable_producerequest()->set_stream_name("amount");
    m.mutable_producerequest()->set_payload(R"({"id":"s","data":)" + std::to_string(i) + "}");
    ids.push_back(client->Send(m));
  }
  // Let the broker read them, then ask it to stop.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread stopper([&] { EXPECT_EQ(broker_->Terminate(), 0); });
  size_t answered = 0;
  while (auto reply = client->Receive()) {
    EXPECT_EQ(reply->correlationid(), ids[answered]);
    EXPECT_EQ(ReplyErrors(*reply), "");
    ++answered;
  }
  stopper.join();
  EXPECT_EQ(answered, ids.size());
  broker_->Start();
  auto again = Connect();
  auto latest = again->QueryLatest("amount", "s");
  EXPECT_EQ(DataAt(latest), 49);
}

TEST_F(BrokerTest, SecondBrokerOnTheSameFolderIsRefused) {
  StartBroker();
  const std::string log = tmp_.path() + "/second.log";
  const std::string command = std::string(HIGGINS_BROKER_BINARY) + " --port=0 --kafka-port=0 --http-port=0 --dir=" +
                              broker_->dir() + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("/LOCK is locked by process"), std::string::npos) << text.str();
  // The first broker is unaffected.
  auto client = Connect();
  EXPECT_TRUE(client->Ping());
}

TEST_F(BrokerTest, SuccessfulRepliesCarryTheirBody) {
  StartBroker();
  auto client = Connect();
  auto created = client->CreateConfiguration(kQuickStart);
  EXPECT_TRUE(created.has_createconfigurationresponse());
  EXPECT_EQ(created.createconfigurationresponse().errors_size(), 0);
  higgins::wire::Message remove;
  remove.set_type(higgins::wire::Message::DELETECONFIGURATIONREQUEST);
  remove.mutable_deleteconfigurationrequest()->set_key("streams.amount");
  auto deleted = client->Call(remove);
  EXPECT_TRUE(deleted.has_deleteconfigurationresponse());
  EXPECT_EQ(ReplyErrors(deleted), "");
  // The deleted stream is gone.
  EXPECT_EQ(ReplyErrors(client->Produce("amount", R"({"id":"a","data":1})")),
            "stream 'amount' does not exist (no streams are declared)");
}

}  // namespace
}  // namespace higgins::test
