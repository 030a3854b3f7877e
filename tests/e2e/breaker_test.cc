// Adversarial end-to-end tests: hostile clients and damaged files. Each case is a problem found
// by attacking the broker, kept so that it stays fixed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "broker_process.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "amount_configs.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

namespace fs = std::filesystem;
using higgins::wire::Message;

/// Resident memory of a process, in MiB (0 when unknown).
size_t RssMiB(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) / 1024;
  }
  return 0;
}

std::string Framed(const Message& message) {
  auto frame = protocol::SerializeFrame(message, 64u << 20);
  EXPECT_TRUE(frame.ok());
  return frame.ok() ? *frame : std::string();
}

class BreakerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Under AddressSanitizer freed memory is held in a quarantine (256 MiB by default), which
    // would blur the memory measurements; keep it small for the broker started below.
    ::setenv("ASAN_OPTIONS", "quarantine_size_mb=16", /*overwrite=*/0);
  }
  void StartBroker(std::vector<std::string> args = {}) {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data", std::move(args));
    broker_->Start();
  }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
};

// Names and keys are `bytes` on the wire, but the `errors` that quote them are `string`, which
// must be valid UTF-8: otherwise the client cannot parse the reply at all.
TEST_F(BreakerTest, ErrorsQuotingInvalidUtf8AreStillParseableReplies) {
  StartBroker();
  WireClient client(broker_->port());
  ASSERT_EQ(ReplyErrors(client.CreateConfiguration(kQuickStart)), "");

  Message produced = client.Produce("\xff\xfe", R"({"id":"a","data":1})");
  ASSERT_EQ(produced.type(), Message::PRODUCERESPONSE);
  EXPECT_EQ(produced.produceresponse().code(), higgins::wire::NOT_FOUND);
  EXPECT_EQ(ReplyErrors(produced), "stream '\\xFF\\xFE' does not exist (declared streams: amount)");

  higgins::wire::Index index;
  index.set_stream("amount");
  index.set_partition("k\xc3");
  index.set_type(higgins::wire::Index::LATEST);
  Message queried = client.Query(index);
  ASSERT_EQ(queried.type(), Message::GETINDEXRESPONSE);
  EXPECT_EQ(ReplyErrors(queried), "index 0: stream 'amount': partition 'k\\xC3' has no records");

  Message del;
  del.set_type(Message::DELETECONFIGURATIONREQUEST);
  del.mutable_deleteconfigurationrequest()->set_key("streams.\xe2\x82");
  Message deleted = client.Call(del);
  ASSERT_EQ(deleted.type(), Message::DELETECONFIGURATIONRESPONSE);
  EXPECT_EQ(deleted.deleteconfigurationresponse().code(), higgins::wire::NOT_FOUND);
  EXPECT_NE(ReplyErrors(deleted).find("\\xE2\\x82"), std::string::npos) << ReplyErrors(deleted);
  // Valid UTF-8 is quoted as it is.
  EXPECT_EQ(ReplyErrors(client.Produce("caf\xc3\xa9", R"({"id":"a","data":1})")),
            "stream 'caf\xc3\xa9' does not exist (declared streams: amount)");
}

// A client that pipelines queries with large replies and never reads them: the broker must not
// buffer every reply (1024 requests of up to 64 MiB each); it stops executing and reading once
// a bounded amount of replies waits to be sent.
TEST_F(BreakerTest, UnreadRepliesDoNotGrowMemoryWithoutBound) {
  StartBroker();
  WireClient client(broker_->port());
  ASSERT_EQ(ReplyErrors(client.CreateConfiguration(R"([storage.memory]
type = "memory"
[schema.big]
id = "string"
data = "int32"
pad = "string"
[streams.big]
schema = "big"
partition_key = "id"
)")),
            "");
  // 2,000 rows of 2 KiB: a RANGE reply of about 4 MiB.
  std::string rows;
  const std::string pad(2048, 'x');
  for (int i = 0; i < 2000; ++i) {
    rows += R"({"id":"k","data":)" + std::to_string(i) + R"(,"pad":")" + pad + "\"}\n";
  }
  ASSERT_EQ(ReplyErrors(client.Produce("big", rows)), "");

  Message query;
  query.set_type(Message::GETINDEXREQUEST);
  auto* index = query.mutable_getindexrequest()->add_indexes();
  index->set_stream("big");
  index->set_partition("k");
  index->set_type(higgins::wire::Index::RANGE);
  index->set_index(0);
  query.set_correlationid(1);
  std::string burst;
  for (int i = 0; i < 250; ++i) burst += Framed(query);  // ~1 GiB of replies if all were kept

  const size_t before = RssMiB(broker_->pid());
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  int small = 4096;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(broker_->port());
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::send(fd, burst.data(), burst.size(), 0), static_cast<ssize_t>(burst.size()));
  size_t peak = 0;
  for (int i = 0; i < 30; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    peak = std::max(peak, RssMiB(broker_->pid()));
  }
  ::close(fd);
  EXPECT_LT(peak, before + 300) << "resident memory went from " << before << " to " << peak
                                << " MiB";
  EXPECT_TRUE(client.Ping());
}

