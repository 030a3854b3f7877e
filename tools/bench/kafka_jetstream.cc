// The NATS JetStream baseline of `higgins-bench kafka` (kafka_jetstream.h), on libnats (the NATS
// C client).
//
// Produce: each connection has its own JetStream context whose PublishAsync.MaxPending is
// o.jetstream_max_pending: a js_PublishAsync beyond it waits (StallWait, 60 s at most) until an
// acknowledgement arrives. The library's ack handler, on the connection's reply-subscription
// thread, counts acknowledgements; js_PublishAsyncComplete waits for the last. Publishes are
// written by the library's flusher thread (SendAsap off), which coalesces them into large
// socket writes.
// Consume: an ordered consumer is an ephemeral push consumer without acks, with flow control
// (answered by the library) and redelivery-free in-order delivery: the closest to a Kafka
// consumer reading a partition. A pull consumer (AckNone) is the alternative.
#include "kafka_jetstream.h"

#include <nats/nats.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "kafka_bench_internal.h"
#include "nats_session.h"

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kTimeoutMs = 60'000;
constexpr const char* kStream = "KB_MEM";
constexpr const char* kSubjects = "kb.>";
constexpr std::string_view kSubjectPrefix = "kb.";

double Seconds(Clock::time_point from) {
  return std::chrono::duration<double>(Clock::now() - from).count();
}

/// The publish acknowledgements of one connection. Written by OnPublishAck (libnats' thread of
/// the connection); read once js_PublishAsyncComplete has returned.
struct Acks {
  std::atomic<uint64_t> acked{0};
  std::atomic<uint64_t> failed{0};
  std::mutex mu;
  std::string first_error;  // guarded by mu
};

void OnPublishAck(jsCtx* /*js*/, natsMsg* msg, jsPubAck* ack, jsPubAckErr* error, void* closure) {
  auto* acks = static_cast<Acks*>(closure);
  if (error == nullptr && ack != nullptr) {
    ++acks->acked;
  } else {
    if (acks->failed++ == 0) {
      std::lock_guard lock(acks->mu);
      acks->first_error = error == nullptr            ? "no acknowledgement"
                          : error->ErrText != nullptr ? error->ErrText
                                                      : natsStatus_GetText(error->Err);
    }
  }
  natsMsg_Destroy(msg);
}

Status MakeStream(const NatsSession& control) {
  jsErrCode code = static_cast<jsErrCode>(0);
  js_DeleteStream(control.js, kStream, nullptr, &code);  // one of an earlier run; none is fine
  const char* subjects[] = {kSubjects};
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = kStream;
  config.Subjects = subjects;
  config.SubjectsLen = 1;
  config.Storage = js_MemoryStorage;
  config.Replicas = 1;
  jsStreamInfo* info = nullptr;
  code = static_cast<jsErrCode>(0);
  const natsStatus s = js_AddStream(&info, control.js, &config, nullptr, &code);
  if (info != nullptr) jsStreamInfo_Destroy(info);
  if (s != NATS_OK) return Status::IOError(NatsError("js_AddStream", s, code));
  return Status::OK();
}

/// One connection's share: published, then every acknowledgement waited for. Empty, or what
/// went wrong.
std::string PublishShare(const NatsSession& session, const KafkaBenchOptions& o, Share share) {
  std::string key, subject;
  for (uint64_t i = share.first; i < share.end; ++i) {
    const std::string value = KafkaBenchRecord(i, o, &key);
    subject = kSubjectPrefix;
    subject += key;
    const natsStatus s = js_PublishAsync(session.js, subject.c_str(), value.data(),
                                         static_cast<int>(value.size()), nullptr);
    if (s != NATS_OK) return NatsError("js_PublishAsync", s);
  }
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MaxWait = kTimeoutMs;
  if (natsStatus s = js_PublishAsyncComplete(session.js, &options); s != NATS_OK) {
    return NatsError("js_PublishAsyncComplete", s);
  }
  return {};
}

Status Produce(const KafkaBenchOptions& o, double* rate) {
  std::vector<Acks> acks(o.connections);
  std::vector<std::unique_ptr<NatsSession>> sessions;
  for (uint32_t c = 0; c < o.connections; ++c) {
    jsOptions options;
    jsOptions_Init(&options);
    options.Wait = kTimeoutMs;
    options.PublishAsync.MaxPending = o.jetstream_max_pending;
    options.PublishAsync.StallWait = kTimeoutMs;
    options.PublishAsync.AckHandler = &OnPublishAck;
    options.PublishAsync.AckHandlerClosure = &acks[c];
    sessions.push_back(std::make_unique<NatsSession>());
    HIGGINS_RETURN_IF_ERROR(sessions.back()->Open(o.jetstream_port, false, kTimeoutMs, &options));
  }
  std::vector<std::string> errors(o.connections);
  const auto start = Clock::now();
  OnThreads(o.connections, [&](uint32_t c) {
    errors[c] = PublishShare(*sessions[c], o, ShareOf(o.records, o.connections, c));
  });
  uint64_t acked = 0, failed = 0;
  for (Acks& a : acks) {
    acked += a.acked;
    failed += a.failed;
  }
  *rate = static_cast<double>(acked) / Seconds(start);
  for (uint32_t c = 0; c < o.connections; ++c) {
    if (!errors[c].empty()) return Status::IOError("JetStream produce: " + errors[c]);
    std::lock_guard lock(acks[c].mu);
    if (acks[c].failed != 0) return Status::IOError("JetStream produce: " + acks[c].first_error);
  }
  if (acked != o.records || failed != 0) {
    return Status::IOError("JetStream produce: " + std::to_string(acked) + " acknowledged, " +
                           std::to_string(failed) + " failed");
  }
  return Status::OK();
}

