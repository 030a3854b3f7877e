#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client/delivery_queue.h"
#include "higgins.pb.h"
#include "higgins/client_types.h"
#include "higgins/result.h"

namespace higgins::client_internal {

// Sans-I/O decoding of the subscription replies and pushes (docs/protocol.md, "Subscriptions"),
// with the conventions of reply_decoder.h: ERROR messages and operation errors become their
// Status, a reply of another type or bytes that fail structural checks (a subscription id that
// is not 16 bytes, a bad partition key, Arrow data) are Corruption. Subscription ids come out
// as UUID text, partition keys unpadded.

/// CREATESUBSCRIPTIONRESPONSE: the new subscription's id.
Result<std::string> DecodeCreateSubscription(const higgins::wire::Message& reply);
/// TAKERECORDSRESPONSE answering a take (push = false): the connection's demand after it.
Result<uint64_t> DecodeTake(const higgins::wire::Message& reply);
/// ACKNOWLEDGERESPONSE: OK, or the broker's `error` under its `code`; failed ranges the text
/// does not explain are listed as "partition 'k': [start, end)" (converted from the wire's
/// inclusive ends).
Status DecodeAcknowledge(const higgins::wire::Message& reply);
/// GETSUBSCRIPTIONRESPONSE to a request naming one subscription: its summary, partitions and
/// consumers.
Result<SubscriptionInfo> DecodeSubscription(const higgins::wire::Message& reply);
/// GETSUBSCRIPTIONRESPONSE to a listing (empty subscription_id): the summaries.
Result<std::vector<SubscriptionInfo>> DecodeSubscriptionList(const higgins::wire::Message& reply);
/// One pushed record: its subscription id as text and its records, decoded like a query's
/// (Records::redelivered set from the push).
Result<Delivery> DecodeDelivery(PushedRecord pushed);

}  // namespace higgins::client_internal
