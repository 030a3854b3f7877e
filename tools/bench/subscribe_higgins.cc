// Higgins as a SubscribeTarget (subscribe_target.h), on the C++ client library.
//
// Producer: one connection; Send is a ProduceJsonAsync of one NDJSON record (fsynced before its
// acknowledgement on file storage), and an acknowledger thread takes the replies in order.
// Consumer: one connection with one subscription; a receiver thread takes the pushes
// (NextDelivery) and notes their arrival, and an acker thread acknowledges what arrived since its
// previous call in one Acknowledge (durable once it returns) and then gives the same number back
// as demand (Take): so at most `window` records are pushed and not acknowledged, as JetStream's
// MaxAckPending allows.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "blocking_queue.h"
#include "higgins/client.h"
#include "subscribe_target.h"

namespace higgins::bench {
namespace {

constexpr char kSchema[] = "bench_sub";

/// Contiguous ranges of one partition become one (deliveries of a partition come in offset
/// order, so those of one acker batch usually join up).
void MergeRanges(std::vector<AckRange>* ranges) {
  std::sort(ranges->begin(), ranges->end(), [](const AckRange& a, const AckRange& b) {
    return a.partition_key != b.partition_key ? a.partition_key < b.partition_key
                                              : a.start < b.start;
  });
  size_t out = 0;
  for (size_t i = 0; i < ranges->size(); ++i) {
    AckRange& r = (*ranges)[i];
    if (out > 0 && (*ranges)[out - 1].partition_key == r.partition_key &&
        (*ranges)[out - 1].end == r.start) {
      (*ranges)[out - 1].end = r.end;
    } else {
      if (out != i) (*ranges)[out] = std::move(r);
      ++out;
    }
  }
  ranges->resize(out);
}

class HigginsTarget : public SubscribeTarget {
 public:
  HigginsTarget(uint16_t port, std::string storage, int timeout_ms)
      : port_(port),
        storage_(std::move(storage)),
        timeout_ms_(timeout_ms),
        name_("higgins-" + storage_) {}

  ~HigginsTarget() override {
    StopConsumer();
    FinishProducer();
    DropStream();
  }

  Status Init() {
    HIGGINS_ASSIGN_OR_RETURN(control_, Connect());
    std::string storage_block;
    if (storage_ == "file") {
      storage_block = "type = \"file\"\n";
    } else if (storage_ == "file-nosync") {
      storage_block = "type = \"file\"\nfsync = false\n";
    } else if (storage_ == "memory") {
      storage_block = "type = \"memory\"\n";
    } else {
      return Status::InvalidArgument("unknown Higgins storage '" + storage_ +
                                     "' (file, file-nosync or memory)");
    }
    return control_->UploadConfiguration("[storage." + StorageName() + "]\n" + storage_block +
                                         "[schema." + kSchema +
                                         "]\nid = \"string\"\nts = \"int64\"\n"
                                         "payload = \"string\"\n");
  }

  const std::string& name() const override { return name_; }

  Status NewStream() override {
    DropStream();
    const std::string stream = "bench_sub_" + StorageName() + "_" + std::to_string(getpid()) + "_" +
                               std::to_string(++streams_made_);
    HIGGINS_RETURN_IF_ERROR(control_->UploadConfiguration("[streams." + stream + "]\nschema = \"" +
                                                          kSchema + "\"\npartition_key = \"id\"\n" +
                                                          "storage = \"" + StorageName() + "\"\n"));
    stream_ = stream;
    return Status::OK();
  }

  void DropStream() override {
    if (stream_.empty() || !control_) return;
    if (Status s = control_->DeleteConfiguration(stream_); !s.ok()) {
      std::fprintf(stderr, "higgins-bench subscribe: deleting '%s': %s\n", stream_.c_str(),
                   s.ToString().c_str());
    }
    stream_.clear();
  }

  Status StartConsumer(bool from_beginning, uint32_t window, bool /*low_latency*/,
                       Arrivals* arrivals, ErrorLog* errors) override {
    HIGGINS_ASSIGN_OR_RETURN(consumer_, Connect());
    HIGGINS_ASSIGN_OR_RETURN(
        subscription_,
        consumer_->CreateSubscription(stream_, from_beginning ? SubscriptionStart::Beginning()
                                                              : SubscriptionStart::Current()));
    HIGGINS_RETURN_IF_ERROR(consumer_->Take(subscription_, window).status());
    stop_consumer_ = false;
    acks_ = std::make_unique<BlockingQueue<AckRange>>();
    receiver_ = std::thread([this, arrivals, errors] { Receive(arrivals, errors); });
    acker_ = std::thread([this, errors] { Ack(errors); });
    return Status::OK();
  }

