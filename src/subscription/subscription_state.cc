#include "subscription/subscription_state.h"

#include <algorithm>

#include "common/quote.h"

namespace higgins::subscription {
namespace {

/// Removes [start, end) from a set of disjoint intervals.
void Subtract(std::map<uint64_t, uint64_t>& set, uint64_t start, uint64_t end) {
  auto it = set.upper_bound(start);
  if (it != set.begin()) --it;
  while (it != set.end() && it->first < end) {
    const uint64_t a = it->first;
    const uint64_t b = it->second;
    if (b <= start) {
      ++it;
      continue;
    }
    it = set.erase(it);
    if (a < start) set.emplace(a, start);
    if (b > end) {
      set.emplace(end, b);
      break;
    }
  }
}

}  // namespace

void SubscriptionState::AddInterval(Intervals& set, uint64_t start, uint64_t end) {
  if (start >= end) return;
  auto it = set.upper_bound(start);
  if (it != set.begin()) {
    auto prev = std::prev(it);
    if (prev->second >= start) {
      start = prev->first;
      end = std::max(end, prev->second);
      set.erase(prev);
    }
  }
  it = set.lower_bound(start);
  while (it != set.end() && it->first <= end) {
    end = std::max(end, it->second);
    it = set.erase(it);
  }
  set.emplace(start, end);
}

uint64_t SubscriptionState::Covered(const Intervals& set) {
  uint64_t total = 0;
  for (const auto& [a, b] : set) total += b - a;
  return total;
}

bool SubscriptionState::HasPartition(std::string_view key) const {
  return partitions_.find(key) != partitions_.end();
}

void SubscriptionState::AddPartition(std::string_view key, uint64_t start) {
  if (HasPartition(key)) return;
  Partition p;
  p.start = p.watermark = p.next = p.count = start;
  partitions_.emplace(std::string(key), std::move(p));
}

void SubscriptionState::NoteAvailable(std::string_view key, uint64_t count) {
  auto it = partitions_.find(key);
  if (it == partitions_.end()) return;
  Partition& p = it->second;
  if (count <= p.count) return;
  p.count = count;
  Enqueue(it->first, p);
}

void SubscriptionState::RestoreAcknowledged(std::string_view key, uint64_t start, uint64_t end) {
  auto it = partitions_.find(key);
  if (it == partitions_.end()) return;
  Partition& p = it->second;
  AddInterval(p.acknowledged, std::max(start, p.watermark), end);
  AdvanceWatermark(p);
  p.next = p.watermark;
}

void SubscriptionState::AdvanceWatermark(Partition& p) {
  while (!p.acknowledged.empty() && p.acknowledged.begin()->first <= p.watermark) {
    p.watermark = std::max(p.watermark, p.acknowledged.begin()->second);
    p.acknowledged.erase(p.acknowledged.begin());
  }
  // After a restart acknowledged ranges lie above `next`: the watermark may pass it.
  p.next = std::max(p.next, p.watermark);
}

void SubscriptionState::FinishRestore() {
  for (auto& [key, p] : partitions_) p.restored_count = p.count;
}

void SubscriptionState::SkipAcknowledged(Partition& p) {
  auto it = p.acknowledged.upper_bound(p.next);
  if (it == p.acknowledged.begin()) return;
  --it;
  if (it->second > p.next) p.next = it->second;
}

bool SubscriptionState::Ready(const Partition& p) const {
  if (!p.redeliver.empty()) return true;
  if (p.next >= p.count) return false;
  // Records from `next` on, unless acknowledged ranges (after a restart) cover them all.
  uint64_t at = p.next;
  auto it = p.acknowledged.upper_bound(at);
  if (it != p.acknowledged.begin()) {
    auto prev = std::prev(it);
    if (prev->second > at) at = prev->second;
  }
  return at < p.count;
}

void SubscriptionState::Enqueue(const std::string& key, Partition& p) {
  if (p.queued || !Ready(p)) return;
  p.queued = true;
  ready_.push_back(key);
}

bool SubscriptionState::CanGrant() const {
  if (ready_.empty()) return false;
  for (const auto& [id, c] : consumers_) {
    if (c.demand > 0) return true;
  }
  return false;
}

uint64_t SubscriptionState::Take(ConsumerId consumer, uint64_t n, uint64_t max_demand) {
  Consumer& c = consumers_[consumer];
  c.demand = (n >= max_demand || c.demand >= max_demand - n) ? max_demand : c.demand + n;
  return c.demand;
}

void SubscriptionState::RemoveConsumer(ConsumerId consumer) {
  if (consumers_.erase(consumer) == 0) return;
  for (auto& [key, p] : partitions_) {
    bool gave_back = false;
    for (auto it = p.in_flight.begin(); it != p.in_flight.end();) {
      if (it->second.consumer != consumer) {
        ++it;
        continue;
      }
      AddInterval(p.redeliver, it->first, it->second.end);
      it = p.in_flight.erase(it);
      gave_back = true;
    }
    if (gave_back) Enqueue(key, p);
  }
}

std::optional<Grant> SubscriptionState::NextGrant(Clock::time_point now, uint64_t max_records,
                                                  const std::function<bool(ConsumerId)>& eligible) {
  if (ready_.empty() || consumers_.empty() || max_records == 0) return std::nullopt;
  // The next consumer with demand after the one served last, in id order, wrapping around.
  auto usable = [&](const auto& it) {
    return it->second.demand > 0 && (!eligible || eligible(it->first));
  };
  auto chosen = consumers_.end();
  for (auto it = consumers_.upper_bound(last_consumer_); it != consumers_.end(); ++it) {
    if (usable(it)) {
      chosen = it;
      break;
    }
  }
  if (chosen == consumers_.end()) {
    for (auto it = consumers_.begin(); it != consumers_.end(); ++it) {
      if (usable(it)) {
        chosen = it;
        break;
      }
    }
  }
  if (chosen == consumers_.end()) return std::nullopt;
  Consumer& consumer = chosen->second;
  const uint64_t limit = std::min(consumer.demand, max_records);

  while (!ready_.empty()) {
    const std::string key = std::move(ready_.front());
    ready_.pop_front();
    auto pit = partitions_.find(key);
    if (pit == partitions_.end()) continue;
    Partition& p = pit->second;
    p.queued = false;
    if (!Ready(p)) continue;

    Grant grant;
    grant.consumer = chosen->first;
    grant.key = key;
    if (!p.redeliver.empty()) {
      const auto [a, b] = *p.redeliver.begin();
      grant.start = a;
      grant.end = std::min(b, a + limit);
      grant.redelivered = true;
      Subtract(p.redeliver, grant.start, grant.end);
    } else {
      SkipAcknowledged(p);
      uint64_t bound = p.count;
      auto acked = p.acknowledged.upper_bound(p.next);
      if (acked != p.acknowledged.end()) bound = std::min(bound, acked->first);
      grant.start = p.next;
      grant.end = std::min(bound, p.next + limit);
      p.next = grant.end;
    }
    const Clock::time_point deadline = now + timeout_;
    p.in_flight[grant.start] = InFlight{grant.end, grant.consumer, deadline};
    deadlines_.emplace(deadline, std::make_pair(key, grant.start));
    const uint64_t n = grant.end - grant.start;
    consumer.demand -= n;
    consumer.in_flight += n;
    last_consumer_ = grant.consumer;
    Enqueue(pit->first, p);
    return grant;
  }
  return std::nullopt;
}

void SubscriptionState::Remove(Partition& p, const std::string& key, uint64_t start, uint64_t end) {
  Subtract(p.redeliver, start, end);
  auto it = p.in_flight.upper_bound(start);
  if (it != p.in_flight.begin()) --it;
  while (it != p.in_flight.end() && it->first < end) {
    const uint64_t a = it->first;
    const InFlight f = it->second;
    if (f.end <= start) {
      ++it;
      continue;
    }
    const uint64_t overlap = std::min(f.end, end) - std::max(a, start);
    auto c = consumers_.find(f.consumer);
    if (c != consumers_.end()) c->second.in_flight -= std::min(c->second.in_flight, overlap);
    it = p.in_flight.erase(it);
    if (a < start) p.in_flight.emplace(a, InFlight{start, f.consumer, f.deadline});
    if (f.end > end) {
      p.in_flight.emplace(end, InFlight{f.end, f.consumer, f.deadline});
      deadlines_.emplace(f.deadline, std::make_pair(key, end));
      break;
    }
  }
}

Status SubscriptionState::Acknowledge(const std::vector<OffsetRange>& ranges,
                                      std::vector<OffsetRange>* failed) {
  std::string errors;
  for (const OffsetRange& r : ranges) {
    std::string why;
    auto it = partitions_.find(r.key);
    if (r.end <= r.start) {
      why = "the range is empty";
    } else if (it == partitions_.end()) {
      why = "nothing of this partition was pushed";
    } else if (r.end > std::max(it->second.next, it->second.restored_count)) {
      const uint64_t limit = std::max(it->second.next, it->second.restored_count);
      why = "offsets from " + std::to_string(std::max(r.start, limit)) +
            " were never pushed (the next offset to push is " + std::to_string(it->second.next) +
            ")";
    }
    if (why.empty()) continue;
    if (failed) failed->push_back(r);
    if (!errors.empty()) errors += "\n";
    errors += "partition " + Quote(r.key) + " offsets " + std::to_string(r.start) + " to " +
              (r.end > r.start ? std::to_string(r.end - 1) : std::string("(none)")) + ": " + why;
  }
  if (!errors.empty()) return Status::InvalidArgument(errors);
  for (const OffsetRange& r : ranges) {
    auto it = partitions_.find(r.key);
    Partition& p = it->second;
    const uint64_t start = std::max(r.start, p.watermark);
    if (start >= r.end) continue;
    Remove(p, it->first, start, r.end);
    AddInterval(p.acknowledged, start, r.end);
    AdvanceWatermark(p);
  }
  return Status::OK();
}

std::optional<SubscriptionState::Clock::time_point> SubscriptionState::Expire(
    Clock::time_point now) {
  while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
    auto node = deadlines_.extract(deadlines_.begin());
    const auto& [key, start] = node.mapped();
    auto pit = partitions_.find(key);
    if (pit == partitions_.end()) continue;
    Partition& p = pit->second;
    auto it = p.in_flight.find(start);
    if (it == p.in_flight.end() || it->second.deadline != node.key()) continue;
    auto c = consumers_.find(it->second.consumer);
    const uint64_t n = it->second.end - start;
    if (c != consumers_.end()) c->second.in_flight -= std::min(c->second.in_flight, n);
    AddInterval(p.redeliver, start, it->second.end);
    p.in_flight.erase(it);
    Enqueue(pit->first, p);
  }
  if (deadlines_.empty()) return std::nullopt;
  return deadlines_.begin()->first;
}

