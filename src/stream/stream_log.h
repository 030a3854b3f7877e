#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"
#include "higgins/result.h"
#include "storage/index_log.h"
#include "storage/storage.h"
#include "stream/entry_cache.h"
#include "stream/stream_index.h"

namespace higgins::stream {

enum class PayloadFormat { kAuto, kJson, kArrowIpc };

/// A produce payload decoded and validated against the stream's schema, ready to commit. Rows
/// keep payload order; each row's partition key is keys[key_indexes[row]].
struct PreparedProduce {
  std::vector<arrow::RecordBatch> batches;  // the payload's batches (IPC) or one batch (JSON)
  std::vector<std::string> keys;            // distinct partition keys, first-seen order
  std::vector<uint32_t> key_indexes;        // one per row, across batches
  int64_t rows = 0;
  /// Set by PrepareJson, which coalesces several requests: the row count of each, in order
  /// (SplitResult gives each its part of the commit's result). Empty for one request.
  std::vector<int64_t> request_rows;
};

/// Where each produced row went.
struct ProduceResult {
  std::vector<std::string> partitions;      // = PreparedProduce::keys
  std::vector<uint32_t> partition_indexes;  // = PreparedProduce::key_indexes
  std::vector<uint64_t> offsets;            // one per row
  int64_t timestamp_ms = 0;
};

/// The result of a coalesced commit (PreparedProduce::request_rows) cut into one result per
/// request: request i gets the next request_rows[i] rows' offsets and its own partitions, in
/// first-seen order, with indexes into them; every part keeps the commit's timestamp. The row
/// counts must add up to result.offsets.size() (InvalidArgument otherwise).
Result<std::vector<ProduceResult>> SplitResult(const ProduceResult& result,
                                               std::span<const int64_t> request_rows);

/// Entries appended by Append and not yet published: made visible by Publish after the bucket
/// logs they were written to are durable.
struct PendingEntries {
  struct Item {
    BucketId bucket;
    storage::IndexRecord record;
  };
  std::vector<Item> items;
};

/// Query results: rows of one partition at consecutive offsets.
struct QueryRows {
  arrow::RecordBatch batch;
  uint64_t first_offset = 0;
  std::vector<int64_t> timestamps_ms;  // per row
};

/// One stream: its bucket logs, its index and (for durable storage) its index files.
///
/// Thread-safety: every method may be called from any thread. Writers (Append, Publish,
/// CommitNow, FlushIndex) are serialised by a per-stream mutex; Prepare and queries run
/// concurrently with them.
class StreamLog {
 public:
  struct Options {
    std::string name;
    StreamId id;
    arrow::SchemaPtr schema;
    std::string partition_key;
    uint32_t buckets = 1;
    storage::Storage* storage = nullptr;  // outlives the StreamLog
    /// Folder for index files (created if absent); empty keeps the index in memory only (for
    /// storage that is not durable).
    std::string index_dir;
    int64_t max_records_per_request = 1'000'000;
    /// Sync bucket logs before acknowledging (the file storage's `fsync` option). Without it
    /// a produce is acknowledged once its records are written to the operating system: they
    /// survive the broker's crash, not the machine's.
    bool sync = true;
    /// Bytes of decoded entries kept for reads (EntryCache); 0 for none (memory storage
    /// already holds decoded batches).
    size_t cache_bytes = 0;
  };

  /// Opens every bucket log and rebuilds the index: from the index files, then from the bucket
  /// logs for entries the index files lack (appending those to the files). Errors: those of
  /// the storage and the index files.
  static Result<std::unique_ptr<StreamLog>> Open(Options options);
  ~StreamLog();

