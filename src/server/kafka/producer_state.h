#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "kafka/errors.h"
#include "server/kafka/producer_ids.h"

namespace higgins::server::kafka {

/// What an idempotent producer stamps on a record batch (KIP-98): its producer id and epoch,
/// and the sequence numbers of the batch's first and last record. Sequences count records per
/// producer and partition from 0 and wrap from 2^31 - 1 to 0.
struct ProducerBatch {
  int64_t producer_id = -1;
  int16_t epoch = -1;
  int32_t first_sequence = -1;
  int32_t last_sequence = -1;

  /// The batch whose first record has `base_sequence` and which holds `records` records.
  static ProducerBatch Of(int64_t producer_id, int16_t epoch, int32_t base_sequence,
                          int32_t records);
};

/// The sequence state of idempotent producers (docs/kafka.md, "Idempotent producers"), per
/// producer and partition: the last five batches appended with the offsets they got, and the
/// batches being appended now. Sans I/O (time is passed in); thread-safe.
///
/// A batch is, in this order:
///  - a duplicate of one of the last five appended: answered with its offset, not appended;
///  - a duplicate of one being appended (a client that retried on a new connection while the
///    first attempt was still being committed): answered with the first attempt's outcome;
///  - the next in sequence (its first sequence follows the last one taken, or is 0 for a
///    producer new to the partition or with a newer epoch): appended;
///  - otherwise refused: OUT_OF_ORDER_SEQUENCE_NUMBER (45); INVALID_PRODUCER_EPOCH (47) for
///    an older epoch; UNKNOWN_PRODUCER_ID (59) for a producer id this broker process did not
///    give out and has no state for, whose first batch does not start at 0 (its state was lost
///    with an earlier process).
/// The state lives in memory: a restarted broker starts empty (docs/kafka.md says what that
/// means for retries in flight across a restart).
class ProducerStateTable {
 public:
  using Clock = std::chrono::steady_clock;
  /// How a batch that waited on an identical one ends: the error (kNone on success) and the
  /// base offset the first attempt got.
  using Waiter = std::function<void(higgins::kafka::ErrorCode, int64_t base_offset)>;

  struct Options {
    /// Producer and partition pairs kept; past it the least recently used is forgotten.
    size_t max_entries = 100'000;
    /// A pair unused this long is forgotten (Kafka's producer.id.expiration.ms default: 1 day).
    std::chrono::milliseconds expiry = std::chrono::hours(24);
  };

  enum class Verdict {
    kAppend,     // append the batch, then call Finish
    kDuplicate,  // answer `base_offset`; nothing to append
    kWaiting,    // identical to a batch being appended: `waiter` runs when it finishes
    kRefused,    // answer `error`
  };
  struct Decision {
    Verdict verdict = Verdict::kRefused;
    higgins::kafka::ErrorCode error = higgins::kafka::ErrorCode::kNone;
    int64_t base_offset = -1;
  };

  /// This process gives out the producer ids of `ids` (ClaimProducerIds); those below were
  /// given out by earlier broker processes.
  ProducerStateTable(Options options, ProducerIdRange ids)
      : options_(options),
        first_producer_id_(ids.first),
        end_producer_id_(ids.end),
        next_producer_id_(ids.first) {}

  /// A producer id never given out before (InitProducerId), or -1 once the range is used up.
  int64_t NewProducerId();

  /// Decides what to do with `batch` on `partition` (any string naming a stream's partition).
  /// `waiter` is kept only for kWaiting.
  Decision Begin(const std::string& partition, const ProducerBatch& batch, Clock::time_point now,
                 Waiter waiter);
  /// Ends an append that Begin answered kAppend: its base offset on success, or the error
  /// the producer was answered. Returns the waiters of identical batches, for the caller to run
  /// with the same `error` and `base_offset`.
  std::vector<Waiter> Finish(const std::string& partition, const ProducerBatch& batch,
                             higgins::kafka::ErrorCode error, int64_t base_offset);

  /// Forgets pairs unused for `expiry` that have no batch being appended.
  void Expire(Clock::time_point now);
  size_t size() const;

 private:
  struct Appended {
    int32_t first_sequence;
    int32_t last_sequence;
    int64_t base_offset;
  };
  struct InFlight {
    int32_t first_sequence;
    int32_t last_sequence;
    std::vector<Waiter> waiters;
  };
  struct Entry {
    int16_t epoch = 0;
    std::deque<Appended> appended;  // oldest first, at most kCached
    std::deque<InFlight> in_flight;
    Clock::time_point used;
  };
  using Key = std::pair<int64_t, std::string>;  // producer id, partition
  static constexpr size_t kCached = 5;          // as Kafka brokers keep

  /// The sequence after the last one taken (appended or being appended); -1 for none.
  static int64_t NextSequence(const Entry& entry);
  void EvictOldest();

  const Options options_;
  const int64_t first_producer_id_;
  const int64_t end_producer_id_;
  mutable std::mutex mu_;
  int64_t next_producer_id_;
  std::map<Key, Entry> entries_;
};

}  // namespace higgins::server::kafka
