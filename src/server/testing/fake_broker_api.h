#pragma once

#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "broker/broker_api.h"

namespace higgins::server::testing {

/// A BrokerApi for adapter tests: records what it is asked and answers what the test set. Every
/// operation a test did not prepare fails with NotSupported naming it, so a test notices a call
/// it did not expect. `throw_on_produce` makes Produce throw, as a library failing below the
/// adapter would. Thread-safe for the calls it records.
class FakeBrokerApi final : public broker::BrokerApi {
 public:
  struct ProduceCall {
    std::string stream;
    std::string payload;
    stream::PayloadFormat format;
  };

  // What the fake answers.
  Result<stream::ProduceResult> produce_result = Status::NotSupported("Produce");
  bool throw_on_produce = false;
  Status wait_status = Status::OK();
  Result<broker::QueryAnswer> query_answer = Status::NotSupported("Query");
  Status acknowledge_status = Status::NotSupported("Acknowledge");
  std::vector<subscription::OffsetRange> acknowledge_failed;  // with acknowledge_status
  Result<std::vector<broker::StreamInfo>> metadata = Status::NotSupported("Metadata");
  Result<SubscriptionId> subscription_id = Status::NotSupported("CreateSubscription");
  Result<broker::ConfigurationOutcome> configuration_outcome =
      Status::NotSupported("CreateConfiguration");
  std::string topography = "# empty\n";

  // What the fake was asked.
  std::vector<ProduceCall> produces;
  std::vector<size_t> produce_many_sizes;             // items of each ProduceMany call
  mutable std::vector<broker::QueryRequest> queries;  // Query is const in the interface
  std::vector<std::string> waited_for_derived;
  std::vector<std::pair<std::string, broker::SubscriptionStart>> subscriptions_created;
  std::vector<ConsumerId> removed_consumers;

  Result<broker::ConfigurationOutcome> CreateConfiguration(std::string_view) override {
    return configuration_outcome;
  }
  Status DeleteConfiguration(std::string_view key) override {
    return Status::NotSupported("DeleteConfiguration " + std::string(key));
  }
  std::string TopographyToml() const override { return topography; }
  Result<uint64_t> UploadModule(std::string_view, std::string_view) override {
    return Status::NotSupported("UploadModule");
  }
  void Produce(std::string_view stream, std::string_view payload, stream::PayloadFormat format,
               ProduceDone done) override {
    {
      std::lock_guard lock(mu_);
      produces.push_back({std::string(stream), std::string(payload), format});
    }
    if (throw_on_produce) throw std::runtime_error("out of memory in a library");
    done(produce_result);
  }
  /// One Produce per item: the adapter's grouping is what adapter tests look at.
  void ProduceMany(std::string_view stream, std::span<ProduceItem> items) override {
    {
      std::lock_guard lock(mu_);
      produce_many_sizes.push_back(items.size());
    }
    for (auto& item : items) Produce(stream, item.payload, item.format, std::move(item.done));
  }
  void WaitForDerived(std::string_view stream, const stream::ProduceResult&,
                      std::chrono::milliseconds, WaitDone done) override {
    {
      std::lock_guard lock(mu_);
      waited_for_derived.emplace_back(stream);
    }
    done(wait_status);
  }
  Result<broker::QueryAnswer> Query(const broker::QueryRequest& request) const override {
    std::lock_guard lock(mu_);
    queries.push_back(request);
    return query_answer;
  }
  void WaitForQuery(std::string_view, std::string_view, std::chrono::milliseconds,
                    WaitDone done) override {
    done(wait_status);
  }
  Result<std::vector<broker::StreamInfo>> Metadata(std::string_view) const override {
    return metadata;
  }
  Result<broker::BucketRead> ReadBucket(std::string_view, uint32_t, uint64_t, uint64_t,
                                        size_t) const override {
    return Status::NotSupported("ReadBucket");
  }
  Result<BucketLogs> DescribeBuckets(std::string_view) const override {
    return Status::NotSupported("DescribeBuckets");
  }
  Result<uint64_t> BucketEnd(std::string_view, uint32_t) const override {
    return Status::NotSupported("BucketEnd");
  }
  Result<std::optional<BucketPosition>> BucketAtTime(std::string_view, uint32_t,
                                                     int64_t) const override {
    return Status::NotSupported("BucketAtTime");
  }
  Result<RecordPosition> Locate(std::string_view, std::string_view, uint64_t) const override {
    return Status::NotSupported("Locate");
  }
  Result<uint64_t> WaitForCommit(std::string_view, std::function<void()>) override {
    return Status::NotSupported("WaitForCommit");
  }
  void CancelCommitWait(std::string_view, uint64_t) override {}
  Result<SubscriptionId> CreateSubscription(std::string_view stream,
                                            broker::SubscriptionStart start,
                                            std::chrono::milliseconds) override {
    std::lock_guard lock(mu_);
    subscriptions_created.emplace_back(std::string(stream), start);
    return subscription_id;
  }
  Result<uint64_t> Take(const SubscriptionId&, std::string_view, ConsumerId, uint64_t,
                        subscription::PushSink) override {
    return Status::NotSupported("Take");
  }
  void Acknowledge(const SubscriptionId&, std::string_view, std::vector<subscription::OffsetRange>,
                   AcknowledgeDone done) override {
    done(acknowledge_status, acknowledge_failed);
  }
  Result<subscription::SubscriptionReport> GetSubscription(const SubscriptionId&,
                                                           std::string_view) const override {
    return Status::NotSupported("GetSubscription");
  }
  Result<std::vector<subscription::SubscriptionReport>> ListSubscriptions(
      std::string_view) const override {
    return Status::NotSupported("ListSubscriptions");
  }
  Status DeleteSubscription(const SubscriptionId&, std::string_view) override {
    return Status::NotSupported("DeleteSubscription");
  }
  void RemoveConsumer(ConsumerId consumer) override {
    std::lock_guard lock(mu_);
    removed_consumers.push_back(consumer);
  }
  void ConsumerReady(ConsumerId) override {}

 private:
  mutable std::mutex mu_;
};

}  // namespace higgins::server::testing
