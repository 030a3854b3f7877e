#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "derived/derived_processor.h"
#include "derived/join_intent.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"
#include "stream/stream_log.h"

namespace higgins::derived {

/// The wait id of a join's progress on one participant: "<join>\x1f<participant index>" (stream
/// names hold no 0x1f), used with DerivedEngine::Notify and Watch.
std::string JoinProgressId(std::string_view join, size_t participant);

/// Keeps one join stream in sync with its participants (docs/architecture.md, "Derived streams"):
/// every committed record of any participant for partition key k appends one joined record at (k,
/// next offset), built through the map from the latest record of each participant for k (null
/// fields for a participant with none yet). Participants are matched by partition-key value.
///
/// Order: a step reads every participant bucket from its cursor to an end, orders the records
/// read by commit timestamp (ties: participant order, then bucket and sequence) and joins them
/// in that order. Joined records carry their input record's timestamp, raised to the previous
/// joined record's so that timestamps never decrease.
///
/// Progress: a joined partition's count says how many of its input events were joined, not
/// which, so a step first appends its input range (JoinIntent: from and to per participant
/// bucket) to the intent log and syncs it, then commits its joined records with one sync.
/// At start the last intent is redone exactly: each event's joined offset is known (the key's
/// records below `from` on every participant, plus its rank in the step), and offsets the join
/// stream already holds are skipped. After `kill -9` the join resumes with no gap and no
/// duplicate. On storage that is not durable there is no intent log (nothing survives).
///
/// Thread-safety: Step runs on one thread at a time; Processed may be called from any thread.
class JoinStream : public DerivedProcessor {
 public:
  struct Source {
    size_t participant = 0;
    int field = 0;  // in the participant's schema
  };
  struct Options {
    /// The base first, then the join streams, without repeats.
    std::vector<std::shared_ptr<stream::StreamLog>> participants;
    std::shared_ptr<stream::StreamLog> derived;
    /// One per field of the derived schema; the partition-key field is filled from the key
    /// column of the record being joined.
    std::vector<Source> sources;
    /// Null when the derived stream is not durable.
    std::unique_ptr<JoinIntentLog> intents;
    /// Called after each commit with the keys whose joined records advanced, per participant
    /// that contributed (`keys[p]`).
    std::function<void(size_t participant, std::span<const std::string> keys)> on_progress;
    /// Most entries read from one participant bucket per step.
    size_t max_entries_per_bucket = 256;
    /// A step stops adding entries once it holds this many records (at least one entry).
    int64_t max_rows_per_step = 65'536;
  };

  /// Reads the last intent. Errors: Corruption when it does not fit the participants' buckets.
  static Result<std::unique_ptr<JoinStream>> Start(Options options);

  Result<bool> Step(udf::Sandbox* sandbox, int max_calls) override;
  const std::string& name() const override { return options_.derived->name(); }
  uint64_t processed() const override { return processed_; }
  uint64_t failed() const override { return 0; }

  /// Records of participant `participant` for `key` that are joined and committed (for
  /// read-your-writes waits).
  uint64_t Processed(size_t participant, std::string_view key) const;

 private:
  explicit JoinStream(Options options);
  /// Drops cached state and goes back to the committed cursors (and the last intent, when it
  /// starts there): at start and after a failed step.
  void Resync();
  Result<bool> StepOnce(bool* worked);

  /// A participant's latest record for a key: row `row` of a batch shared with the other rows
  /// read from the same entry (no copy per record); null when there is none yet.
  struct Latest {
    std::shared_ptr<const arrow::RecordBatch> batch;
    int64_t row = 0;
  };
  struct KeyState {
    std::vector<Latest> latest;  // per participant
    uint64_t next = 0;           // joined offset of the key's next event
    uint64_t done = 0;           // joined records committed
    uint64_t pending = 0;        // joined records in the step being built
  };
  /// The key's state at the step's start cursors, loaded from the streams when not cached.
  Result<KeyState*> State(const std::string& key);
  size_t Slot(size_t participant, BucketId bucket) const {
    return first_[participant] + bucket.value();
  }

  static constexpr size_t kMaxCachedStates = 100'000;

  Options options_;
  std::vector<size_t> first_;  // per participant: its first slot in the cursor arrays
  size_t slots_ = 0;
  std::vector<Sequence> cursor_;  // per participant bucket: next sequence to read
  std::unique_ptr<std::atomic<Sequence>[]> committed_;  // cursors of the last commit
  std::optional<std::vector<Sequence>> redo_;           // the end of the step to redo first
  std::unordered_map<std::string, KeyState> states_;
  int64_t last_timestamp_ms_ = 0;
  std::atomic<uint64_t> processed_{0};
};

}  // namespace higgins::derived
