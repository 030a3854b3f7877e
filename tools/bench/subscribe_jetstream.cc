// NATS JetStream as a SubscribeTarget (subscribe_target.h), on libnats (the NATS C client).
//
// Producer: one connection; Send is a js_PublishAsync of the record to subject
// `<prefix>.k<key>`, and the library's publish-ack callback counts the acknowledgement (which a
// JetStream file store sends once the message is written to its block file, fsynced only every
// sync interval).
// Consumer: one connection with one ephemeral push consumer (js_Subscribe with a callback,
// AckExplicit, MaxAckPending = window); the library's delivery thread runs the callback, which
// notes the arrival and acknowledges the message (natsMsg_Ack: a publish to its reply subject).
// low_latency sets SendAsap on the connection: publishes and acks are written to the socket at
// once instead of by the library's flusher thread.
#include <nats/nats.h>

#include <cstdio>
#include <memory>
#include <string>

#include "nats_session.h"
#include "subscribe_target.h"

namespace higgins::bench {
namespace {

class JetStreamTarget : public SubscribeTarget {
 public:
  JetStreamTarget(uint16_t port, std::string storage, int timeout_ms)
      : port_(port),
        storage_(std::move(storage)),
        timeout_ms_(timeout_ms),
        name_("jetstream-" + storage_) {}

  ~JetStreamTarget() override {
    StopConsumer();
    FinishProducer();
    DropStream();
  }

  Status Init() {
    if (storage_ != "file" && storage_ != "memory") {
      return Status::InvalidArgument("unknown JetStream storage '" + storage_ +
                                     "' (file or memory)");
    }
    control_ = std::make_unique<NatsSession>();
    jsOptions options;
    jsOptions_Init(&options);
    options.Wait = timeout_ms_;
    return control_->Open(port_, false, timeout_ms_, &options);
  }

  const std::string& name() const override { return name_; }

  Status NewStream() override {
    DropStream();
    const std::string n = std::to_string(++streams_made_);
    const std::string stream =
        "BENCH_SUB_" + std::string(storage_ == "file" ? "FILE" : "MEM") + "_" + n;
    const std::string prefix = "bsub." + std::string(storage_ == "file" ? "f" : "m") + n;
    const std::string all = prefix + ".>";
    const char* subjects[] = {all.c_str()};
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    config.Name = stream.c_str();
    config.Subjects = subjects;
    config.SubjectsLen = 1;
    config.Storage = storage_ == "file" ? js_FileStorage : js_MemoryStorage;
    config.Replicas = 1;
    jsStreamInfo* info = nullptr;
    jsErrCode code = static_cast<jsErrCode>(0);
    const natsStatus s = js_AddStream(&info, control_->js, &config, nullptr, &code);
    if (info != nullptr) jsStreamInfo_Destroy(info);
    if (s != NATS_OK) return Status::IOError(NatsError("js_AddStream", s, code));
    stream_ = stream;
    prefix_ = prefix;
    return Status::OK();
  }

  void DropStream() override {
    if (stream_.empty() || !control_) return;
    jsErrCode code = static_cast<jsErrCode>(0);
    if (natsStatus s = js_DeleteStream(control_->js, stream_.c_str(), nullptr, &code);
        s != NATS_OK) {
      std::fprintf(stderr, "higgins-bench subscribe: %s\n",
                   NatsError("js_DeleteStream", s, code).c_str());
    }
    stream_.clear();
  }

  Status StartConsumer(bool from_beginning, uint32_t window, bool low_latency, Arrivals* arrivals,
                       ErrorLog* errors) override {
    arrivals_ = arrivals;
    consumer_errors_ = errors;
    consumer_ = std::make_unique<NatsSession>();
    jsOptions options;
    jsOptions_Init(&options);
    options.Wait = timeout_ms_;
    HIGGINS_RETURN_IF_ERROR(consumer_->Open(port_, low_latency, timeout_ms_, &options));
    jsSubOptions sub_options;
    jsSubOptions_Init(&sub_options);
    sub_options.Stream = stream_.c_str();
    sub_options.ManualAck = true;
    sub_options.Config.AckPolicy = js_AckExplicit;
    sub_options.Config.DeliverPolicy = from_beginning ? js_DeliverAll : js_DeliverNew;
    sub_options.Config.MaxAckPending = window;
    sub_options.Config.AckWait = int64_t{30} * 1'000'000'000;  // as Higgins' visibility timeout
    const std::string all = prefix_ + ".>";
    jsErrCode code = static_cast<jsErrCode>(0);
    const natsStatus s = js_Subscribe(&subscription_, consumer_->js, all.c_str(), &OnMessage, this,
                                      nullptr, &sub_options, &code);
    if (s != NATS_OK) {
      subscription_ = nullptr;
      consumer_.reset();
      return Status::IOError(NatsError("js_Subscribe", s, code));
    }
    return Status::OK();
  }

