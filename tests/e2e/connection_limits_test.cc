// Limits of connections on a real broker (docs/operations.md, "Connection memory" and
// "Connections"): a connection stops being read at its byte limits and loses nothing; idle
// connections are closed after --idle-timeout, consumers and busy ones are not; a client over
// --max-connections is told why.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "amount_configs.h"
#include "broker_process.h"
#include "higgins/client.h"
#include "protocol/messages.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;

higgins::wire::Message PingWith(size_t bytes, uint64_t correlation_id) {
  higgins::wire::Message ping;
  ping.set_type(higgins::wire::Message::PING);
  ping.mutable_ping()->set_data(std::string(bytes, 'p'));
  ping.set_correlationid(correlation_id);
  return ping;
}

std::string PingFrames(size_t count, size_t bytes, uint64_t first_id) {
  std::string frames;
  for (size_t i = 0; i < count; ++i) {
    auto frame = protocol::SerializeFrame(PingWith(bytes, first_id + i), 1u << 30);
    EXPECT_TRUE(frame.ok());
    frames += *frame;
  }
  return frames;
}

// 40 pings of 1 MiB that the client does not read the replies of: the broker reads until
// its byte limits (64 KiB of requests, 64 KiB of replies here), then leaves the rest in TCP's
// buffers; without the limits it would take all 40 MiB. Once the client reads, every ping is
// answered, in order.
TEST(ConnectionLimitsTest, ReadingStopsAtTheByteLimitsAndNothingIsLost) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data", {"--max-request-bytes-per-connection=65536",
                                              "--max-reply-bytes-per-connection=65536"});
  broker.Start();
  WireClient client(broker.port());
  const size_t kPings = 40;
  const std::string frames = PingFrames(kPings, size_t{1} << 20, 1);
  size_t sent = client.SendUntilStalled(frames, 2000);
  // Loopback TCP buffers hold a few MiB each way; the broker holds about 2 MiB here.
  EXPECT_LT(sent, frames.size() / 2) << "the broker read " << sent << " bytes without a limit";
  std::thread writer([&] { client.SendRaw(std::string_view(frames).substr(sent)); });
  for (uint64_t id = 1; id <= kPings; ++id) {
    auto reply = client.Receive();
    ASSERT_TRUE(reply.has_value()) << "no reply to ping " << id;
    EXPECT_EQ(reply->type(), higgins::wire::Message::PONG);
    EXPECT_EQ(reply->correlationid(), id);
    EXPECT_EQ(reply->pong().data().size(), size_t{1} << 20);
  }
  writer.join();
  EXPECT_TRUE(client.Ping());
}

// Behind a configuration upload, requests wait (they must see its effects); the byte limit
// stops reading while they wait, and all are answered once it is done.
TEST(ConnectionLimitsTest, RequestsWaitingBehindAConfigurationAreBoundedAndAnswered) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data", {"--max-request-bytes-per-connection=65536"});
  broker.Start();
  WireClient client(broker.port());
  higgins::wire::Message configuration;
  configuration.set_type(higgins::wire::Message::CREATECONFIGURATIONREQUEST);
  configuration.mutable_createconfigurationrequest()->set_data(kQuickStart);
  configuration.set_correlationid(1);
  auto first = protocol::SerializeFrame(configuration, 1u << 30);
  ASSERT_TRUE(first.ok());
  const std::string frames = *first + PingFrames(200, 100 * 1024, 2);
  std::thread writer([&] { client.SendRaw(frames); });
  for (uint64_t id = 1; id <= 201; ++id) {
    auto reply = client.Receive();
    ASSERT_TRUE(reply.has_value()) << "no reply to request " << id;
    EXPECT_EQ(reply->correlationid(), id);
    EXPECT_EQ(reply->type(), id == 1 ? higgins::wire::Message::CREATECONFIGURATIONRESPONSE
                                     : higgins::wire::Message::PONG);
  }
  writer.join();
}

TEST(ConnectionLimitsTest, AnIdleConnectionIsClosedAfterTheIdleTimeout) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data", {"--idle-timeout=1", "--log-level=debug"});
  broker.Start();
  WireClient idle(broker.port());
  ASSERT_TRUE(idle.Ping());
  // A connection that keeps talking stays open past the timeout.
  WireClient active(broker.port());
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(active.Ping()) << "an active connection was closed";
    std::this_thread::sleep_for(300ms);
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, 2900ms);
  EXPECT_TRUE(idle.ClosedByPeer());
  EXPECT_NE(broker.Log().find("idle for"), std::string::npos) << broker.Log();
}

TEST(ConnectionLimitsTest, AConsumerIsNotClosedForIdleness) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data", {"--idle-timeout=1", "--log-level=debug"});
  broker.Start();
  ClientOptions options;
  options.port = broker.port();
  auto consumer = Client::Connect(options);
  ASSERT_TRUE(consumer.ok()) << consumer.status().ToString();
  ASSERT_TRUE((*consumer)->UploadConfiguration(kQuickStart).ok());
  auto id = (*consumer)->CreateSubscription("amount", SubscriptionStart::Current(), 0ms);
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  ASSERT_TRUE((*consumer)->Take(*id, 10).ok());
  std::this_thread::sleep_for(2500ms);  // past the timeout, without a byte either way
  auto producer = Client::Connect(options);
  ASSERT_TRUE(producer.ok());
  ASSERT_TRUE((*producer)->ProduceJson("amount", R"({"id":"k","data":7})").ok());
  auto delivery = (*consumer)->NextDelivery(5s);
  ASSERT_TRUE(delivery.ok()) << delivery.status().ToString();
  ASSERT_TRUE(delivery->has_value()) << "the consumer's connection was closed";
  EXPECT_EQ((*delivery)->records.partition_key, "k");
}

TEST(ConnectionLimitsTest, AClientOverTheConnectionLimitIsToldWhy) {
  TempDir tmp;
  BrokerProcess broker(tmp.path() + "/data", {"--max-connections=2"});
  broker.Start();
  WireClient first(broker.port());
  WireClient second(broker.port());
  ASSERT_TRUE(first.Ping());
  ASSERT_TRUE(second.Ping());
  WireClient third(broker.port());
  auto reply = third.Receive();
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->type(), higgins::wire::Message::ERROR);
  EXPECT_EQ(reply->error().type(), higgins::wire::Error::OVERLOADED);
  EXPECT_EQ(reply->error().message(),
            "the broker has 2 connections open, its limit (--max-connections)");
  EXPECT_TRUE(third.ClosedByPeer());
  // A place freed is taken again.
  second.ShutdownWrite();
  EXPECT_TRUE(second.ClosedByPeer());
  std::this_thread::sleep_for(200ms);
  WireClient fourth(broker.port());
  EXPECT_TRUE(fourth.Ping());
}

}  // namespace
}  // namespace higgins::test
