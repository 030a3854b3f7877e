// The client library's cost over hand-written protocol frames, against a real broker started by
// the benchmark (memory storage): each client call beside the same request sent and answered on
// a plain blocking socket, plus what pipelining gains. Ratios are throughput ratios within one
// run (docs/performance.md, "Client library").
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "higgins.pb.h"
#include "higgins/arrow/ipc/writer.h"
#include "higgins/client.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "ratio_reporter.h"

namespace {

using higgins::Client;
using higgins::wire::Message;

constexpr char kConfig[] = R"([storage.memory]
type = "memory"

[schema.bench]
id = "string"
seq = "int64"
payload = "string"

[streams.bench]
schema = "bench"
partition_key = "id"
)";

[[noreturn]] void Die(const std::string& why) {
  std::fprintf(stderr, "client_bench: %s\n", why.c_str());
  std::exit(1);
}

/// The broker under test: a child process on a free loopback port, killed at exit.
class Broker {
 public:
  Broker() {
    char dir_template[] = "/tmp/higgins-client-bench-XXXXXX";
    if (mkdtemp(dir_template) == nullptr) Die("mkdtemp failed");
    dir_ = dir_template;
    log_ = dir_ + ".log";
    pid_ = fork();
    if (pid_ == 0) {
      std::freopen(log_.c_str(), "w", stderr);
      std::freopen(log_.c_str(), "a", stdout);
      std::string dir_flag = "--dir=" + dir_;
      execl(HIGGINS_BROKER_BINARY, "higgins", "--port=0", "--kafka-port=0", "--http-port=0", dir_flag.c_str(), nullptr);
      _exit(127);
    }
    for (int i = 0; i < 400 && port_ == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      std::ifstream in(log_);
      std::stringstream text;
      text << in.rdbuf();
      const std::string s = text.str();
      const size_t at = s.find("listening on ");
      if (at == std::string::npos) continue;
      const size_t colon = s.find(':', at + 13);
      if (colon != std::string::npos) port_ = static_cast<uint16_t>(std::atoi(s.c_str() + colon + 1));
    }
    if (port_ == 0) Die("the broker did not start; see " + log_);
  }
  ~Broker() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    std::system(("rm -rf '" + dir_ + "' '" + log_ + "'").c_str());
  }
  uint16_t port() const { return port_; }

 private:
  std::string dir_, log_;
  pid_t pid_ = -1;
  uint16_t port_ = 0;
};

Broker& TheBroker() {
  static Broker broker;
  return broker;
}

std::unique_ptr<Client> Connect() {
  higgins::ClientOptions options;
  options.port = TheBroker().port();
  auto client = Client::Connect(options);
  if (!client.ok()) Die(client.status().ToString());
  static bool configured = false;
  if (!configured) {
    if (auto s = (*client)->UploadConfiguration(kConfig); !s.ok()) Die(s.ToString());
    configured = true;
  }
  return std::move(client).value();
}

/// The baseline: one request frame written, one reply frame read, on a blocking socket.
class RawConnection {
 public:
  RawConnection() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(TheBroker().port());
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) Die("connect failed");
    int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
  ~RawConnection() { close(fd_); }

  /// Sends a serialized frame and returns the reply's body.
  std::string Call(const std::string& frame) {
    for (size_t sent = 0; sent < frame.size();) {
      const ssize_t n = write(fd_, frame.data() + sent, frame.size() - sent);
      if (n <= 0) Die("write failed");
      sent += static_cast<size_t>(n);
    }
    char buf[1 << 16];
    for (;;) {
      if (auto body = decoder_.Next()) return *std::move(body);
      const ssize_t n = read(fd_, buf, sizeof(buf));
      if (n <= 0) Die("read failed");
      if (!decoder_.Consume({reinterpret_cast<uint8_t*>(buf), static_cast<size_t>(n)}).ok()) {
        Die("bad frame");
      }
    }
  }

 private:
  int fd_ = -1;
  higgins::protocol::FrameDecoder decoder_;
};

std::string Frame(Message message) {
  message.set_correlationid(1);
  auto frame = higgins::protocol::SerializeFrame(message, 64u << 20);
  if (!frame.ok()) Die(frame.status().ToString());
  return *std::move(frame);
}

