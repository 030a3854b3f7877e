#include "subscription_text.h"

#include <charconv>

#include "output_format.h"
#include "time_text.h"

namespace higgins::cli {

Result<SubscriptionStart> ParseSubscriptionStart(std::string_view text) {
  if (text == "beginning") return SubscriptionStart::Beginning();
  if (text == "current") return SubscriptionStart::Current();
  if (text.starts_with("offset:")) {
    const std::string_view digits = text.substr(7);
    uint64_t offset = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), offset);
    if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size()) {
      return SubscriptionStart::Offset(offset);
    }
    return Status::InvalidArgument("'" + std::string(text) +
                                   "': the offset must be a decimal integer below 2^64");
  }
  if (text.starts_with("time:")) {
    HIGGINS_ASSIGN_OR_RETURN(uint64_t ms, ParseTimeArgument(text.substr(5)));
    return SubscriptionStart::Timestamp(ms);
  }
  return Status::InvalidArgument("'" + std::string(text) +
                                 "' is not a start: expected beginning, current, offset:N or "
                                 "time:T (ms since the Unix epoch or ISO 8601)");
}

std::string StartKindName(SubscriptionStart::Kind kind) {
  switch (kind) {
    case SubscriptionStart::Kind::kBeginning: return "beginning";
    case SubscriptionStart::Kind::kCurrent: return "current";
    case SubscriptionStart::Kind::kOffset: return "offset";
    case SubscriptionStart::Kind::kTimestamp: return "time";
  }
  return "unknown";
}

std::string DescribeStart(const SubscriptionStart& start) {
  switch (start.kind) {
    case SubscriptionStart::Kind::kOffset: return "offset " + std::to_string(start.value);
    case SubscriptionStart::Kind::kTimestamp: return "time " + FormatTimestampMs(start.value);
    default: return StartKindName(start.kind);
  }
}

std::string SubscriptionsTable(const std::vector<SubscriptionInfo>& subscriptions) {
  TextTable table(
      {"id", "stream", "start", "timeout_ms", "consumers", "unacknowledged", "pending", "durable"});
  for (const SubscriptionInfo& s : subscriptions) {
    table.AddRow({s.id, TableText(s.stream), StartKindName(s.start),
                  std::to_string(s.visibility_timeout_ms), std::to_string(s.consumers),
                  std::to_string(s.unacknowledged), std::to_string(s.pending),
                  s.durable ? "true" : "false"});
  }
  return table.Render();
}

std::string SubscriptionDetails(const SubscriptionInfo& subscription) {
  std::string out = SubscriptionsTable({subscription}) + "\n";
  TextTable partitions(
      {"partition", "watermark", "records", "next_offset", "unacknowledged", "acknowledged_above"});
  for (const SubscriptionPartition& p : subscription.partitions) {
    partitions.AddRow({TableText(p.key), std::to_string(p.watermark), std::to_string(p.count),
                       std::to_string(p.next_offset), std::to_string(p.unacknowledged),
                       std::to_string(p.acknowledged_above)});
  }
  out += partitions.Render();
  if (subscription.partitions_truncated) {
    out += "(the broker listed the first " + std::to_string(subscription.partitions.size()) +
           " partitions)\n";
  }
  out += "\n";
  TextTable consumers({"consumer", "demand", "in_flight"});
  for (const SubscriptionConsumer& c : subscription.consumer_list) {
    consumers.AddRow({std::to_string(c.id), std::to_string(c.demand), std::to_string(c.in_flight)});
  }
  return out + consumers.Render();
}

}  // namespace higgins::cli
