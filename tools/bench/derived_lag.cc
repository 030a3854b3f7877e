// higgins-bench derived-lag: the time from a produce's acknowledgement until its record can be
// read from a map stream, under open-loop load (derived_lag.h; docs/performance.md, "UDFs (map
// and reduce)").
//
// Threads: a sender keeps the schedule (request i is due at start + i * batch / rate, whatever
// the replies do) and sends each produce with ProduceJsonAsync on the produce connection; an
// acknowledger takes the replies in order (a connection's replies come in request order), notes
// the time and sends the probe query with QueryAtAsync on a probe connection; one thread per
// probe connection takes the probe replies in order, checks them and notes the time.
#include "derived_lag.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "blocking_queue.h"
#include "higgins/client.h"
#include "report_util.h"

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr char kModuleName[] = "bench_lag_double";

struct Sent {
  Pending<ProduceResult> pending;
  Clock::time_point scheduled;
  int32_t last_data = 0;  // `data` of the request's last record
  bool measured = false;  // scheduled inside the measured window
};

struct Probe {
  Pending<Records> pending;
  Clock::time_point acked;
  uint64_t offset = 0;
  int32_t expected = 0;  // `data` the probe must read
  bool measured = false;
};

/// What one thread counted; merged after the phase.
struct Counts {
  std::vector<uint64_t> produce_ns;  // scheduled send -> acknowledgement
  std::vector<uint64_t> probe_ns;    // acknowledgement -> probe reply
  uint64_t requests = 0;             // acknowledged in the window
  uint64_t records = 0;
  Clock::time_point last_ack{};      // of the window's requests
  uint64_t errors = 0;
  uint64_t wrong = 0;                // probe replies with the wrong record or value
  /// Derived probes that the broker answered DeadlineExceeded (the map did not catch up within
  /// the wait's 10 s): counted in probe_ns with their time, a lower bound of their lag.
  uint64_t timed_out = 0;
  std::string first_error;

  void Error(std::string text) {
    if (errors++ == 0) first_error = std::move(text);
  }
  void Merge(Counts&& other) {
    produce_ns.insert(produce_ns.end(), other.produce_ns.begin(), other.produce_ns.end());
    probe_ns.insert(probe_ns.end(), other.probe_ns.begin(), other.probe_ns.end());
    requests += other.requests;
    records += other.records;
    wrong += other.wrong;
    timed_out += other.timed_out;
    if (errors == 0 && other.errors > 0) first_error = std::move(other.first_error);
    errors += other.errors;
  }
};

struct PhaseResult {
  std::string phase;
  Counts counts;
  double seconds = 0;  // the measured window
  /// From the window's start until its last request was acknowledged, at least the window: the
  /// achieved rate is the window's records over this (below the target rate when the broker
  /// fell behind, even though every record was eventually acknowledged).
  double ack_seconds = 0;
  uint64_t sent = 0;
  uint64_t late_sends = 0;          // sent more than 1 ms after their time
  uint64_t max_send_delay_ns = 0;
  uint64_t stalls = 0;              // sends that waited for max_in_flight
  double phase_seconds = 0;         // from the first send until every reply was in
  /// Records the map stream still had to derive when the last request was sent, and how long it
  /// then took to catch up (-1: not within 60 s, or the counts could not be read).
  int64_t backlog = -1;
  double catch_up_seconds = -1;
};

class LagRun {
 public:
  explicit LagRun(const DerivedLagOptions& options) : o_(options) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    const std::string tag = o_.storage + "_" + std::to_string(getpid()) + "_" +
                            std::to_string(ms % 1'000'000'000);
    source_ = "bench_lag_src_" + tag;
    map_ = "bench_lag_map_" + tag;
  }

  Status Setup() {
    HIGGINS_ASSIGN_OR_RETURN(control_, Connect());
    std::ifstream file(o_.module_path, std::ios::binary);
    if (!file) return Status::NotFound("cannot read the module '" + o_.module_path + "'");
    const std::string wasm((std::istreambuf_iterator<char>(file)), {});
    HIGGINS_RETURN_IF_ERROR(
        control_
            ->UploadModule(kModuleName, {reinterpret_cast<const uint8_t*>(wasm.data()),
                                         wasm.size()})
            .status());
    const std::string storage = o_.storage == "file" ? "disk" : "mem";
    const std::string toml = "[storage.mem]\ntype = \"memory\"\n[storage.disk]\ntype = \"file\"\n"
                             "[schema.bench_lag]\nid = \"string\"\ndata = \"int32\"\n"
                             "[streams." + source_ + "]\nschema = \"bench_lag\"\n"
                             "partition_key = \"id\"\nstorage = \"" + storage + "\"\n"
                             "[streams." + map_ + "]\ntype = \"map\"\nbase = \"" + source_ +
                             "\"\nfn = \"" + kModuleName + "\"\nschema = \"bench_lag\"\n"
                             "partition_key = \"id\"\nstorage = \"" + storage + "\"\n";
    HIGGINS_RETURN_IF_ERROR(control_->UploadConfiguration(toml));
    declared_ = true;
    return Status::OK();
  }

