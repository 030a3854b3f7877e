#pragma once

// Text forms of subscription values for the subscribe and subscriptions commands. Pure.

#include <string>
#include <string_view>
#include <vector>

#include "higgins/client_types.h"
#include "higgins/result.h"

namespace higgins::cli {

/// Parses `subscribe --from`: `beginning`, `current`, `offset:N` (a decimal offset) or `time:T`
/// (T as query --at-time takes it: ms since the Unix epoch or ISO 8601). Errors:
/// InvalidArgument naming the text and the accepted forms, or the time's own error.
Result<SubscriptionStart> ParseSubscriptionStart(std::string_view text);

/// `beginning`, `current`, `offset` or `time`.
std::string StartKindName(SubscriptionStart::Kind kind);

/// `beginning`, `current`, `offset 42` or `time 2026-11-29T12:00:00.000Z`.
std::string DescribeStart(const SubscriptionStart& start);

/// The `subscriptions` table: id, stream, start, timeout_ms, consumers, unacknowledged,
/// pending, durable; one row per subscription.
std::string SubscriptionsTable(const std::vector<SubscriptionInfo>& subscriptions);

/// What `subscription ID` prints: its SubscriptionsTable row, then a table of its partitions
/// (partition, watermark, records, next_offset, unacknowledged, acknowledged_above; a note when
/// the broker listed only some), then a table of its consumers (consumer, demand, in_flight),
/// separated by blank lines.
std::string SubscriptionDetails(const SubscriptionInfo& subscription);

}  // namespace higgins::cli