  /// Decodes `payload` (JSON: one object, an array or NDJSON; or an Arrow IPC stream or file)
  /// and validates every row against the schema: types, non-null fields, a valid partition key.
  /// Errors: InvalidArgument "row R, field 'F': ..." (R counts from 0 across the payload),
  /// "the payload's schema differs from the stream's: ...", "empty payload"; ResourceExhausted
  /// over max_records_per_request. Pure; thread-safe.
  Result<PreparedProduce> Prepare(std::string_view payload, PayloadFormat format) const;
  /// Prepare for the JSON payloads of several produce requests at once, coalesced into one
  /// batch (arrow::json::JsonBatchReader) so that they commit as one log entry per bucket: rows
  /// in payload order, `request_rows` holding each payload's row count. Each payload is one
  /// object, an array or NDJSON, with 1 to max_records_per_request rows. Errors: the first
  /// failing payload's, without saying which: callers then Prepare the payloads one by one, so
  /// that each request gets its own answer. Pure; thread-safe.
  Result<PreparedProduce> PrepareJson(std::span<const std::string_view> payloads) const;

  /// Appends, syncs (when Options::sync) and publishes at once on the caller's thread,
  /// serialised with the stream's other writers: how derived-stream processors write, and how
  /// produces to streams that do not sync (memory storage, `fsync = false`) skip the group
  /// committer. Errors: the stream's failure(), those of Append and BucketLog::Sync; a failure
  /// takes the stream offline (MarkFailed).
  Result<ProduceResult> CommitNow(PreparedProduce& prepared, int64_t now_ms);
  /// CommitNow for several requests at once: each is appended with exactly the timestamp
  /// `timestamps_ms[i]` (same size; not raised to the stream's previous one: a derived stream
  /// copies its base entries' timestamps, which never decrease along a base bucket, hence along
  /// a partition, but may across buckets), then one sync covers them all and they become
  /// visible together, so a processor writing many small base entries pays one fsync per step
  /// rather than one per entry. Errors: as CommitNow (none of them is visible then).
  Status CommitNow(std::span<PreparedProduce> prepared, std::span<const int64_t> timestamps_ms);
  /// Whether commits must sync (Options::sync); false sends produces straight to CommitNow.
  bool syncs() const { return options_.sync; }

  /// Appends the rows (one entry per bucket per batch) and assigns offsets; `prepared` is
  /// spent (its keys move into the result). The rows stay
  /// invisible until Publish. Adds the bucket logs written to `*touched` (for the caller to
  /// Sync) unless the stream does not sync (Options::sync). Errors: those of BucketLog::Append
  /// (rows appended before the failure stay invisible until a restart re-reads them: see
  /// docs/storage-format.md). The commit timestamp is `now_ms`, raised to the stream's previous one
  /// if the clock went back (unless `exact_timestamp`). Thread-safe (serialised with other
  /// writers).
  Result<ProduceResult> Append(PreparedProduce& prepared, int64_t now_ms, PendingEntries* pending,
                               std::vector<storage::BucketLog*>* touched,
                               bool exact_timestamp = false);

  /// Makes pending entries visible and writes their index records. Errors: IOError from the
  /// index files (the entries are visible regardless; the index is rebuilt at restart).
  /// Thread-safe (serialised with other writers).
  Status Publish(const PendingEntries& pending);

  /// Called after every Publish with the partition keys of the published entries (possibly
  /// repeated), on the publishing thread, without the stream's locks: must be quick
  /// (derived-stream processors use it to schedule work and to answer read-your-writes waits).
  /// Set before the stream is shared.
  using CommitListener = std::function<void(const std::vector<std::string_view>& keys)>;
  void SetCommitListener(CommitListener listener) { listener_ = std::move(listener); }

  /// The batch of a visible entry of `bucket` (through the entry cache). Errors: those of
  /// BucketLog::Read; Corruption when its row count differs from the index's.
  Result<arrow::RecordBatch> ReadEntry(BucketId bucket, const storage::EntryInfo& entry) const;
  int key_column() const { return key_column_; }
  const std::string& partition_key() const { return options_.partition_key; }
  bool durable() const { return options_.storage->durable(); }

  /// Writes buffered index records; with `sync`, fsyncs them.
  Status FlushIndex(bool sync);

