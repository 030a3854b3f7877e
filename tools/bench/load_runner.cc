#include "load_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <latch>
#include <optional>
#include <thread>

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Window {
  Clock::time_point start;  // end of warm-up
  Clock::time_point end;    // Clock::time_point::max() when running until exhausted
};

/// One connection's loop and counters. Owned by its thread during the run.
class Worker {
 public:
  Worker(const Target& target, const LoadOptions& options, std::unique_ptr<BatchSource> source)
      : target_(target), options_(options), source_(std::move(source)) {}

  /// Connects; failures are kept and reported by Run.
  void Connect() {
    auto socket = Socket::Connect(options_.host, options_.port,
                                  std::chrono::milliseconds(options_.read_timeout_ms));
    if (socket.ok()) {
      socket_.emplace(*std::move(socket));
    } else {
      Fail(socket.status().ToString());
    }
  }

  void Run(const Window& window) {
    if (!socket_) return;
    window_ = window;
    std::unique_ptr<Codec> codec = target_.NewCodec(options_.collect_positions);
    std::string out;
    std::vector<char> in(size_t{256} * 1024);
    std::vector<Outcome> outcomes;
    Batch batch;
    bool exhausted = false;
    while (true) {
      const bool sending = !exhausted && Clock::now() < window_.end;
      out.clear();
      size_t added = 0;
      while (sending && in_flight_.size() + added < static_cast<size_t>(options_.pipeline)) {
        batch.rows.clear();
        batch.queries.clear();
        if (!source_->Next(&batch)) {
          exhausted = true;
          break;
        }
        if (Status s = codec->Encode(batch, &out); !s.ok()) return Abort(s.ToString());
        in_flight_.push_back({{}, batch.rows.size() + batch.queries.size()});
        ++added;
      }
      if (!out.empty()) {
        const auto now = Clock::now();
        for (size_t i = in_flight_.size() - added; i < in_flight_.size(); ++i) {
          in_flight_[i].sent = now;
        }
        if (InWindow(now)) stats_.bytes_sent += out.size();
        if (Status s = socket_->WriteAll(out); !s.ok()) return Abort(s.ToString());
      }
      if (in_flight_.empty()) return;
      auto n = socket_->Read(in.data(), in.size());
      if (!n.ok()) return Abort(n.status().ToString());
      if (*n == 0) return Abort("the server closed the connection");
      outcomes.clear();
      if (Status s = codec->Consume({in.data(), *n}, &outcomes); !s.ok()) {
        return Abort(s.ToString());
      }
      const auto now = Clock::now();
      for (Outcome& outcome : outcomes) Complete(std::move(outcome), now);
    }
  }

  LoadStats& stats() { return stats_; }
  Clock::time_point last_completion() const { return last_completion_; }

 private:
  struct InFlight {
    Clock::time_point sent;
    size_t records;
  };

  bool InWindow(Clock::time_point t) const { return t >= window_.start && t <= window_.end; }

  void Complete(Outcome outcome, Clock::time_point now) {
    const InFlight request = in_flight_.front();
    in_flight_.pop_front();
    last_completion_ = now;
    if (options_.collect_positions) {
      stats_.produced.insert(stats_.produced.end(), outcome.produced.begin(),
                             outcome.produced.end());
    }
    if (!outcome.ok) {
      Fail(outcome.error);
      return;
    }
    if (!InWindow(now)) return;
    ++stats_.requests;
    stats_.records += request.records;
    stats_.latencies_ns.push_back(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now - request.sent).count()));
  }

  void Fail(const std::string& error) {
    ++stats_.errors;
    if (stats_.first_error.empty()) stats_.first_error = error;
  }

  /// The connection is unusable: its in-flight requests fail.
  void Abort(const std::string& error) {
    Fail(error);
    stats_.errors += in_flight_.empty() ? 0 : in_flight_.size() - 1;
    in_flight_.clear();
  }

  const Target& target_;
  const LoadOptions& options_;
  std::unique_ptr<BatchSource> source_;
  std::optional<Socket> socket_;
  Window window_;
  std::deque<InFlight> in_flight_;
  LoadStats stats_;
  Clock::time_point last_completion_;
};

}  // namespace

double LoadStats::LatencyMicros(double q) const {
  if (latencies_ns.empty()) return 0;
  size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(latencies_ns.size())));
  i = std::clamp<size_t>(i, 1, latencies_ns.size()) - 1;
  return static_cast<double>(latencies_ns[i]) / 1000.0;
}

LoadStats RunLoad(const Target& target, const LoadOptions& options, const SourceFactory& sources) {
  std::vector<std::unique_ptr<Worker>> workers;
  workers.reserve(static_cast<size_t>(options.connections));
  for (int c = 0; c < options.connections; ++c) {
    workers.push_back(std::make_unique<Worker>(target, options, sources(c)));
  }
  std::latch connected(options.connections);
  std::latch go(1);
  Window window;
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  for (auto& worker : workers) {
    threads.emplace_back([&, w = worker.get()] {
      w->Connect();
      connected.count_down();
      go.wait();
      w->Run(window);
    });
  }
  connected.wait();
  const auto start = Clock::now();
  auto to_duration = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  window.start = start + to_duration(options.warmup_seconds);
  window.end = options.until_exhausted ? Clock::time_point::max()
                                       : window.start + to_duration(options.seconds);
  go.count_down();
  for (auto& t : threads) t.join();

  LoadStats total;
  Clock::time_point last = window.start;
  for (auto& worker : workers) {
    LoadStats& s = worker->stats();
    total.requests += s.requests;
    total.records += s.records;
    total.errors += s.errors;
    total.bytes_sent += s.bytes_sent;
    if (total.first_error.empty()) total.first_error = s.first_error;
    total.latencies_ns.insert(total.latencies_ns.end(), s.latencies_ns.begin(),
                              s.latencies_ns.end());
    total.produced.insert(total.produced.end(), s.produced.begin(), s.produced.end());
    last = std::max(last, worker->last_completion());
  }
  std::sort(total.latencies_ns.begin(), total.latencies_ns.end());
  total.seconds = options.until_exhausted
                      ? std::chrono::duration<double>(last - window.start).count()
                      : options.seconds;
  return total;
}

}  // namespace higgins::bench
