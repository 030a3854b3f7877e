#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/configuration.h"
#include "derived/derived_processor.h"
#include "derived/module_registry.h"
#include "higgins/arrow/record_batch.h"
#include "higgins/result.h"
#include "stream/stream_log.h"
#include "udf/engine.h"

namespace higgins::derived {

/// The schema of every errors stream (`<derived>/errors`): one record per base record whose
/// UDF call failed, keyed by the base record's partition key (as text).
arrow::SchemaPtr ErrorsStreamSchema();
/// "<derived>/errors".
std::string ErrorsStreamName(std::string_view derived);

/// Keeps one map or reduce stream in sync with its base (docs/architecture.md, "Derived streams"),
/// one step at a time on a worker's Sandbox.
///
/// Progress: derived record (k, o) is made from base record (k, o), so a derived partition's
/// record count *is* its checkpoint, and it is durable exactly when the derived records are.
/// At start the processor reads, per base bucket, the lowest bucket sequence holding a base
/// record not yet derived; it reads base entries from there in sequence order and skips rows
/// whose offset is below the derived partition's count. After `kill -9` it therefore resumes
/// with no gap and no duplicate offset.
///
/// Batching: when behind, one call takes up to Options::max_entries_per_call consecutive base
/// entries of a bucket (one derived entry each, with the base entry's timestamp, committed with
/// one sync).
///
/// Failures (docs/udf-abi.md, "Failures and versions"): when a call over several gathered base
/// entries fails, nothing of it is kept and the entries are processed one by one. A call over
/// one entry that traps, times out or returns an invalid result is retried by bisection within
/// a budget; each record that still fails gets an errors-stream record, and its derived slot is
/// filled so offsets stay aligned: for map, a record holding the partition key with every other
/// field null; for reduce, the previous derived record unchanged (the failed record contributes
/// nothing).
///
/// Thread-safety: Step must not run on two threads at once (the engine guarantees it).
class DerivedStream : public DerivedProcessor {
 public:
  struct Options {
    config::StreamKind kind = config::StreamKind::kMap;  // kMap or kReduce
    std::string fn;
    std::shared_ptr<stream::StreamLog> base;
    std::shared_ptr<stream::StreamLog> derived;
    std::shared_ptr<stream::StreamLog> errors;
    const ModuleRegistry* modules = nullptr;
    udf::CallLimits limits;
    /// Most base rows passed to one call (an entry larger than this is split).
    int64_t max_rows_per_call = 4096;
    /// Most base entries gathered into one call and one derived commit (one fsync), so small
    /// produces are derived in batches when the processor is behind.
    size_t max_entries_per_call = 256;
  };

  /// Reads the starting position from both streams' indexes.
  static std::unique_ptr<DerivedStream> Start(Options options);

  /// Processes up to `max_calls` chunks of base rows. Returns whether visible base rows remain
  /// unprocessed. Errors: storage errors of the three streams (UDF failures are not errors of
  /// Step: they are recorded as described above).
  Result<bool> Step(udf::Sandbox* sandbox, int max_calls) override;

  const std::string& name() const override { return options_.derived->name(); }
  const stream::StreamLog& base() const { return *options_.base; }
  const stream::StreamLog& derived() const { return *options_.derived; }
  /// Base records processed and failed since start (for logs and metadata).
  uint64_t processed() const override { return processed_; }
  uint64_t failed() const override { return failed_; }

 private:
  explicit DerivedStream(Options options)
      : options_(std::move(options)), rows_per_call_(options_.max_rows_per_call) {}

  struct Row {
    int64_t index = 0;    // in the chunk
    uint32_t key = 0;     // into keys
    uint64_t offset = 0;  // base offset
  };
  struct Failure {
    size_t row = 0;  // into rows
    Status status;
  };
  /// The rows of one base entry within a chunk: derived from them, they are committed as one
  /// derived entry with the base entry's timestamp.
  struct Segment {
    size_t rows_end = 0;  // rows [previous segment's rows_end, rows_end) of Chunk::rows
    int64_t timestamp_ms = 0;
  };
  struct Chunk {
    arrow::RecordBatch batch;  // base rows: consecutive slices of one bucket's entries
    std::vector<std::string> keys;
    std::vector<Row> rows;  // the rows to derive, in order
    std::vector<Segment> segments;
  };

