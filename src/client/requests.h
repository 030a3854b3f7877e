#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "client/subscription_id.h"
#include "higgins.pb.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/client.h"
#include "higgins/result.h"

namespace higgins::client_internal {

// Sans-I/O builders of request Messages (docs/protocol.md, "Operations"). The correlation id is
// left to the dispatcher. Names and keys are copied as given; the broker validates them.

higgins::wire::Message PingRequest(std::string_view data);
higgins::wire::Message CreateConfigurationRequest(std::string_view toml);
higgins::wire::Message DeleteConfigurationRequest(std::string_view key);
higgins::wire::Message GetTopographyRequest();
higgins::wire::Message UploadModuleRequest(std::string_view name, std::span<const uint8_t> wasm);
higgins::wire::Message MetadataRequest(std::string_view stream);
/// `payload` is moved into the message.
higgins::wire::Message ProduceRequest(std::string_view stream, std::string payload,
                                      higgins::wire::PayloadFormat format,
                                      const CallOptions& options = {});

/// One query of a GETINDEXREQUEST. The partition key is sent in the prototype's form
/// (protocol::EncodePartitionName), which every broker version accepts.
struct IndexQuery {
  higgins::wire::Index::Type type = higgins::wire::Index::LATEST;
  std::optional<uint64_t> index;      // OFFSET, RANGE: the (first) offset
  std::optional<uint64_t> end;        // RANGE: the exclusive end
  std::optional<uint64_t> timestamp;  // TIMESTAMP: ms since the Unix epoch
};
higgins::wire::Message QueryRequest(std::string_view stream, std::string_view partition_key,
                                    const IndexQuery& query, const CallOptions& options = {});

/// Subscription requests (docs/protocol.md, "Subscriptions"). `subscription_id` is the 16-byte
/// wire form (SubscriptionId::bytes); partition keys go in the prototype's form, as in queries.
/// A zero `timeout_ms` is left out (the broker's default). AckRange ends are exclusive and the
/// wire's are inclusive, so each range is sent as {start, end - 1}: an empty range (end <= start)
/// cannot be sent and is InvalidArgument, naming it.
higgins::wire::Message CreateSubscriptionRequest(std::string_view stream,
                                                 const SubscriptionStart& start,
                                                 uint64_t timeout_ms);
higgins::wire::Message TakeRecordsRequest(std::string_view subscription_id, uint64_t n,
                                          std::string_view stream);
Result<higgins::wire::Message> AcknowledgeRequest(std::string_view subscription_id,
                                                  std::span<const AckRange> ranges,
                                                  std::string_view stream);
/// One subscription (`stream` empty or the subscription's).
higgins::wire::Message GetSubscriptionRequest(const SubscriptionId& id, std::string_view stream);
/// The listing of `stream`'s subscriptions (every stream's when `stream` is empty): a get
/// request without an id.
higgins::wire::Message ListSubscriptionsRequest(std::string_view stream);
higgins::wire::Message DeleteSubscriptionRequest(const SubscriptionId& id, std::string_view stream);

/// What a request is called in error messages for people: "the produce request", "the query",
/// "the ping", ...
std::string RequestName(higgins::wire::Message::Type type);

/// `batches` as one Arrow IPC stream with the first batch's schema. Errors: InvalidArgument when
/// there is no batch or a batch's fields differ from the first's (naming the batch); the
/// writer's errors otherwise.
Result<std::string> EncodeBatches(std::span<const arrow::RecordBatch> batches);

}  // namespace higgins::client_internal
