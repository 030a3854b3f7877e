#include "client/dispatcher.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/connection.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace higgins::client_internal {
namespace {

namespace wire = higgins::wire;
using std::chrono::milliseconds;

// A Dispatcher on one end of a socket pair; the test plays the broker on the other.
class DispatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    broker_ = UniqueFd(fds[1]);
    auto started = Dispatcher::Start(UniqueFd(fds[0]), {.address = "test:1"});
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    dispatcher_ = *std::move(started);
  }
  void TearDown() override {
    if (dispatcher_) dispatcher_->Stop();
  }

  // The next request the dispatcher wrote.
  wire::Message ReadRequest() {
    while (true) {
      if (auto body = decoder_.Next()) {
        auto m = protocol::ParseMessage(*body);
        EXPECT_TRUE(m.ok());
        return *m;
      }
      uint8_t chunk[4096];
      const ssize_t n = ::read(broker_.get(), chunk, sizeof(chunk));
      EXPECT_GT(n, 0);
      if (n <= 0) return {};
      EXPECT_TRUE(decoder_.Consume({chunk, static_cast<size_t>(n)}).ok());
    }
  }

  void Write(const wire::Message& m) {
    auto frame = protocol::SerializeFrame(m, protocol::kDefaultMaxFrameBytes);
    ASSERT_TRUE(frame.ok());
    ASSERT_TRUE(SendAll(broker_.get(), *frame).ok());
  }

  static wire::Message Push(std::initializer_list<uint64_t> offsets) {
    wire::Message m;
    m.set_type(wire::Message::TAKERECORDSRESPONSE);
    auto* push = m.mutable_takerecordsresponse();
    push->set_push(true);
    push->set_subscription_id("0123456789abcdef");
    for (uint64_t offset : offsets) push->add_records()->set_offset(offset);
    return m;
  }

  UniqueFd broker_;
  protocol::FrameDecoder decoder_;
  std::shared_ptr<Dispatcher> dispatcher_;
};

TEST_F(DispatcherTest, PushBeforeTheTakeReplyGoesToTheDeliveryQueue) {
  wire::Message take;
  take.set_type(wire::Message::TAKERECORDSREQUEST);
  take.mutable_takerecordsrequest()->set_n(2);
  auto slot = dispatcher_->Send(take);
  const wire::Message sent = ReadRequest();
  ASSERT_TRUE(sent.has_correlationid());

  Write(Push({3, 5}));
  wire::Message reply;
  reply.set_type(wire::Message::TAKERECORDSRESPONSE);
  reply.set_correlationid(sent.correlationid());
  reply.mutable_takerecordsresponse()->set_demand(2);
  Write(reply);

  auto got = slot->Take();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_FALSE(got->takerecordsresponse().push());
  EXPECT_EQ(got->takerecordsresponse().demand(), 2u);
  for (uint64_t offset : {3u, 5u}) {
    auto pushed = dispatcher_->NextPush(milliseconds(1000));
    ASSERT_TRUE(pushed.ok() && pushed->has_value());
    EXPECT_EQ((*pushed)->subscription_id, "0123456789abcdef");
    EXPECT_EQ((*pushed)->record.offset(), offset);
  }
  auto none = dispatcher_->NextPush(milliseconds(0));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE(dispatcher_->closed());
}

TEST_F(DispatcherTest, PushesOutliveTheConnectionThenIOError) {
  Write(Push({1}));
  Write(Push({2}));
  broker_.Reset();  // the broker goes away
  for (uint64_t offset : {1u, 2u}) {
    auto pushed = dispatcher_->NextPush(milliseconds(1000));
    ASSERT_TRUE(pushed.ok() && pushed->has_value()) << offset;
    EXPECT_EQ((*pushed)->record.offset(), offset);
  }
  auto after = dispatcher_->NextPush(milliseconds(1000));
  EXPECT_EQ(after.status(),
            Status::IOError("not connected to test:1: connection closed by the broker"));
}

TEST_F(DispatcherTest, UncorrelatedNonPushRepliesAreIgnored) {
  wire::Message stray;
  stray.set_type(wire::Message::TAKERECORDSRESPONSE);  // push = false, no correlation id
  Write(stray);
  Write(Push({4}));
  auto pushed = dispatcher_->NextPush(milliseconds(1000));
  ASSERT_TRUE(pushed.ok() && pushed->has_value());
  EXPECT_EQ((*pushed)->record.offset(), 4u);
  EXPECT_FALSE(dispatcher_->closed());
}

TEST_F(DispatcherTest, LocalCloseFailsAWaitingNextPush) {
  std::thread closer([&] {
    std::this_thread::sleep_for(milliseconds(10));
    dispatcher_->Close(Status::IOError("the client closed the connection"));
  });
  auto got = dispatcher_->NextPush(milliseconds(5000));
  closer.join();
  EXPECT_EQ(got.status(),
            Status::IOError("not connected to test:1: the client closed the connection"));
}

}  // namespace
}  // namespace higgins::client_internal
