#include "wire_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/reader.h"
#include "protocol/messages.h"

namespace higgins::test {

WireClient::WireClient(uint16_t port) : decoder_(1u << 30) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ADD_FAILURE() << "connect to port " << port << ": " << std::strerror(errno);
    ::close(fd_);
    fd_ = -1;
    return;
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

WireClient::~WireClient() {
  if (fd_ >= 0) ::close(fd_);
}

void WireClient::SendRaw(std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      ADD_FAILURE() << "send: " << std::strerror(errno);
      return;
    }
    done += static_cast<size_t>(n);
  }
}

uint64_t WireClient::Send(higgins::wire::Message message) {
  if (!message.has_correlationid()) message.set_correlationid(next_id_++);
  auto frame = protocol::SerializeFrame(message, 1u << 30);
  EXPECT_TRUE(frame.ok()) << frame.status().ToString();
  if (frame.ok()) SendRaw(*frame);
  return message.correlationid();
}

size_t WireClient::SendUntilStalled(std::string_view bytes, int stall_ms) {
  size_t done = 0;
  while (done < bytes.size()) {
    pollfd p{fd_, POLLOUT, 0};
    const int ready = ::poll(&p, 1, stall_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0 || (p.revents & POLLOUT) == 0) break;
    const ssize_t n =
        ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n <= 0) {
      ADD_FAILURE() << "send: " << std::strerror(errno);
      break;
    }
    done += static_cast<size_t>(n);
  }
  return done;
}

void WireClient::ShutdownWrite() { ::shutdown(fd_, SHUT_WR); }

std::optional<higgins::wire::Message> WireClient::Receive() {
  char buffer[65536];
  while (true) {
    if (auto body = decoder_.Next()) {
      auto message = protocol::ParseMessage(*body);
      EXPECT_TRUE(message.ok()) << message.status().ToString();
      if (!message.ok()) return std::nullopt;
      return *std::move(message);
    }
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 30'000) <= 0) {
      ADD_FAILURE() << "no reply within 30 s";
      return std::nullopt;
    }
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n <= 0) return std::nullopt;
    Status s = decoder_.Consume({reinterpret_cast<const uint8_t*>(buffer), static_cast<size_t>(n)});
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
}

higgins::wire::Message WireClient::Call(higgins::wire::Message message) {
  const uint64_t id = Send(std::move(message));
  auto reply = Receive();
  if (!reply) {
    ADD_FAILURE() << "connection closed before the reply to request " << id;
    return {};
  }
  EXPECT_EQ(reply->correlationid(), id);
  return *std::move(reply);
}

bool WireClient::ClosedByPeer() {
  char buffer[4096];
  pollfd p{fd_, POLLIN, 0};
  while (::poll(&p, 1, 5000) > 0) {
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n == 0) return true;
    if (n < 0) return errno == ECONNRESET;
  }
  return false;
}

higgins::wire::Message WireClient::CreateConfiguration(std::string_view toml) {
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::CREATECONFIGURATIONREQUEST);
  m.mutable_createconfigurationrequest()->set_data(std::string(toml));
  return Call(std::move(m));
}

higgins::wire::Message WireClient::Produce(std::string_view stream, std::string_view payload,
                                     higgins::wire::PayloadFormat format) {
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::PRODUCEREQUEST);
  auto* p = m.mutable_producerequest();
  p->set_stream_name(std::string(stream));
  p->set_payload(std::string(payload));
  p->set_format(format);
  return Call(std::move(m));
}

higgins::wire::Message WireClient::Query(higgins::wire::Index index) {
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::GETINDEXREQUEST);
  *m.mutable_getindexrequest()->add_indexes() = std::move(index);
  return Call(std::move(m));
}

higgins::wire::Message WireClient::QueryOffset(std::string_view stream, std::string_view key,
                                         uint64_t offset) {
  higgins::wire::Index index;
  index.set_type(higgins::wire::Index::OFFSET);
  index.set_stream(std::string(stream));
  index.set_partition(std::string(key));
  index.set_index(offset);
  return Query(std::move(index));
}

higgins::wire::Message WireClient::QueryLatest(std::string_view stream, std::string_view key) {
  higgins::wire::Index index;
  index.set_type(higgins::wire::Index::LATEST);
  index.set_stream(std::string(stream));
  index.set_partition(std::string(key));
  return Query(std::move(index));
}

bool WireClient::Ping() {
  higgins::wire::Message m;
  m.set_type(higgins::wire::Message::PING);
  m.mutable_ping()->set_data("hello");
  higgins::wire::Message reply = Call(std::move(m));
  return reply.type() == higgins::wire::Message::PONG && reply.pong().data() == "hello";
}

arrow::RecordBatch DecodeRecord(const higgins::wire::Record& record) {
  auto read = arrow::ipc::ReadStream(Buffer::Copy(std::string_view(record.data())));
  EXPECT_TRUE(read.ok()) << read.status().ToString();
  if (!read.ok() || read->batches.empty()) return {};
  auto batch = arrow::ConcatenateBatches(read->schema, read->batches);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return batch.ok() ? *batch : arrow::RecordBatch();
}

std::string ReplyErrors(const higgins::wire::Message& reply) {
  auto join = [](const auto& errors) {
    std::string out;
    for (const auto& e : errors) out += (out.empty() ? "" : "\n") + e;
    return out;
  };
  switch (reply.type()) {
    case higgins::wire::Message::ERROR:
      return "ERROR " + higgins::wire::Error::Type_Name(reply.error().type()) + ": " +
             reply.error().message();
    case higgins::wire::Message::PRODUCERESPONSE:
      return join(reply.produceresponse().errors());
    case higgins::wire::Message::GETINDEXRESPONSE:
      return join(reply.getindexresponse().errors());
    case higgins::wire::Message::CREATECONFIGURATIONRESPONSE:
      return join(reply.createconfigurationresponse().errors());
    case higgins::wire::Message::DELETECONFIGURATIONRESPONSE:
      return join(reply.deleteconfigurationresponse().errors());
    case higgins::wire::Message::UPLOADMODULERESPONSE:
      return join(reply.uploadmoduleresponse().errors());
    case higgins::wire::Message::METADATARESPONSE:
      return join(reply.metadataresponse().errors());
    default:
      return "";
  }
}

}  // namespace higgins::test
