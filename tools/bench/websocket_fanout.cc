#include "websocket_fanout.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "beast.h"
#include "codec.h"
#include "fanout_producer.h"
#include "pushed_records.h"

namespace higgins::bench {
namespace {

using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr auto kWarmupInterval = std::chrono::milliseconds(100);
constexpr auto kWarmupTimeout = std::chrono::seconds(30);
constexpr auto kPoll = std::chrono::milliseconds(5);
// How long after the schedule's end the producer's requests may go unanswered: beyond, the run
// ends with them counted as unanswered (a broker that cannot keep up).
constexpr auto kAnswerTimeout = std::chrono::seconds(60);

double SecondsSince(Clock::time_point from) {
  return std::chrono::duration<double>(Clock::now() - from).count();
}

/// Where the readers are, across their threads.
struct Progress {
  std::atomic<uint32_t> connected{0};
  std::atomic<uint32_t> failed{0};
  std::atomic<uint32_t> ready{0};   // readers that received a warm-up record
  std::atomic<uint32_t> closed{0};  // connections that ended before the bench closed them
  std::mutex mu;
  std::string first_failure;  // under mu
  std::string first_close;    // under mu

  void Note(std::string* slot, const std::string& what) {
    std::lock_guard lock(mu);
    if (slot->empty()) *slot = what;
  }
};

/// A reader's socket, read through a 64 KiB buffer of its own: Beast (Boost 1.74) reads a
/// frame's header into its 1,536-byte buffer and the rest of the frame apart, two or three
/// recv calls a message; through this buffer one recv takes all the broker has sent so far.
/// The socket type is the io_context's own executor's, not beast::tcp_stream's type-erased one:
/// a million frames a second go through it, and each handler copies the executor.
constexpr size_t kReadBufferBytes = size_t{64} * 1024;
class ReaderSocket : public beast::buffered_read_stream<
                         asio::basic_stream_socket<tcp, asio::io_context::executor_type>,
                         beast::flat_static_buffer<kReadBufferBytes>> {
 public:
  explicit ReaderSocket(asio::io_context& io) : buffered_read_stream(io) {
    capacity(kReadBufferBytes);
  }
};

// The closing handshake's last step for websocket::stream<ReaderSocket> (found by ADL): that
// of its TCP socket.
template <typename TeardownHandler>
void async_teardown(beast::role_type role, ReaderSocket& socket, TeardownHandler&& handler) {
  websocket::async_teardown(role, socket.next_layer(), std::forward<TeardownHandler>(handler));
}

/// What one reader saw.
struct ReaderCounts {
  uint64_t messages = 0;
  uint64_t received = 0;
  uint64_t distinct = 0;
  uint64_t out_of_order = 0;
  uint64_t gaps = 0;
  uint64_t malformed = 0;
};

/// One WebSocket reader: connects, completes the handshake, then reads and checks every frame
/// until Stop. Lives on one io_context run by one thread, so it needs no locking; its counts
/// are read once that thread has ended.
class Reader : public std::enable_shared_from_this<Reader> {
 public:
  /// What a reader expects: records with seqs below `records`, under partition keys
  /// k0..k{keys-1}.
  struct Plan {
    uint64_t records = 0;
    uint32_t keys = 0;
  };

  Reader(asio::io_context& io, const Plan& plan, Progress* progress, LatencyHistogram* latency)
      : ws_(io),
        progress_(progress),
        latency_(latency),
        seen_(plan.records),
        last_offset_(plan.keys, -1) {}

  void Start(const tcp::endpoint& broker, std::string host, std::string target) {
    host_ = std::move(host);
    target_ = std::move(target);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    // No connect timeout of its own: the run gives up on readers that are not live in time.
    ws_.next_layer().next_layer().async_connect(
        broker, [self = shared_from_this()](beast::error_code ec) {
          if (ec) return self->Fail("connect: " + ec.message());
          self->ws_.async_handshake(self->host_, self->target_, [self](beast::error_code ec) {
            if (ec) return self->Fail("WebSocket handshake: " + ec.message());
            self->progress_->connected.fetch_add(1);
            self->Read();
          });
        });
  }

  /// Closes the connection (no closing handshake). On the reader's thread.
  void Stop() {
    stopping_ = true;
    beast::error_code ignored;
    ws_.next_layer().next_layer().close(ignored);
  }

  const ReaderCounts& counts() const { return counts_; }
  /// Records received so far (counts().received); from any thread.
  uint64_t received() const { return received_.load(std::memory_order_relaxed); }
  /// How many of the records it received were acknowledged to the producer (`acknowledged`,
  /// by seq).
  uint64_t ReceivedOf(const std::vector<bool>& acknowledged) const {
    uint64_t n = 0;
    for (size_t i = 0; i < seen_.size() && i < acknowledged.size(); ++i) {
      n += seen_[i] && acknowledged[i] ? 1 : 0;
    }
    return n;
  }

