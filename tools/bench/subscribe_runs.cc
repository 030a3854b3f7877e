// The measurements of `higgins-bench subscribe` (subscribe_runs.h).
//
// Threads: the calling thread is the producer (it keeps the schedule and calls Send); the target
// runs its own threads for acknowledgements and pushes (subscribe_higgins.cc,
// subscribe_jetstream.cc), and Arrivals is the only state they share with this one.
#include "subscribe_runs.h"

#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace higgins::bench {
namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

int64_t ToNs(double seconds) {
  return static_cast<int64_t>(seconds * 1e9);
}

/// Waits until `arrivals` holds `expected` records, or nothing came for `idle_timeout`.
void AwaitArrivals(const Arrivals& arrivals, uint64_t expected,
                   std::chrono::duration<double> idle_timeout) {
  uint64_t seen = arrivals.received();
  int64_t progress_ns = NowNs();
  while (seen < expected) {
    std::this_thread::sleep_for(std::chrono::microseconds(500));
    const uint64_t now_seen = arrivals.received();
    if (now_seen != seen) {
      seen = now_seen;
      progress_ns = NowNs();
    } else if (NowNs() - progress_ns > ToNs(idle_timeout.count())) {
      return;
    }
  }
}

/// Fills in what the consumer's Arrivals and both error logs say.
void Collect(Arrivals& arrivals, const ErrorLog& producer, const ErrorLog& consumer,
             SubscribeRun* run) {
  run->received = arrivals.received();
  run->missing = run->sent > run->received ? run->sent - run->received : 0;
  run->redelivered = arrivals.redelivered();
  run->latency_ns = std::move(arrivals.latency_ns());
  std::sort(run->latency_ns.begin(), run->latency_ns.end());
  run->errors = producer.count() + consumer.count();
  run->first_error = producer.count() > 0 ? producer.first() : consumer.first();
  if (arrivals.unstamped() > 0) {
    ++run->errors;
    if (run->first_error.empty()) {
      run->first_error = std::to_string(arrivals.unstamped()) + " records without a stamp";
    }
  }
}

}  // namespace

Result<SubscribeRun> RunLatency(SubscribeTarget& target, const SubscribeOptions& o, double rate) {
  SubscribeRun run;
  run.phase = rate > 0 ? "latency" : "concurrent";
  run.system = target.name();
  run.rate = rate;
  run.seconds = o.seconds;
  Arrivals arrivals;
  ErrorLog producer_errors, consumer_errors;
  HIGGINS_RETURN_IF_ERROR(target.NewStream());
  if (Status s = target.StartConsumer(false, o.window, true, &arrivals, &consumer_errors);
      !s.ok()) {
    target.DropStream();
    return s;
  }
  if (Status s = target.StartProducer(o.max_in_flight, true, &producer_errors); !s.ok()) {
    target.StopConsumer();
    target.DropStream();
    return s;
  }

  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // wake up on time, not up to 50 µs late
  const int64_t start = NowNs() + 20'000'000;
  const int64_t from = start + ToNs(o.warmup_seconds);
  const int64_t to = from + ToNs(o.seconds);
  arrivals.SetWindow(from, to);
  const size_t base = [&] {
    std::string probe;
    FormatRecord({.key = o.keys - 1, .stamp_ns = start}, &probe);
    return probe.size();
  }();
  const size_t payload = o.record_bytes > base ? o.record_bytes - base : 0;
  std::string record;
  uint64_t sent_in_window = 0;
  using std::chrono::nanoseconds;
  using std::chrono::steady_clock;
  for (uint64_t i = 0;; ++i) {
    int64_t stamp;
    if (rate > 0) {
      stamp = start + static_cast<int64_t>(static_cast<double>(i) * 1e9 / rate);
      if (stamp >= to) break;
      std::this_thread::sleep_until(steady_clock::time_point(nanoseconds(stamp)));
      if (target.Reserve()) ++run.stalls;
    } else {
      if (i == 0) std::this_thread::sleep_until(steady_clock::time_point(nanoseconds(start)));
      if (target.Reserve()) ++run.stalls;
      stamp = NowNs();
      if (stamp >= to) {
        // Reserved and not sent: nothing will release it, and nothing more is sent.
        break;
      }
    }
    const auto key = static_cast<uint32_t>(i % o.keys);
    FormatRecord({.key = key, .stamp_ns = stamp, .payload_bytes = payload}, &record);
    target.Send(key, record);
    ++run.sent;
    if (stamp >= from) ++sent_in_window;
    const auto delay = static_cast<uint64_t>(std::max<int64_t>(0, NowNs() - stamp));
    run.max_send_delay_ns = std::max(run.max_send_delay_ns, delay);
    if (delay > 1'000'000) ++run.late_sends;
  }
  target.FinishProducer();
  AwaitArrivals(arrivals, run.sent, std::chrono::duration<double>(o.drain_timeout_seconds));
  target.StopConsumer();
  target.DropStream();

  Collect(arrivals, producer_errors, consumer_errors, &run);
  const double span = std::max(o.seconds, static_cast<double>(arrivals.last_measured_ns() - from) /
                                              static_cast<double>(kSecondNs));
  run.delivered_per_s = static_cast<double>(run.latency_ns.size()) / span;
  if (rate == 0) run.produced_per_s = static_cast<double>(sent_in_window) / o.seconds;
  return run;
}

Result<SubscribeRun> RunDrain(SubscribeTarget& target, const SubscribeOptions& o) {
  SubscribeRun run;
  run.phase = "drain";
  run.system = target.name();
  Arrivals arrivals;  // no window: nothing is measured for latency
  ErrorLog producer_errors, consumer_errors;
  HIGGINS_RETURN_IF_ERROR(target.NewStream());
  if (Status s = target.StartProducer(o.max_in_flight, false, &producer_errors); !s.ok()) {
    target.DropStream();
    return s;
  }
  const int64_t prefill_start = NowNs();
  std::string record;
  std::string probe;
  FormatRecord({.key = o.keys - 1, .stamp_ns = prefill_start}, &probe);
  const size_t payload = o.record_bytes > probe.size() ? o.record_bytes - probe.size() : 0;
  for (uint64_t i = 0; i < o.drain_records; ++i) {
    const auto key = static_cast<uint32_t>(i % o.keys);
    target.Reserve();
    FormatRecord({.key = key, .stamp_ns = NowNs(), .payload_bytes = payload}, &record);
    target.Send(key, record);
  }
  target.FinishProducer();
  run.sent = o.drain_records;
  run.produced_per_s = static_cast<double>(o.drain_records) * 1e9 /
                       static_cast<double>(std::max<int64_t>(1, NowNs() - prefill_start));

  const int64_t subscribe = NowNs();
  if (Status s = target.StartConsumer(true, o.window, false, &arrivals, &consumer_errors);
      !s.ok()) {
    target.DropStream();
    return s;
  }
  run.subscribe_s = static_cast<double>(NowNs() - subscribe) / 1e9;
  AwaitArrivals(arrivals, run.sent, std::chrono::duration<double>(o.drain_timeout_seconds));
  target.StopConsumer();
  target.DropStream();

  Collect(arrivals, producer_errors, consumer_errors, &run);
  if (arrivals.first_ns() > 0) {
    run.first_push_s = static_cast<double>(arrivals.first_ns() - subscribe) / 1e9;
    run.seconds = static_cast<double>(arrivals.last_ns() - arrivals.first_ns()) / 1e9;
    if (run.seconds > 0) run.delivered_per_s = static_cast<double>(run.received) / run.seconds;
  }
  return run;
}

}  // namespace higgins::bench
