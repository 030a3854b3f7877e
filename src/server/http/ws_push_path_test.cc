// The push path of the WebSocket channels: frames made once by EncodeTextFrame, and the
// CoalescingStream that writes many of them per socket write (docs/http.md, "WebSocket
// channels"). The stream is tested on a real loopback connection, read by Beast's client.

// Beast 1.74's HTTP parser (here the client handshake's) trips GCC 12's -Wmaybe-uninitialized
// on a boost::optional under the sanitizers: a false positive.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include <atomic>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/http/coalescing_stream.h"
#include "server/http/ws_frame_encoder.h"

namespace higgins::server::http {
namespace {

namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using asio::ip::tcp;

// A text message of `payload`, framed, as the channels queue it.
std::shared_ptr<const std::string> Frame(const std::string& payload) {
  return std::make_shared<const std::string>(*EncodeTextFrame(payload));
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

TEST(EncodeTextFrameTest, SmallPayloadIsOneUnmaskedFrameAsInRfc6455Section57) {
  // RFC 6455 section 5.7: "A single-frame unmasked text message" of "Hello".
  auto frame = EncodeTextFrame("Hello");
  ASSERT_TRUE(frame.ok()) << frame.status().ToString();
  EXPECT_EQ(*frame, Bytes({0x81, 0x05, 'H', 'e', 'l', 'l', 'o'}));
}

TEST(EncodeTextFrameTest, LengthsPast125And65535TakeTheExtendedLengthFields) {
  const std::string medium(126, 'm');
  auto frame = EncodeTextFrame(medium);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(frame->substr(0, 4), Bytes({0x81, 126, 0x00, 126}));
  EXPECT_EQ(frame->substr(4), medium);

  const std::string large(65536, 'l');
  frame = EncodeTextFrame(large);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(frame->substr(0, 10), Bytes({0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(frame->size(), 10 + large.size());
}

TEST(EncodeTextFrameTest, EmptyPayloadAndRepeatedCallsOnOneThread) {
  for (int i = 0; i < 3; ++i) {
    auto frame = EncodeTextFrame("");
    ASSERT_TRUE(frame.ok());
    EXPECT_EQ(*frame, Bytes({0x81, 0x00}));
  }
}

// A server-side CoalescingStream and a Beast WebSocket client on loopback. The client's side
// of the upgrade is skipped: the server stream writes raw frames, which the client reads
// after its own handshake against a websocket::stream<CoalescingStream> in the server role.
class CoalescingStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tcp::acceptor acceptor(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    client_.next_layer().connect(acceptor.local_endpoint());
    tcp::socket accepted = acceptor.accept();
    server_.emplace(beast::tcp_stream(std::move(accepted)));
    // The handshake: the client's request on a thread of its own, the server's answer here.
    // (The server's stream only writes asynchronously.)
    std::thread client([this] { client_.handshake("localhost", "/"); });
    bool accepted_upgrade = false;
    server_->async_accept([&](beast::error_code ec) {
      ASSERT_FALSE(ec) << ec.message();
      accepted_upgrade = true;
    });
    while (!accepted_upgrade) Run(std::chrono::milliseconds(5));
    client.join();
  }

  // Runs the server's handlers for `d` (the context stops whenever it runs out of work).
  void Run(std::chrono::milliseconds d) {
    io_.restart();
    io_.run_for(d);
  }

  // Reads `n` messages, or up to one equal to `last`, with the blocking client on a thread of
  // its own while `io_` runs the server's writes here.
  std::vector<std::string> ReadMessages(size_t n, const std::string& last = {}) {
    std::vector<std::string> out;
    std::atomic<bool> done{false};
    std::thread reader([&] {
      for (size_t i = 0; i < n; ++i) {
        beast::flat_buffer buffer;
        beast::error_code ec;
        client_.read(buffer, ec);
        if (ec) break;
        out.push_back(beast::buffers_to_string(buffer.data()));
        if (!last.empty() && out.back() == last) break;
      }
      done = true;
    });
    while (!done) Run(std::chrono::milliseconds(5));
    reader.join();
    return out;
  }

  // Queues 16 messages of 1 MiB of `fill` and flushes: over what a loopback socket buffer
  // takes at once, so the first send is partial. Returns the messages' payload.
  std::string QueueMoreThanTheSocketTakes(char fill) {
    std::string payload(1 << 20, fill);
    const auto frame = Frame(payload);
    for (int i = 0; i < 16; ++i) server_->next_layer().Append(frame);
    server_->next_layer().Flush();
    return payload;
  }

  asio::io_context io_;
  websocket::stream<tcp::socket> client_{io_};
  std::optional<websocket::stream<CoalescingStream>> server_;
};

TEST_F(CoalescingStreamTest, AppendedFramesArriveAsMessagesInOrder) {
  CoalescingStream& out = server_->next_layer();
  for (int i = 0; i < 5; ++i) out.Append(Frame("record " + std::to_string(i)));
  EXPECT_GT(out.queued_bytes(), 0u);
  out.Flush();
  auto messages = ReadMessages(5);
  ASSERT_EQ(messages.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(messages[i], "record " + std::to_string(i));
  EXPECT_EQ(out.queued_bytes(), 0u);
  EXPECT_FALSE(out.error());
}

TEST_F(CoalescingStreamTest, MoreThanTheSocketTakesAtOnceIsFinishedAsynchronously) {
  CoalescingStream& out = server_->next_layer();
  const std::string payload = QueueMoreThanTheSocketTakes('x');
  EXPECT_GT(out.queued_bytes(), 0u);  // the rest waits for the client
  bool flushed = false;
  out.AfterFlush([&](beast::error_code ec) {
    EXPECT_FALSE(ec);
    flushed = true;
  });
  auto messages = ReadMessages(16);
  ASSERT_EQ(messages.size(), 16u);
  for (const std::string& m : messages) EXPECT_EQ(m, payload);
  Run(std::chrono::milliseconds(50));
  EXPECT_TRUE(flushed);
  EXPECT_EQ(out.queued_bytes(), 0u);
}

TEST_F(CoalescingStreamTest, MoreMessagesThanOneSendGathersAreSentInSeveral) {
  CoalescingStream& out = server_->next_layer();
  for (int i = 0; i < 300; ++i) out.Append(Frame(std::to_string(i)));
  out.Flush();
  auto messages = ReadMessages(300);
  ASSERT_EQ(messages.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(messages[i], std::to_string(i));
}

TEST_F(CoalescingStreamTest, DiscardingFinishesTheMessageTheSocketHasStarted) {
  CoalescingStream& out = server_->next_layer();
  const std::string payload = QueueMoreThanTheSocketTakes('y');
  const size_t queued = out.queued_bytes();
  ASSERT_GT(queued, 0u);
  out.DiscardPending();
  EXPECT_LT(out.queued_bytes(), queued);
  EXPECT_LE(out.queued_bytes(), payload.size() + 16);  // at most one message
  out.Append(Frame("last"));
  out.Flush();
  // Whole messages up to "last": what the socket had started is finished, not cut.
  auto messages = ReadMessages(100, "last");
  ASSERT_GE(messages.size(), 2u);
  EXPECT_LT(messages.size(), 17u);
  EXPECT_EQ(messages.back(), "last");
  for (size_t i = 0; i + 1 < messages.size(); ++i) EXPECT_EQ(messages[i], payload) << i;
}

TEST_F(CoalescingStreamTest, BeastsControlFramesGoBetweenWholeMessages) {
  CoalescingStream& out = server_->next_layer();
  out.Append(Frame("before"));
  bool pinged = false;
  server_->async_ping("p", [&](beast::error_code ec) {
    EXPECT_FALSE(ec);
    pinged = true;
  });
  out.Append(Frame("after"));
  out.Flush();
  std::string seen_ping;
  client_.control_callback([&](websocket::frame_type kind, beast::string_view payload) {
    if (kind == websocket::frame_type::ping) seen_ping = std::string(payload);
  });
  auto messages = ReadMessages(2);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], "before");
  EXPECT_EQ(messages[1], "after");
  EXPECT_EQ(seen_ping, "p");
  EXPECT_TRUE(pinged);
}

TEST_F(CoalescingStreamTest, DiscardPendingDropsWhatWasNotHandedToTheSocket) {
  CoalescingStream& out = server_->next_layer();
  out.Append(Frame("kept"));
  out.Flush();
  out.Append(Frame("dropped"));
  out.DiscardPending();
  out.Append(Frame("last"));
  out.Flush();
  auto messages = ReadMessages(2);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], "kept");
  EXPECT_EQ(messages[1], "last");
}

TEST_F(CoalescingStreamTest, AWriteToAClosedPeerFailsAndEveryLaterOneToo) {
  CoalescingStream& out = server_->next_layer();
  client_.next_layer().close();
  const auto frame = Frame(std::string(1 << 16, 'z'));
  // The first sends may land in the socket buffer before the reset comes back.
  for (int i = 0; i < 200 && !out.error(); ++i) {
    out.Append(frame);
    out.Flush();
    Run(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(out.error());
  beast::error_code after;
  bool called = false;
  out.AfterFlush([&](beast::error_code ec) {
    after = ec;
    called = true;
  });
  Run(std::chrono::milliseconds(20));
  EXPECT_TRUE(called);
  EXPECT_TRUE(after);
}

}  // namespace
}  // namespace higgins::server::http