/// Reads `records` messages of the stream with an ordered push consumer; *seen counts them.
Status ConsumeOrdered(const NatsSession& session, uint64_t records, uint64_t* seen) {
  jsSubOptions options;
  jsSubOptions_Init(&options);
  options.Stream = kStream;
  options.Ordered = true;
  options.Config.DeliverPolicy = js_DeliverAll;
  natsSubscription* subscription = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  natsStatus s = js_SubscribeSync(&subscription, session.js, kSubjects, nullptr, &options, &code);
  if (s != NATS_OK) return Status::IOError(NatsError("js_SubscribeSync", s, code));
  while (*seen < records) {
    natsMsg* message = nullptr;
    s = natsSubscription_NextMsg(&message, subscription, kTimeoutMs);
    if (s != NATS_OK) break;
    if (std::string_view(natsMsg_GetSubject(message)).starts_with(kSubjectPrefix)) ++*seen;
    natsMsg_Destroy(message);
  }
  natsSubscription_Unsubscribe(subscription);
  natsSubscription_Destroy(subscription);
  if (s != NATS_OK) return Status::IOError(NatsError("natsSubscription_NextMsg", s));
  return Status::OK();
}

/// How much a pull consumer reads: `records` messages, `fetch` at a time.
struct PullPlan {
  uint64_t records = 0;
  uint32_t fetch = 0;
};

/// Reads the plan's messages of the stream with an ephemeral pull consumer (AckNone); *seen
/// counts them.
Status ConsumePull(const NatsSession& session, const PullPlan& plan, uint64_t* seen) {
  jsSubOptions options;
  jsSubOptions_Init(&options);
  options.Stream = kStream;
  options.Config.DeliverPolicy = js_DeliverAll;
  options.Config.AckPolicy = js_AckNone;
  natsSubscription* subscription = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  natsStatus s =
      js_PullSubscribe(&subscription, session.js, kSubjects, nullptr, nullptr, &options, &code);
  if (s != NATS_OK) return Status::IOError(NatsError("js_PullSubscribe", s, code));
  while (*seen < plan.records) {
    natsMsgList list{};
    s = natsSubscription_Fetch(&list, subscription, static_cast<int>(plan.fetch), kTimeoutMs,
                               &code);
    if (s != NATS_OK) break;
    *seen += static_cast<uint64_t>(list.Count);
    natsMsgList_Destroy(&list);
  }
  natsSubscription_Unsubscribe(subscription);
  natsSubscription_Destroy(subscription);
  if (s != NATS_OK) return Status::IOError(NatsError("natsSubscription_Fetch", s, code));
  return Status::OK();
}

/// Opens `session` to the nats-server of `o` with plain JetStream options (API calls wait
/// kTimeoutMs; no asynchronous publishing).
Status OpenPlain(const KafkaBenchOptions& o, NatsSession* session) {
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = kTimeoutMs;
  return session->Open(o.jetstream_port, false, kTimeoutMs, &options);
}

Status Consume(const KafkaBenchOptions& o, double* rate) {
  NatsSession session;
  HIGGINS_RETURN_IF_ERROR(OpenPlain(o, &session));
  uint64_t seen = 0;
  const auto start = Clock::now();
  const Status s = o.jetstream_consumer == "pull"
                       ? ConsumePull(session, PullPlan{o.records, o.jetstream_fetch}, &seen)
                       : ConsumeOrdered(session, o.records, &seen);
  *rate = static_cast<double>(seen) / Seconds(start);
  if (!s.ok()) {
    return Status::IOError("JetStream consume: read " + std::to_string(seen) +
                           " records: " + s.ToString());
  }
  return Status::OK();
}

}  // namespace

bool KafkaJetStreamAvailable() {
  return true;
}

Status RunKafkaJetStream(const KafkaBenchOptions& o, JetStreamRates* rates) {
  NatsSession control;
  HIGGINS_RETURN_IF_ERROR(OpenPlain(o, &control));
  HIGGINS_RETURN_IF_ERROR(MakeStream(control));
  const CpuMeter produce_meter(o.jetstream_pid);
  Status s = Produce(o, &rates->produce);
  rates->produce_cpu = produce_meter.Elapsed();
  if (s.ok()) {
    const CpuMeter consume_meter(o.jetstream_pid);
    s = Consume(o, &rates->consume);
    rates->consume_cpu = consume_meter.Elapsed();
  }
  jsErrCode code = static_cast<jsErrCode>(0);
  if (natsStatus d = js_DeleteStream(control.js, kStream, nullptr, &code); d != NATS_OK && s.ok()) {
    s = Status::IOError(NatsError("js_DeleteStream", d, code));
  }
  return s;
}

}  // namespace higgins::bench