 private:
  void Fail(const std::string& what) {
    progress_->failed.fetch_add(1);
    progress_->Note(&progress_->first_failure, what);
  }

  void Read() {
    ws_.async_read(buffer_,
                   [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec) {
      if (stopping_) return;
      std::string why = ec.message();
      if (ec == websocket::error::closed) {
        why = "closed by the broker with " + std::to_string(ws_.reason().code) + " (" +
              std::string(ws_.reason().reason.c_str()) + ")";
      }
      progress_->closed.fetch_add(1);
      progress_->Note(&progress_->first_close, why);
      return;
    }
    ++counts_.messages;
    const int64_t now_us = SteadyMicros(Clock::now());  // once per message, for all its records
    const auto data = buffer_.cdata();
    PushedRecords records(std::string_view(static_cast<const char*>(data.data()), data.size()));
    PushedRecord record;
    while (records.Next(&record)) Take(record, now_us);
    if (records.malformed()) ++counts_.malformed;
    // The reader's own counter, not one shared by all: a million increments a second of one
    // cache line from two threads cost more than the parsing.
    received_.store(counts_.received, std::memory_order_relaxed);
    buffer_.consume(buffer_.size());
    Read();
  }

  /// One record, received at `now_us` (steady clock).
  void Take(const PushedRecord& frame, int64_t now_us) {
    if (frame.key == kFanoutWarmupKey) {
      if (!ready_) progress_->ready.fetch_add(1);
      ready_ = true;
      return;
    }
    const auto key = ParseKeyIndex(frame.key);
    if (!key || *key >= last_offset_.size() || frame.seq < 0 ||
        static_cast<uint64_t>(frame.seq) >= seen_.size()) {
      ++counts_.malformed;
      return;
    }
    ++counts_.received;
    latency_->Add(static_cast<uint64_t>(std::max<int64_t>(0, now_us - frame.sent_us)));
    if (!seen_[frame.seq]) {
      seen_[frame.seq] = true;
      ++counts_.distinct;
    }
    int64_t& last = last_offset_[*key];
    if (frame.offset <= last) {
      ++counts_.out_of_order;
    } else {
      if (frame.offset > last + 1) ++counts_.gaps;
      last = frame.offset;
    }
  }

  websocket::stream<ReaderSocket> ws_;
  beast::flat_buffer buffer_;
  std::string host_;
  std::string target_;
  Progress* progress_;
  LatencyHistogram* latency_;         // of the reader's thread
  std::vector<bool> seen_;            // by seq
  std::vector<int64_t> last_offset_;  // by key index; -1: none yet
  ReaderCounts counts_;
  std::atomic<uint64_t> received_{0};
  bool ready_ = false;
  bool stopping_ = false;
};

/// The threads, readers and producer of one run; the destructor closes every connection and
/// joins the threads.
class FanoutRun {
 public:
  FanoutRun(const FanoutOptions& o, uint64_t records)
      : options_(o),
        records_(records),
        broker_(asio::ip::make_address_v4("127.0.0.1"), o.http_port),
        latency_(o.reader_threads),
        producer_(producer_io_, o, records) {
    for (uint32_t t = 0; t < o.reader_threads; ++t) {
      reader_ios_.push_back(std::make_unique<asio::io_context>(1));
    }
    for (auto& io : reader_ios_) Spin(io.get());
    Spin(&producer_io_);
  }

  ~FanoutRun() { Finish(); }

  FanoutRun(const FanoutRun&) = delete;
  FanoutRun& operator=(const FanoutRun&) = delete;

  Status ConnectReaders() {
    const std::string host = "127.0.0.1:" + std::to_string(options_.http_port);
    const std::string target = "/v1/ws/" + options_.stream + (options_.batch ? "?batch=true" : "");
    for (uint32_t r = 0; r < options_.readers; ++r) {
      const size_t t = r % reader_ios_.size();
      const Reader::Plan plan{.records = records_, .keys = options_.keys};
      auto reader = std::make_shared<Reader>(*reader_ios_[t], plan, &progress_, &latency_[t]);
      readers_.push_back(reader);
      asio::post(*reader_ios_[t],
                 [reader, this, host, target] { reader->Start(broker_, host, target); });
    }
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options_.connect_timeout_seconds));
    while (progress_.connected + progress_.failed < options_.readers && Clock::now() < deadline) {
      std::this_thread::sleep_for(kPoll);
    }
    if (progress_.failed > 0) {
      std::lock_guard lock(progress_.mu);
      return Status::IOError(std::to_string(progress_.failed.load()) + " of " +
                             std::to_string(options_.readers) +
                             " readers could not connect; the first: " + progress_.first_failure);
    }
    if (progress_.connected < options_.readers) {
      return Status::IOError(std::to_string(progress_.connected.load()) + " of " +
                             std::to_string(options_.readers) + " readers connected within " +
                             std::to_string(options_.connect_timeout_seconds) + " s");
    }
    return producer_.Connect(broker_);
  }