  void StopConsumer() override {
    if (!consumer_) return;
    if (subscription_ != nullptr) {
      // Drain: no more pushes, and every callback has returned once it completes.
      if (natsSubscription_Drain(subscription_) == NATS_OK) {
        natsSubscription_WaitForDrainCompletion(subscription_, timeout_ms_);
      }
      natsSubscription_Destroy(subscription_);
      subscription_ = nullptr;
    }
    consumer_.reset();
  }

  Status StartProducer(uint32_t max_in_flight, bool low_latency, ErrorLog* errors) override {
    producer_errors_ = errors;
    in_flight_ = std::make_unique<InFlightLimit>(max_in_flight);
    producer_ = std::make_unique<NatsSession>();
    jsOptions options;
    jsOptions_Init(&options);
    options.Wait = timeout_ms_;
    // Our own limit (in_flight_) is the one that applies; the library's must never stall.
    options.PublishAsync.MaxPending = int64_t{max_in_flight} + 16;
    options.PublishAsync.AckHandler = &OnPublishAck;
    options.PublishAsync.AckHandlerClosure = this;
    return producer_->Open(port_, low_latency, timeout_ms_, &options);
  }

  bool Reserve() override { return in_flight_->Acquire(); }

  void Send(uint32_t key, std::string_view record) override {
    subject_ = prefix_;
    subject_ += ".k";
    subject_ += std::to_string(key);
    const natsStatus s = js_PublishAsync(producer_->js, subject_.c_str(), record.data(),
                                         static_cast<int>(record.size()), nullptr);
    if (s != NATS_OK) {
      in_flight_->Release();
      producer_errors_->Add(NatsError("js_PublishAsync", s));
    }
  }

  void FinishProducer() override {
    if (!producer_) return;
    jsPubOptions options;
    jsPubOptions_Init(&options);
    options.MaxWait = timeout_ms_;
    if (natsStatus s = js_PublishAsyncComplete(producer_->js, &options); s != NATS_OK) {
      producer_errors_->Add(NatsError("js_PublishAsyncComplete", s));
    }
    producer_.reset();
  }

 private:
  static void OnMessage(natsConnection* /*nc*/, natsSubscription* /*sub*/, natsMsg* msg,
                        void* closure) {
    const int64_t now = NowNs();
    auto* self = static_cast<JetStreamTarget*>(closure);
    const std::string_view data(natsMsg_GetData(msg),
                                static_cast<size_t>(natsMsg_GetDataLength(msg)));
    self->arrivals_->Add(ParseStamp(data), now, false);
    if (natsStatus s = natsMsg_Ack(msg, nullptr); s != NATS_OK) {
      self->consumer_errors_->Add(NatsError("natsMsg_Ack", s));
    }
    natsMsg_Destroy(msg);
  }

  static void OnPublishAck(jsCtx* /*js*/, natsMsg* msg, jsPubAck* /*ack*/, jsPubAckErr* error,
                           void* closure) {
    auto* self = static_cast<JetStreamTarget*>(closure);
    if (error != nullptr) {
      self->producer_errors_->Add(
          std::string("publish: ") +
          (error->ErrText != nullptr ? error->ErrText : natsStatus_GetText(error->Err)));
    }
    natsMsg_Destroy(msg);
    self->in_flight_->Release();
  }

  const uint16_t port_;
  const std::string storage_;
  const int timeout_ms_;
  const std::string name_;
  std::unique_ptr<NatsSession> control_;
  std::string stream_, prefix_;
  uint64_t streams_made_ = 0;

  std::unique_ptr<NatsSession> consumer_;
  natsSubscription* subscription_ = nullptr;
  Arrivals* arrivals_ = nullptr;
  ErrorLog* consumer_errors_ = nullptr;

  std::unique_ptr<NatsSession> producer_;
  std::unique_ptr<InFlightLimit> in_flight_;
  ErrorLog* producer_errors_ = nullptr;
  std::string subject_;  // Send's scratch
};

}  // namespace

bool JetStreamAvailable() {
  return true;
}

Result<std::unique_ptr<SubscribeTarget>> MakeJetStreamTarget(uint16_t port,
                                                             const std::string& storage,
                                                             int timeout_ms) {
  auto target = std::make_unique<JetStreamTarget>(port, storage, timeout_ms);
  HIGGINS_RETURN_IF_ERROR(target->Init());
  return std::unique_ptr<SubscribeTarget>(std::move(target));
}

}  // namespace higgins::bench
