#include "server/kafka/producer_state.h"

#include <algorithm>
#include <limits>

namespace higgins::server::kafka {

using higgins::kafka::ErrorCode;

namespace {

constexpr int64_t kSequenceSpan = int64_t{std::numeric_limits<int32_t>::max()} + 1;

int32_t Wrap(int64_t sequence) {
  return static_cast<int32_t>(sequence % kSequenceSpan);
}

}  // namespace

ProducerBatch ProducerBatch::Of(int64_t producer_id, int16_t epoch, int32_t base_sequence,
                                int32_t records) {
  return {.producer_id = producer_id,
          .epoch = epoch,
          .first_sequence = base_sequence,
          .last_sequence = Wrap(int64_t{base_sequence} + std::max(records, 1) - 1)};
}

int64_t ProducerStateTable::NewProducerId() {
  std::lock_guard lock(mu_);
  if (next_producer_id_ >= end_producer_id_) return -1;
  return next_producer_id_++;
}

int64_t ProducerStateTable::NextSequence(const Entry& entry) {
  if (!entry.in_flight.empty()) return Wrap(int64_t{entry.in_flight.back().last_sequence} + 1);
  if (!entry.appended.empty()) return Wrap(int64_t{entry.appended.back().last_sequence} + 1);
  return -1;
}

ProducerStateTable::Decision ProducerStateTable::Begin(const std::string& partition,
                                                       const ProducerBatch& batch,
                                                       Clock::time_point now, Waiter waiter) {
  auto refuse = [](ErrorCode error) {
    return Decision{.verdict = Verdict::kRefused, .error = error};
  };
  if (batch.producer_id < 0 || batch.epoch < 0 || batch.first_sequence < 0) {
    return refuse(ErrorCode::kInvalidRecord);
  }
  std::lock_guard lock(mu_);
  const Key key{batch.producer_id, partition};
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    if (batch.first_sequence != 0) {
      // This process gave the id out and has seen nothing of it here: a gap. Otherwise the
      // producer's state went with an earlier process (or was forgotten): it must start over.
      const bool ours =
          batch.producer_id >= first_producer_id_ && batch.producer_id < next_producer_id_;
      return refuse(ours ? ErrorCode::kOutOfOrderSequenceNumber : ErrorCode::kUnknownProducerId);
    }
    if (entries_.size() >= options_.max_entries) EvictOldest();
    Entry entry;
    entry.epoch = batch.epoch;
    entry.used = now;
    entry.in_flight.push_back({batch.first_sequence, batch.last_sequence, {}});
    entries_.emplace(key, std::move(entry));
    return {.verdict = Verdict::kAppend};
  }
  Entry& entry = it->second;
  entry.used = now;
  if (batch.epoch < entry.epoch) return refuse(ErrorCode::kInvalidProducerEpoch);
  if (batch.epoch > entry.epoch) {
    // A bumped epoch starts the sequence over; what the old epoch has in flight still ends.
    if (batch.first_sequence != 0) return refuse(ErrorCode::kOutOfOrderSequenceNumber);
    if (!entry.in_flight.empty()) return refuse(ErrorCode::kRequestTimedOut);
    entry.epoch = batch.epoch;
    entry.appended.clear();
    entry.in_flight.push_back({batch.first_sequence, batch.last_sequence, {}});
    return {.verdict = Verdict::kAppend};
  }
  for (const Appended& done : entry.appended) {
    if (done.first_sequence == batch.first_sequence && done.last_sequence == batch.last_sequence) {
      return {.verdict = Verdict::kDuplicate, .base_offset = done.base_offset};
    }
  }
  for (InFlight& pending : entry.in_flight) {
    if (pending.first_sequence == batch.first_sequence &&
        pending.last_sequence == batch.last_sequence) {
      pending.waiters.push_back(std::move(waiter));
      return {.verdict = Verdict::kWaiting};
    }
  }
  const int64_t next = NextSequence(entry);
  // After a failed first batch an entry can be empty again: it then starts at 0.
  if (batch.first_sequence != (next < 0 ? 0 : next)) {
    return refuse(ErrorCode::kOutOfOrderSequenceNumber);
  }
  entry.in_flight.push_back({batch.first_sequence, batch.last_sequence, {}});
  return {.verdict = Verdict::kAppend};
}

std::vector<ProducerStateTable::Waiter> ProducerStateTable::Finish(const std::string& partition,
                                                                   const ProducerBatch& batch,
                                                                   ErrorCode error,
                                                                   int64_t base_offset) {
  std::vector<Waiter> waiters;
  std::lock_guard lock(mu_);
  auto it = entries_.find(Key{batch.producer_id, partition});
  if (it == entries_.end()) return waiters;
  Entry& entry = it->second;
  auto pending = std::find_if(entry.in_flight.begin(), entry.in_flight.end(), [&](const auto& p) {
    return p.first_sequence == batch.first_sequence && p.last_sequence == batch.last_sequence;
  });
  if (pending == entry.in_flight.end()) return waiters;
  waiters = std::move(pending->waiters);
  entry.in_flight.erase(pending);
  if (error == ErrorCode::kNone) {
    entry.appended.push_back({batch.first_sequence, batch.last_sequence, base_offset});
    if (entry.appended.size() > kCached) entry.appended.pop_front();
  }
  if (entry.appended.empty() && entry.in_flight.empty()) entries_.erase(it);
  return waiters;
}

void ProducerStateTable::Expire(Clock::time_point now) {
  std::lock_guard lock(mu_);
  std::erase_if(entries_, [&](const auto& item) {
    return item.second.in_flight.empty() && now - item.second.used >= options_.expiry;
  });
}

void ProducerStateTable::EvictOldest() {
  auto oldest = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (!it->second.in_flight.empty()) continue;
    if (oldest == entries_.end() || it->second.used < oldest->second.used) oldest = it;
  }
  if (oldest != entries_.end()) entries_.erase(oldest);
}

size_t ProducerStateTable::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace higgins::server::kafka