  /// Sends warm-up records until every reader has received one: its feed is live, so every
  /// record produced from then on reaches it.
  Status WarmUp() {
    const auto deadline = Clock::now() + kWarmupTimeout;
    while (progress_.ready < options_.readers && Clock::now() < deadline) {
      producer_.SendWarmup();
      std::this_thread::sleep_for(kWarmupInterval);
    }
    if (progress_.ready < options_.readers) {
      return Status::IOError(std::to_string(options_.readers - progress_.ready) + " of " +
                             std::to_string(options_.readers) +
                             " readers received no warm-up record within 30 s");
    }
    std::this_thread::sleep_for(kWarmupInterval);  // the last warm-ups' pushes
    return Status::OK();
  }

  /// Produces the schedule, waits for its answers (at most kAnswerTimeout after its end) and
  /// for their deliveries (at most drain_seconds after the last answer); fills the result's
  /// measurements.
  void Produce(pid_t broker_pid, FanoutResult* result) {
    const CpuMeter meter(broker_pid);
    const auto start = Clock::now() + std::chrono::milliseconds(10);
    producer_.Start(start);
    const auto answers_by = start +
                            std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(options_.seconds)) +
                            kAnswerTimeout;
    while (producer_.acknowledged() + producer_.failed() < records_ && Clock::now() < answers_by) {
      std::this_thread::sleep_for(kPoll);
    }
    const auto answered = Clock::now();
    while (Received() < producer_.acknowledged() * options_.readers &&
           SecondsSince(answered) < options_.drain_seconds) {
      std::this_thread::sleep_for(kPoll);
    }
    result->cpu = meter.Elapsed();
    result->runnable_wait = meter.Waited();
    result->window_seconds = SecondsSince(start);
    result->drain_wait_seconds = SecondsSince(answered);
    result->produce_seconds =
        std::chrono::duration<double>(producer_.last_acknowledgement() - start).count();
  }

  /// Closes every connection and joins the threads (each io_context returns once its
  /// connections are closed). Idempotent.
  void Finish() {
    if (threads_.empty()) return;
    for (size_t r = 0; r < readers_.size(); ++r) {
      asio::post(*reader_ios_[r % reader_ios_.size()], [reader = readers_[r]] { reader->Stop(); });
    }
    asio::post(producer_io_, [this] { producer_.Stop(); });
    guards_.clear();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  /// The counts; after Finish.
  void Collect(FanoutResult* result) const {
    result->readers = progress_.ready;
    result->scheduled = records_;
    result->produced = producer_.acknowledged();
    result->produce_errors = producer_.failed();
    result->unanswered = records_ - result->produced - result->produce_errors;
    result->first_error = producer_.first_error();
    result->max_send_lateness_us = producer_.max_lateness_us();
    result->post_us = producer_.post_us();
    uint64_t received_acknowledged = 0;
    for (const auto& reader : readers_) {
      const ReaderCounts& c = reader->counts();
      received_acknowledged += reader->ReceivedOf(producer_.acknowledged_seqs());
      result->received += c.received;
      result->messages += c.messages;
      result->distinct += c.distinct;
      result->out_of_order += c.out_of_order;
      result->gaps += c.gaps;
      result->malformed += c.malformed;
    }
    for (const LatencyHistogram& h : latency_) result->latency_us.Merge(h);
    result->expected = result->produced * options_.readers;
    result->missing = result->expected - received_acknowledged;
    result->unacknowledged_received = result->distinct - received_acknowledged;
    result->duplicates = result->received - result->distinct;
    result->readers_closed = progress_.closed;
    result->first_close = progress_.first_close;
  }

 private:
  /// Records the readers have received so far.
  uint64_t Received() const {
    uint64_t n = 0;
    for (const auto& reader : readers_) n += reader->received();
    return n;
  }

  void Spin(asio::io_context* io) {
    guards_.push_back(asio::make_work_guard(*io));
    threads_.emplace_back([io] { io->run(); });
  }

  const FanoutOptions& options_;
  const uint64_t records_;
  const tcp::endpoint broker_;
  Progress progress_;
  std::vector<std::unique_ptr<asio::io_context>> reader_ios_;
  std::vector<LatencyHistogram> latency_;  // by reader thread
  asio::io_context producer_io_{1};
  FanoutProducer producer_;
  std::vector<std::shared_ptr<Reader>> readers_;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards_;
  std::vector<std::thread> threads_;
};

}  // namespace

Status RunFanout(const FanoutOptions& options, pid_t broker_pid, FanoutResult* result) {
  const auto records = static_cast<uint64_t>(std::llround(options.rate * options.seconds));
  FanoutRun run(options, records);
  const auto start = Clock::now();
  HIGGINS_RETURN_IF_ERROR(run.ConnectReaders());
  HIGGINS_RETURN_IF_ERROR(run.WarmUp());
  result->connect_seconds = SecondsSince(start);
  run.Produce(broker_pid, result);
  run.Finish();
  run.Collect(result);
  return Status::OK();
}

}  // namespace higgins::bench