void CheckReply(const std::string& body) {
  Message reply;
  if (!reply.ParseFromString(body)) Die("unparseable reply");
  if (reply.type() == Message::PRODUCERESPONSE && reply.produceresponse().errors_size() > 0) {
    Die(reply.produceresponse().errors(0));
  }
  if (reply.type() == Message::GETINDEXRESPONSE && reply.getindexresponse().errors_size() > 0) {
    Die(reply.getindexresponse().errors(0));
  }
}

std::string JsonRows(int rows) {
  std::string json;
  for (int i = 0; i < rows; ++i) {
    json += R"({"id":"k)" + std::to_string(i % 100) + R"(","seq":)" + std::to_string(i) +
            R"(,"payload":"0123456789012345678901234567890123456789"})" + "\n";
  }
  return json;
}

higgins::arrow::RecordBatch Rows(int rows) {
  using namespace higgins::arrow;
  ArrayBuilder id(DataType::Utf8()), seq(DataType::Int64()), payload(DataType::Utf8());
  for (int i = 0; i < rows; ++i) {
    const std::string key = "k" + std::to_string(i % 100);
    seq.AppendPrimitive<int64_t>(i);
    if (!id.AppendBinary(key).ok() ||
        !payload.AppendBinary("0123456789012345678901234567890123456789").ok()) {
      Die("append failed");
    }
  }
  auto schema = MakeSchema({Field("id", DataType::Utf8()), Field("seq", DataType::Int64()),
                            Field("payload", DataType::Utf8())});
  auto batch = RecordBatch::Make(schema, rows, {id.Finish(), seq.Finish(), payload.Finish()});
  if (!batch.ok()) Die(batch.status().ToString());
  return *std::move(batch);
}

Message ProduceMessage(const std::string& payload, higgins::wire::PayloadFormat format) {
  Message m;
  m.set_type(Message::PRODUCEREQUEST);
  m.mutable_producerequest()->set_stream_name("bench");
  m.mutable_producerequest()->set_payload(payload);
  m.mutable_producerequest()->set_format(format);
  return m;
}

std::string Ipc(const higgins::arrow::RecordBatch& batch) {
  higgins::arrow::ipc::StreamWriter writer(batch.schema());
  if (!writer.WriteBatch(batch).ok()) Die("ipc write failed");
  auto bytes = writer.Finish();
  if (!bytes.ok()) Die("ipc finish failed");
  return std::string(bytes->view());
}

void BM_RawPing(benchmark::State& state) {
  RawConnection raw;
  Message m;
  m.set_type(Message::PING);
  m.mutable_ping();
  const std::string frame = Frame(m);
  for (auto _ : state) benchmark::DoNotOptimize(raw.Call(frame));
  state.SetItemsProcessed(state.iterations());
}