  /// Deletes the streams (the map first: the source cannot go while a map reads it).
  void Teardown() {
    if (!declared_ || !control_) return;
    for (const std::string& stream : {map_, source_}) {
      if (Status s = control_->DeleteConfiguration(stream); !s.ok()) {
        std::fprintf(stderr, "higgins-bench derived-lag: deleting '%s': %s\n", stream.c_str(),
                     s.ToString().c_str());
      }
    }
  }

  Result<PhaseResult> RunPhase(bool derived) {
    HIGGINS_ASSIGN_OR_RETURN(std::unique_ptr<Client> producer, Connect());
    std::vector<std::unique_ptr<Client>> probers;
    for (int i = 0; i < o_.query_connections; ++i) {
      HIGGINS_ASSIGN_OR_RETURN(auto client, Connect());
      probers.push_back(std::move(client));
    }
    PhaseResult result;
    result.phase = derived ? "derived" : "baseline";
    BlockingQueue<Sent> sent;
    std::vector<BlockingQueue<Probe>> probes(probers.size());
    std::atomic<int> in_flight{0};
    std::mutex flight_mu;
    std::condition_variable flight_cv;

    const auto interval = std::chrono::duration<double>(o_.batch / o_.rate);
    const Clock::time_point start = Clock::now() + std::chrono::milliseconds(20);
    const Clock::time_point window_start =
        start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(o_.warmup_seconds));
    const Clock::time_point window_end =
        window_start + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(o_.seconds));

    std::thread sender([&] {
      prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // wake up on time, not up to 50 µs late
      std::string json;
      char digits[24];
      for (uint64_t i = 0;; ++i) {
        const Clock::time_point due =
            start + std::chrono::duration_cast<Clock::duration>(interval * static_cast<double>(i));
        if (due >= window_end) break;
        std::this_thread::sleep_until(due);
        if (in_flight.load() >= o_.max_in_flight) {
          ++result.stalls;
          std::unique_lock lock(flight_mu);
          flight_cv.wait(lock, [&] { return in_flight.load() < o_.max_in_flight; });
        }
        json.clear();
        int32_t data = 0;
        for (uint32_t r = 0; r < o_.batch; ++r, ++seq_) {
          data = static_cast<int32_t>(seq_ % 1'000'000);
          json += R"({"id":"k)";
          json.append(digits, std::to_chars(digits, digits + sizeof(digits), seq_ % o_.keys).ptr);
          json += R"(","data":)";
          json.append(digits, std::to_chars(digits, digits + sizeof(digits), data).ptr);
          json += "}\n";
        }
        ++in_flight;
        Sent s{producer->ProduceJsonAsync(source_, json), due, data, due >= window_start};
        const auto delay = static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - due).count());
        result.max_send_delay_ns = std::max(result.max_send_delay_ns, delay);
        if (delay > 1'000'000) ++result.late_sends;
        ++result.sent;
        sent.Push(std::move(s));
      }
      sent.Close();
    });

    Counts ack_counts;
    std::thread acknowledger([&] {
      size_t next = 0;
      while (auto s = sent.Pop()) {
        auto reply = s->pending.Get();
        const Clock::time_point acked = Clock::now();
        if (in_flight.fetch_sub(1) == o_.max_in_flight) {
          std::lock_guard lock(flight_mu);
          flight_cv.notify_one();
        }
        if (!reply.ok()) {
          ack_counts.Error("produce: " + reply.status().ToString());
          continue;
        }
        if (s->measured) {
          ack_counts.produce_ns.push_back(static_cast<uint64_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(acked - s->scheduled).count()));
          ++ack_counts.requests;
          ack_counts.records += reply->num_rows();
          ack_counts.last_ack = acked;
        }
        const size_t last = reply->num_rows() - 1;
        const std::string& key = reply->partition_of(last);
        const uint64_t offset = reply->offsets[last];
        Client& prober = *probers[next];
        Probe p{derived ? prober.QueryAtAsync(map_, key, offset, CallOptions{.wait_for_derived = true})
                        : prober.QueryAtAsync(source_, key, offset),
                acked, offset, derived ? s->last_data * 2 : s->last_data, s->measured};
        probes[next].Push(std::move(p));
        next = (next + 1) % probes.size();
      }
      for (auto& q : probes) q.Close();
    });

    std::vector<Counts> probe_counts(probes.size());
    std::vector<std::thread> probe_threads;
    for (size_t q = 0; q < probes.size(); ++q) {
      probe_threads.emplace_back([&, q] {
        Counts& c = probe_counts[q];
        while (auto p = probes[q].Pop()) {
          auto reply = p->pending.Get();
          const Clock::time_point done = Clock::now();
          if (!reply.ok()) {
            if (derived && reply.status().code() == StatusCode::kDeadlineExceeded) {
              ++c.timed_out;
              if (p->measured) {
                c.probe_ns.push_back(static_cast<uint64_t>(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(done - p->acked)
                        .count()));
              }
            }
            c.Error("probe: " + reply.status().ToString());
            continue;
          }
          const arrow::RecordBatch& batch = reply->batch;
          if (reply->offset != p->offset || batch.num_rows() != 1 || batch.num_columns() != 2 ||
              batch.column(1).IsNull(0) || batch.column(1).Value<int32_t>(0) != p->expected) {
            if (c.wrong++ == 0 && c.first_error.empty()) {
              c.first_error = "probe at offset " + std::to_string(p->offset) +
                              " did not read the expected record";
            }
            continue;
          }
          if (p->measured) {
            c.probe_ns.push_back(static_cast<uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(done - p->acked).count()));
          }
        }
      });
    }
    sender.join();
    const Clock::time_point sent_all = Clock::now();
    result.backlog = Behind();
    acknowledger.join();
    for (auto& t : probe_threads) t.join();
    result.phase_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    CatchUp(&result, sent_all);
    result.seconds = std::chrono::duration<double>(window_end - window_start).count();
    result.ack_seconds = std::max(
        result.seconds,
        std::chrono::duration<double>(ack_counts.last_ack - window_start).count());
    result.counts = std::move(ack_counts);
    for (auto& c : probe_counts) result.counts.Merge(std::move(c));
    std::sort(result.counts.produce_ns.begin(), result.counts.produce_ns.end());
    std::sort(result.counts.probe_ns.begin(), result.counts.probe_ns.end());
    return result;
  }

  /// Records of the source that the map stream has not derived yet; -1 if unknown. The map is
  /// read first, so that records committed between the two reads count as behind (an
  /// overestimate by what arrives meanwhile, never an underestimate).
  int64_t Behind() const {
    auto map = control_->Metadata(map_);
    auto src = control_->Metadata(source_);
    if (!src.ok() || !map.ok() || src->empty() || map->empty()) return -1;
    return static_cast<int64_t>(src->front().record_count) -
           static_cast<int64_t>(map->front().record_count);
  }

  /// Waits (60 s at most) until the map stream has caught up; notes when, counted from `since`.
  void CatchUp(PhaseResult* r, Clock::time_point since) const {
    for (int64_t left = Behind(); left != 0;) {
      if (left < 0 || Clock::now() - since > std::chrono::seconds(60)) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      left = Behind();
    }
    r->catch_up_seconds = std::chrono::duration<double>(Clock::now() - since).count();
  }

  void Report(const PhaseResult& r) const {
    const Counts& c = r.counts;
    const double rec_s = static_cast<double>(c.records) / r.ack_seconds;
    const double req_s = static_cast<double>(c.requests) / r.ack_seconds;
    const auto& p = c.produce_ns;
    const auto& q = c.probe_ns;
    const double max_probe = q.empty() ? 0 : static_cast<double>(q.back()) / 1000.0;
    const double max_produce = p.empty() ? 0 : static_cast<double>(p.back()) / 1000.0;
    if (o_.json) {
      std::printf(
          "{\"mode\":\"derived-lag\",\"phase\":\"%s\",\"storage\":\"%s\",\"batch\":%u,"
          "\"rate\":%.1f,\"keys\":%u,\"seconds\":%.3f,\"requests\":%llu,\"records\":%llu,"
          "\"records_per_s\":%.1f,\"requests_per_s\":%.1f,"
          "\"produce_p50_us\":%.1f,\"produce_p99_us\":%.1f,\"produce_p999_us\":%.1f,"
          "\"produce_max_us\":%.1f,\"probe_p50_us\":%.1f,\"probe_p99_us\":%.1f,"
          "\"probe_p999_us\":%.1f,\"probe_max_us\":%.1f,\"probes\":%zu,\"late_sends\":%llu,"
          "\"max_send_delay_us\":%.1f,\"stalls\":%llu,\"phase_seconds\":%.3f,"
          "\"backlog\":%lld,\"catch_up_s\":%.3f,\"timed_out\":%llu,\"errors\":%llu,\"wrong\":%llu,"
          "\"first_error\":\"%s\"}\n",
          r.phase.c_str(), o_.storage.c_str(), o_.batch, o_.rate, o_.keys, r.seconds,
          static_cast<unsigned long long>(c.requests), static_cast<unsigned long long>(c.records),
          rec_s, req_s, QuantileUs(p, 0.5), QuantileUs(p, 0.99), QuantileUs(p, 0.999), max_produce,
          QuantileUs(q, 0.5), QuantileUs(q, 0.99), QuantileUs(q, 0.999), max_probe, q.size(),
          static_cast<unsigned long long>(r.late_sends),
          static_cast<double>(r.max_send_delay_ns) / 1000.0,
          static_cast<unsigned long long>(r.stalls), r.phase_seconds,
          static_cast<long long>(r.backlog), r.catch_up_seconds,
          static_cast<unsigned long long>(c.timed_out), static_cast<unsigned long long>(c.errors),
          static_cast<unsigned long long>(c.wrong), JsonEscape(c.first_error).c_str());
    } else {
      std::printf(
          "derived-lag %s %s batch=%u rate=%.0f rec/s: achieved %.0f rec/s (%.0f req/s); "
          "produce us p50=%.0f p99=%.0f p999=%.0f max=%.0f; %s us p50=%.0f p99=%.0f p999=%.0f "
          "max=%.0f; late sends=%llu (max delay %.0f us), stalls=%llu; map backlog at the last send "
          "%lld records (caught up %.3f s after it); timed out=%llu, errors=%llu, wrong=%llu\n",
          r.phase.c_str(), o_.storage.c_str(), o_.batch, o_.rate, rec_s, req_s, QuantileUs(p, 0.5),
          QuantileUs(p, 0.99), QuantileUs(p, 0.999), max_produce,
          r.phase == "derived" ? "lag (ack -> derived record read)" : "probe (ack -> source read)",
          QuantileUs(q, 0.5), QuantileUs(q, 0.99), QuantileUs(q, 0.999), max_probe,
          static_cast<unsigned long long>(r.late_sends),
          static_cast<double>(r.max_send_delay_ns) / 1000.0,
          static_cast<unsigned long long>(r.stalls), static_cast<long long>(r.backlog),
          r.catch_up_seconds, static_cast<unsigned long long>(c.timed_out),
          static_cast<unsigned long long>(c.errors), static_cast<unsigned long long>(c.wrong));
      if (!c.first_error.empty()) std::printf("first error: %s\n", c.first_error.c_str());
    }
    std::fflush(stdout);
  }

 private:
  Result<std::unique_ptr<Client>> Connect() const {
    ClientOptions options;
    options.host = o_.host;
    options.port = o_.port;
    options.request_timeout = std::chrono::milliseconds(o_.timeout_ms);
    return Client::Connect(options);
  }

  const DerivedLagOptions o_;
  std::string source_, map_;
  std::unique_ptr<Client> control_;
  bool declared_ = false;
  uint64_t seq_ = 0;  // next record's number, across phases (the sender's only)
};

}  // namespace

int RunDerivedLag(const DerivedLagOptions& options) {
  LagRun run(options);
  if (Status s = run.Setup(); !s.ok()) {
    std::fprintf(stderr, "higgins-bench derived-lag: %s\n", s.ToString().c_str());
    run.Teardown();
    return 1;
  }
  std::vector<bool> phases;
  if (options.phases != "derived") phases.push_back(false);
  if (options.phases != "baseline") phases.push_back(true);
  bool failed = false;
  for (bool derived : phases) {
    auto result = run.RunPhase(derived);
    if (!result.ok()) {
      std::fprintf(stderr, "higgins-bench derived-lag: %s\n", result.status().ToString().c_str());
      run.Teardown();
      return 1;
    }
    run.Report(*result);
    failed |= result->counts.errors > 0 || result->counts.wrong > 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the broker settle
  }
  run.Teardown();
  return failed ? 3 : 0;
}

}  // namespace higgins::bench