  void StopConsumer() override {
    if (!consumer_) return;
    stop_consumer_ = true;
    if (receiver_.joinable()) receiver_.join();
    acks_->Close();
    if (acker_.joinable()) acker_.join();
    if (!subscription_.empty()) {
      if (Status s = consumer_->DeleteSubscription(subscription_); !s.ok()) {
        std::fprintf(stderr, "higgins-bench subscribe: deleting subscription %s: %s\n",
                     subscription_.c_str(), s.ToString().c_str());
      }
      subscription_.clear();
    }
    consumer_.reset();
  }

  Status StartProducer(uint32_t max_in_flight, bool /*low_latency*/, ErrorLog* errors) override {
    HIGGINS_ASSIGN_OR_RETURN(producer_, Connect());
    in_flight_ = std::make_unique<InFlightLimit>(max_in_flight);
    sent_ = std::make_unique<BlockingQueue<Pending<ProduceResult>>>();
    acknowledger_ = std::thread([this, errors] {
      while (auto pending = sent_->Pop()) {
        auto reply = pending->Get();
        in_flight_->Release();
        if (!reply.ok()) errors->Add("produce: " + reply.status().ToString());
      }
    });
    return Status::OK();
  }

  bool Reserve() override { return in_flight_->Acquire(); }

  void Send(uint32_t /*key*/, std::string_view record) override {
    sent_->Push(producer_->ProduceJsonAsync(stream_, record));
  }

  void FinishProducer() override {
    if (!producer_) return;
    sent_->Close();
    if (acknowledger_.joinable()) acknowledger_.join();
    producer_.reset();
  }

 private:
  std::string StorageName() const {
    return storage_ == "file"          ? "bench_sub_file"
           : storage_ == "file-nosync" ? "bench_sub_nosync"
                                       : "bench_sub_mem";
  }

  Result<std::unique_ptr<Client>> Connect() const {
    ClientOptions options;
    options.port = port_;
    options.request_timeout = std::chrono::milliseconds(timeout_ms_);
    return Client::Connect(options);
  }

  /// The receiver thread: every push's records go to `arrivals`, their range to the acker.
  void Receive(Arrivals* arrivals, ErrorLog* errors) {
    while (!stop_consumer_.load()) {
      auto next = consumer_->NextDelivery(std::chrono::milliseconds(20));
      if (!next.ok()) {
        errors->Add("push: " + next.status().ToString());
        return;
      }
      if (!next->has_value()) continue;
      const int64_t now = NowNs();
      const Records& records = (*next)->records;
      const arrow::RecordBatch& batch = records.batch;
      const bool stamped = batch.num_columns() >= 2;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const int64_t stamp =
            stamped && !batch.column(1).IsNull(i) ? batch.column(1).Value<int64_t>(i) : -1;
        arrivals->Add(stamp, now, records.redelivered);
      }
      acks_->Push(AckRange{records.partition_key, records.offset,
                           records.offset + static_cast<uint64_t>(batch.num_rows())});
    }
  }

  /// The acker thread: acknowledges what arrived since its last call, then takes as many.
  void Ack(ErrorLog* errors) {
    std::vector<AckRange> ranges;
    while (acks_->PopAll(&ranges)) {
      uint64_t records = 0;
      for (const AckRange& r : ranges) records += r.end - r.start;
      MergeRanges(&ranges);
      if (Status s = consumer_->Acknowledge(subscription_, ranges); !s.ok()) {
        errors->Add("acknowledge: " + s.ToString());
      }
      if (stop_consumer_.load()) continue;
      if (auto taken = consumer_->Take(subscription_, records); !taken.ok()) {
        errors->Add("take: " + taken.status().ToString());
      }
    }
  }

  const uint16_t port_;
  const std::string storage_;
  const int timeout_ms_;
  const std::string name_;
  std::unique_ptr<Client> control_;
  std::string stream_;
  uint64_t streams_made_ = 0;

  std::unique_ptr<Client> consumer_;
  std::string subscription_;
  std::atomic<bool> stop_consumer_{false};
  std::unique_ptr<BlockingQueue<AckRange>> acks_;
  std::thread receiver_, acker_;

  std::unique_ptr<Client> producer_;
  std::unique_ptr<InFlightLimit> in_flight_;
  std::unique_ptr<BlockingQueue<Pending<ProduceResult>>> sent_;
  std::thread acknowledger_;
};

}  // namespace

Result<std::unique_ptr<SubscribeTarget>> MakeHigginsTarget(uint16_t port,
                                                           const std::string& storage,
                                                           int timeout_ms) {
  auto target = std::make_unique<HigginsTarget>(port, storage, timeout_ms);
  HIGGINS_RETURN_IF_ERROR(target->Init());
  return std::unique_ptr<SubscribeTarget>(std::move(target));
}

}  // namespace higgins::bench