// Module names are stored as <dir>/modules/<name>@<version>.wasm (written through a .tmp file),
// so a name must leave room for those suffixes within the file-name limit of 255 bytes: names
// are at most 200 bytes. A longer name is the client's error (INVALID_ARGUMENT), not the disk's
// (IO_ERROR).
TEST_F(BreakerTest, ModuleNamesTooLongForAFileAreInvalidArguments) {
  StartBroker();
  WireClient client(broker_->port());
  auto upload = [&](const std::string& name) {
    Message m;
    m.set_type(Message::UPLOADMODULEREQUEST);
    m.mutable_uploadmodulerequest()->set_name(name);
    m.mutable_uploadmodulerequest()->set_value(ReadExampleModule("double"));
    return client.Call(m).uploadmoduleresponse();
  };
  auto longest = upload(std::string(200, 'm'));
  EXPECT_EQ(longest.code(), higgins::wire::OK) << (longest.errors_size() ? longest.errors(0) : "");
  for (size_t n : {201u, 247u, 255u, 300u}) {
    auto refused = upload(std::string(n, 'm'));
    EXPECT_EQ(refused.code(), higgins::wire::INVALID_ARGUMENT) << n;
    ASSERT_EQ(refused.errors_size(), 1);
    EXPECT_NE(refused.errors(0).find("1 to 200 characters"), std::string::npos)
        << refused.errors(0);
  }
  for (const char* bad : {"", "../x", "a/b", ".", ".."}) {
    EXPECT_EQ(upload(bad).code(), higgins::wire::INVALID_ARGUMENT) << bad;
  }
}

// Acknowledged records were fsynced before their index records were written, so an index that
// lists more rows than the segments hold means acknowledged data is gone (a damaged or deleted
// segment), not a torn tail. Serving the rest would hand the lost offsets to new records: a
// consumer that read offset 19 would later read another record there. The broker refuses to
// start instead, naming the damage.
TEST_F(BreakerTest, AcknowledgedRecordsMissingFromTheSegmentsStopTheStart) {
  StartBroker();
  {
    WireClient client(broker_->port());
    ASSERT_EQ(ReplyErrors(client.CreateConfiguration(kFileConfig)), "");
    for (int i = 0; i < 20; ++i) {
      ASSERT_EQ(
          ReplyErrors(client.Produce("amount", R"({"id":"k","data":)" + std::to_string(i) + "}")),
          "");
    }
  }
  broker_->Kill9();
  std::vector<fs::path> segments;
  for (const auto& e : fs::recursive_directory_iterator(tmp_.path() + "/data/storage")) {
    if (e.path().extension() == ".segment") segments.push_back(e.path());
  }
  ASSERT_EQ(segments.size(), 1u);
  // The tail of the last acknowledged record is damaged.
  fs::resize_file(segments[0], fs::file_size(segments[0]) - 10);

  broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data");
  ASSERT_FALSE(broker_->StartOrExit()) << "the broker started and would reuse offset 19";
  EXPECT_EQ(broker_->exit_status(), 1);
  const std::string log = broker_->Log();
  EXPECT_NE(log.find("Corruption"), std::string::npos) << log;
  EXPECT_NE(log.find("acknowledged records"), std::string::npos) << log;

  // Deleting the index file is the operator's way to accept the loss: the broker then serves
  // what the data holds.
  for (const auto& e : fs::recursive_directory_iterator(tmp_.path() + "/data/index")) {
    if (e.path().extension() == ".index") fs::remove(e.path());
  }
  broker_->Start();
  WireClient client(broker_->port());
  Message latest = client.QueryLatest("amount", "k");
  ASSERT_EQ(ReplyErrors(latest), "");
  EXPECT_EQ(latest.getindexresponse().records(0).offset(), 18u);
}

}  // namespace
}  // namespace higgins::test