std::vector<SubscriptionState::PartitionStats> SubscriptionState::Partitions(size_t limit) const {
  std::vector<PartitionStats> out;
  for (const auto& [key, p] : partitions_) {
    if (out.size() >= limit) break;
    PartitionStats s;
    s.key = key;
    s.start = p.start;
    s.watermark = p.watermark;
    s.count = p.count;
    s.next = p.next;
    for (const auto& [a, f] : p.in_flight) s.unacknowledged += f.end - a;
    s.unacknowledged += Covered(p.redeliver);
    for (const auto& [a, b] : p.acknowledged) {
      if (a < p.next) s.acknowledged_above += std::min(b, p.next) - a;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<SubscriptionState::ConsumerStats> SubscriptionState::Consumers() const {
  std::vector<ConsumerStats> out;
  for (const auto& [id, c] : consumers_) out.push_back({id, c.demand, c.in_flight});
  return out;
}

uint64_t SubscriptionState::Unacknowledged() const {
  uint64_t total = 0;
  for (const auto& [key, p] : partitions_) {
    for (const auto& [a, f] : p.in_flight) total += f.end - a;
    total += Covered(p.redeliver);
  }
  return total;
}

uint64_t SubscriptionState::Pending() const {
  uint64_t total = 0;
  for (const auto& [key, p] : partitions_) {
    if (p.count <= p.next) continue;
    uint64_t n = p.count - p.next;
    for (const auto& [a, b] : p.acknowledged) {
      const uint64_t lo = std::max(a, p.next);
      const uint64_t hi = std::min(b, p.count);
      if (hi > lo) n -= hi - lo;
    }
    total += n;
  }
  return total;
}

std::vector<SubscriptionState::AckState> SubscriptionState::Snapshot() const {
  std::vector<AckState> out;
  out.reserve(partitions_.size());
  for (const auto& [key, p] : partitions_) {
    AckState s;
    s.key = key;
    s.watermark = p.watermark;
    s.acknowledged.assign(p.acknowledged.begin(), p.acknowledged.end());
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace higgins::subscription