void BM_ClientPing(benchmark::State& state) {
  auto client = Connect();
  for (auto _ : state) {
    auto rtt = client->Ping();
    if (!rtt.ok()) Die(rtt.status().ToString());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_RawProduceJson(benchmark::State& state) {
  Connect();  // declares the stream
  RawConnection raw;
  const int rows = static_cast<int>(state.range(0));
  const std::string frame = Frame(ProduceMessage(JsonRows(rows), higgins::wire::JSON));
  for (auto _ : state) CheckReply(raw.Call(frame));
  state.SetItemsProcessed(state.iterations() * rows);
}

/// Times `produce(client)`, one produce of state.range(0) rows per iteration.
template <typename Produce>
void RunClientProduce(benchmark::State& state, Produce produce) {
  auto client = Connect();
  for (auto _ : state) {
    auto r = produce(*client);
    if (!r.ok()) Die(r.status().ToString());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_ClientProduceJson(benchmark::State& state) {
  const std::string json = JsonRows(static_cast<int>(state.range(0)));
  RunClientProduce(state, [&](Client& client) { return client.ProduceJson("bench", json); });
}

/// 64 requests in flight on one connection, then every reply.
void BM_ClientProduceJsonPipelined(benchmark::State& state) {
  auto client = Connect();
  const int rows = static_cast<int>(state.range(0));
  const std::string json = JsonRows(rows);
  constexpr int kWindow = 64;
  for (auto _ : state) {
    std::vector<higgins::Pending<higgins::ProduceResult>> pending;
    pending.reserve(kWindow);
    for (int i = 0; i < kWindow; ++i) pending.push_back(client->ProduceJsonAsync("bench", json));
    for (auto& p : pending) {
      auto r = p.Get();
      if (!r.ok()) Die(r.status().ToString());
    }
  }
  state.SetItemsProcessed(state.iterations() * rows * kWindow);
}

/// The raw side sends bytes encoded once; the client encodes the record batch on every call.
void BM_RawProduceArrow(benchmark::State& state) {
  Connect();
  RawConnection raw;
  const int rows = static_cast<int>(state.range(0));
  const std::string frame = Frame(ProduceMessage(Ipc(Rows(rows)), higgins::wire::ARROW_IPC));
  for (auto _ : state) CheckReply(raw.Call(frame));
  state.SetItemsProcessed(state.iterations() * rows);
}

void BM_ClientProduceArrow(benchmark::State& state) {
  const higgins::arrow::RecordBatch batch = Rows(static_cast<int>(state.range(0)));
  RunClientProduce(state, [&](Client& client) { return client.Produce("bench", batch); });
}

/// The raw side leaves the reply's Arrow IPC undecoded; the client decodes it into a batch.
void BM_RawQueryLatest(benchmark::State& state) {
  auto client = Connect();
  if (!client->ProduceJson("bench", JsonRows(100)).ok()) Die("prefill failed");
  RawConnection raw;
  Message m;
  m.set_type(Message::GETINDEXREQUEST);
  auto* index = m.mutable_getindexrequest()->add_indexes();
  index->set_type(higgins::wire::Index::LATEST);
  index->set_stream("bench");
  index->set_partition("k7");
  const std::string frame = Frame(m);
  for (auto _ : state) CheckReply(raw.Call(frame));
  state.SetItemsProcessed(state.iterations());
}

void BM_ClientQueryLatest(benchmark::State& state) {
  auto client = Connect();
  if (!client->ProduceJson("bench", JsonRows(100)).ok()) Die("prefill failed");
  for (auto _ : state) {
    auto r = client->QueryLatest("bench", "k7");
    if (!r.ok()) Die(r.status().ToString());
    benchmark::DoNotOptimize(r->batch.num_rows());
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_RawPing)->UseRealTime();
BENCHMARK(BM_ClientPing)->UseRealTime();
BENCHMARK(BM_RawProduceJson)->Arg(1)->Arg(1000)->UseRealTime();
BENCHMARK(BM_ClientProduceJson)->Arg(1)->Arg(1000)->UseRealTime();
BENCHMARK(BM_ClientProduceJsonPipelined)->Arg(1)->UseRealTime();
BENCHMARK(BM_RawProduceArrow)->Arg(1000)->UseRealTime();
BENCHMARK(BM_ClientProduceArrow)->Arg(1000)->UseRealTime();
BENCHMARK(BM_RawQueryLatest)->UseRealTime();
BENCHMARK(BM_ClientQueryLatest)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  benchmark::Initialize(&argc, argv);
  TheBroker();
  return higgins::bench::RunWithRatios({
      {"BM_ClientPing/real_time", "BM_RawPing/real_time", "client / raw frames, ping round trip"},
      {"BM_ClientProduceJson/1/real_time", "BM_RawProduceJson/1/real_time",
       "client / raw frames, 1-row JSON produce"},
      {"BM_ClientProduceJson/1000/real_time", "BM_RawProduceJson/1000/real_time",
       "client / raw frames, 1000-row JSON produce"},
      {"BM_ClientProduceArrow/1000/real_time", "BM_RawProduceArrow/1000/real_time",
       "client (encodes the batch each call) / raw pre-encoded IPC, 1000 rows"},
      {"BM_ClientQueryLatest/real_time", "BM_RawQueryLatest/real_time",
       "client (decodes the batch) / raw frames"},
      {"BM_ClientProduceJsonPipelined/1/real_time", "BM_ClientProduceJson/1/real_time",
       "64 in flight / one at a time, 1-row JSON produce"},
  });
}