  /// For time windows (window_view.h): a time T before which the stream's records are final,
  /// given the broker's clock reading `now_ms`. T is `now_ms`, or the earliest timestamp of a
  /// commit appended and not yet published when that is earlier; and every later commit that
  /// does not ask for an exact timestamp gets one at or after T (commit timestamps are raised to
  /// it, as they are to the stream's previous timestamp). So no record with a timestamp below T
  /// becomes visible after this call, unless appended with an exact timestamp (derived streams
  /// copy their inputs' timestamps: for them T says nothing) or after a restart with a clock
  /// that went back. Thread-safe (serialised with writers).
  int64_t SealBefore(int64_t now_ms);

  /// CheckQueryKey against this stream's partition-key column: InvalidArgument for a key that
  /// the key's type cannot hold (what every query of the stream checks first).
  Status CheckKey(std::string_view key) const;
  Result<QueryRows> At(std::string_view key, uint64_t offset) const;
  Result<QueryRows> Latest(std::string_view key) const;
  Result<QueryRows> FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const;
  /// Offsets [from, to), at most `limit` rows.
  Result<QueryRows> Range(std::string_view key, uint64_t from, uint64_t to, uint64_t limit) const;

  const std::string& name() const { return options_.name; }
  StreamId id() const { return options_.id; }
  const arrow::SchemaPtr& schema() const { return options_.schema; }
  uint32_t buckets() const { return options_.buckets; }
  const StreamIndex& index() const { return index_; }

  /// After a failed append or sync the log's state on disk is unknown (fsync errors cannot be
  /// retried safely), so the stream refuses produces until the broker restarts and recovers it.
  /// `failure()` is OK while the stream is healthy.
  void MarkFailed(const Status& cause);
  /// Called when the stream is deleted, before its files are: waits for a write in progress,
  /// then makes every later produce fail with NotFound "stream 'x' was deleted".
  void MarkDeleted();
  Status failure() const;
  /// Whether the storage accepts appends now (Storage::CheckAppend): asked before a commit
  /// appends anything, so a refusal (the s3 storage's local limit) fails that produce only
  /// and leaves the stream online.
  Status CheckAppend() const;

 private:
  /// The end of a direct commit whose appends ended with `status`: syncs `touched`, publishes
  /// `pending`; a failure of either takes the stream offline.
  Status SyncAndPublish(Status status, const std::vector<storage::BucketLog*>& touched,
                        const PendingEntries& pending);
  explicit StreamLog(Options options);
  Status Recover();
  Result<QueryRows> Materialize(const std::vector<RowRef>& rows) const;
  Result<PreparedProduce> Decode(std::string_view payload, PayloadFormat format) const;
  /// Fills prepared->keys, key_indexes and rows from the partition-key column of its batches.
  /// Errors: InvalidArgument "row R, field 'F': ..." for a key that is not valid.
  Status IndexKeys(PreparedProduce* prepared) const;

  Options options_;
  int key_column_ = -1;
  StreamIndex index_;
  std::vector<std::unique_ptr<storage::BucketLog>> logs_;
  std::unique_ptr<EntryCache> cache_;  // null when Options::cache_bytes == 0
  std::vector<std::unique_ptr<storage::IndexLog>> index_logs_;  // empty when in memory only
  std::mutex write_mu_;                                         // serialises writers
  /// The latest commit timestamp given, at least 0 and restored from the data by Recover. A
  /// commit's timestamp is max(this, the clock), so a clock before the Unix epoch gives 0 and a
  /// clock that goes backwards gives this one: timestamps never decrease (exact_timestamp
  /// commits of derived records aside).
  int64_t last_timestamp_ms_ = 0;
  /// Timestamps of entries appended and not yet published, with their entry counts (SealBefore).
  std::map<int64_t, uint64_t> unpublished_;
  mutable std::mutex failure_mu_;
  Status failure_;
  CommitListener listener_;
};

}  // namespace higgins::stream