  /// Recomputes the read position from both streams' indexes and drops cached state: at start,
  /// and after a failed step (so a half-done chunk is redone from what was committed).
  void Resync();
  Result<bool> StepChunks(udf::Sandbox* sandbox, int max_calls);
  /// Derives and commits the chunk. Returns false, committing nothing, when the chunk gathered
  /// several base entries and a call failed (then Step processes them one entry per chunk,
  /// each with its own retry budget, so that good records never fail with bad ones).
  Result<bool> ProcessChunk(udf::Sandbox* sandbox, Chunk& chunk);
  /// One result row per chunk row (1-row batches), failures listed.
  Status MapRows(udf::Sandbox* sandbox, const ModuleVersion* module, const Chunk& chunk,
                 std::vector<arrow::RecordBatch>* out, std::vector<Failure>* failures);
  Status ReduceRows(udf::Sandbox* sandbox, const ModuleVersion* module, const Chunk& chunk,
                    std::vector<arrow::RecordBatch>* out, std::vector<Failure>* failures);
  /// Calls the module on `inputs` and checks the result: one row per input row, the derived
  /// schema, partition keys equal to `keys`. Fails without calling once the chunk's results
  /// passed kMaxResultBytesPerChunk; a DeadlineExceeded shrinks rows_per_call_.
  Result<arrow::RecordBatch> Call(udf::Sandbox* sandbox, const ModuleVersion& module,
                                  std::span<const arrow::RecordBatch> inputs,
                                  std::span<const std::string* const> keys);

  /// Retries a failed call of several rows by bisection, within a budget per chunk.
  struct RetryBudget {
    int64_t calls_left = 0;
    std::chrono::steady_clock::time_point until;
    /// Takes one call from the budget; false when it is spent (calls or time).
    bool Take();
  };
  struct Attempted {
    std::size_t lo = 0, hi = 0;  // rows [lo, hi) of the call's input
    Result<arrow::RecordBatch> result;
  };
  using CallRows = std::function<Result<arrow::RecordBatch>(std::size_t lo, std::size_t hi)>;
  /// The budget of a chunk of `rows` records: enough calls to isolate every record (a bisection
  /// tree over n rows has 2n - 1 calls, so good records never fail because bad ones used the
  /// calls up), and at most max(2 s, 2 deadlines) of them, which bounds slow modules.
  RetryBudget NewRetryBudget(std::size_t rows) const;
  /// Calls rows [lo, hi); on failure splits them in halves while the budget lasts. Appends the
  /// attempts whose results stand to `out`, in row order, covering [lo, hi) once.
  void Attempt(std::size_t lo, std::size_t hi, const CallRows& call, RetryBudget* budget,
               std::vector<Attempted>* out);
  /// Rows [0, n) of `chunk` through `call`, results appended to `out`: for a chunk of one base
  /// entry, Attempt with `budget`; for several gathered entries, one call, and on its failure
  /// false with split_ set (nothing is kept; ProcessChunk returns false).
  bool AttemptChunk(const Chunk& chunk, std::size_t n, const CallRows& call, RetryBudget* budget,
                    std::vector<Attempted>* out);
  Result<arrow::RecordBatch> LastDerived(const std::string& key);
  Status WriteErrors(const Chunk& chunk, const std::vector<Failure>& failures,
                     const ModuleVersion* module);

  static constexpr size_t kMaxCachedStates = 100'000;
  /// Results one chunk may hold before the rest of its records fail (ResourceExhausted).
  static constexpr size_t kMaxResultBytesPerChunk = size_t{256} << 20;
  /// Retry calls per chunk after a failure: at least this many, else 2 per record of the chunk.
  static constexpr int64_t kMinRetryCallsPerChunk = 64;
  /// How long one Step keeps a worker before other streams get a turn (checked per chunk).
  static constexpr std::chrono::milliseconds kTurn{50};

  Options options_;
  PerBucket<Sequence> cursor_;  // per base bucket: next sequence to read
  /// Per base bucket: below this sequence, chunks take one entry (a gathered chunk failed).
  PerBucket<Sequence> single_until_;
  bool split_ = false;  // set by MapRows/ReduceRows: the gathered chunk must be split
  std::unordered_map<std::string, uint64_t> next_offset_;     // base offset of the key's next row
  std::unordered_map<std::string, uint64_t> derived_count_;   // derived records per key
  std::unordered_map<std::string, arrow::RecordBatch> last_;  // reduce: latest derived record
  int64_t rows_per_call_ = 0;  // Options::max_rows_per_call, halved by deadlines
  int clean_chunks_ = 0;
  size_t result_bytes_ = 0;  // of the chunk being processed
  std::atomic<uint64_t> processed_{0};
  std::atomic<uint64_t> failed_{0};
};

}  // namespace higgins::derived
