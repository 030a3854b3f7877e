// Storage that keeps the appended RecordBatch objects in memory (no serialisation).
#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "storage/storage.h"

namespace higgins::storage {
namespace {

bool SameFields(const arrow::Schema& a, const arrow::Schema& b) {
  if (&a == &b) return true;
  if (a.num_fields() != b.num_fields()) return false;
  for (size_t i = 0; i < a.num_fields(); ++i) {
    const arrow::Field& x = a.field(i);
    const arrow::Field& y = b.field(i);
    if (x.name != y.name || !(x.type == y.type) || x.nullable != y.nullable) return false;
  }
  return true;
}

/// The contents of one bucket, shared by the storage and every log opened on it. Append-only;
/// `mutex` guards `entries` (readers copy an entry under the lock). A deque: an append never moves
/// the entries already held, so a long log costs no pause to grow.
struct MemoryBucket {
  explicit MemoryBucket(arrow::SchemaPtr s) : schema(std::move(s)) {}
  const arrow::SchemaPtr schema;
  mutable std::mutex mutex;
  std::deque<std::pair<EntryInfo, arrow::RecordBatch>> entries;
  Sequence next_sequence;
};

class MemoryBucketLog final : public BucketLog {
 public:
  explicit MemoryBucketLog(std::shared_ptr<MemoryBucket> bucket) : bucket_(std::move(bucket)) {}

  Result<EntryInfo> Append(const arrow::RecordBatch& batch, int64_t timestamp_ms) override {
    if (batch.num_rows() < 1 || batch.num_rows() > INT32_MAX) {
      return Status::InvalidArgument("cannot append a batch of " +
                                     std::to_string(batch.num_rows()) + " rows (1 to 2^31-1)");
    }
    if (!SameFields(*batch.schema(), *bucket_->schema)) {
      return Status::InvalidArgument("record batch schema\n" + batch.schema()->ToString() +
                                     "\ndoes not match the bucket's schema\n" +
                                     bucket_->schema->ToString());
    }
    std::lock_guard lock(bucket_->mutex);
    EntryInfo entry{bucket_->next_sequence,
                    static_cast<uint32_t>(batch.num_rows()),
                    timestamp_ms,
                    {0, bucket_->entries.size(), 0}};
    bucket_->entries.emplace_back(entry, batch);
    bucket_->next_sequence += entry.row_count;
    return entry;
  }

  Status Sync() override { return Status::OK(); }

  Result<arrow::RecordBatch> Read(const EntryLocation& location) const override {
    std::lock_guard lock(bucket_->mutex);
    if (location.segment != 0 || location.size != 0 ||
        location.position >= bucket_->entries.size()) {
      return Status::NotFound("no entry at position " + std::to_string(location.position) +
                              " of a memory bucket of " + std::to_string(bucket_->entries.size()) +
                              " entries");
    }
    return bucket_->entries[location.position].second;
  }

  Status Scan(
      Sequence from_sequence,
      const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const override {
    size_t index = 0;
    size_t end = 0;
    {
      std::lock_guard lock(bucket_->mutex);
      const auto& entries = bucket_->entries;
      end = entries.size();
      index = FirstEntryEndingAfter(entries, from_sequence,
                                    [](const auto& e) -> const EntryInfo& { return e.first; });
    }
    for (; index < end; ++index) {
      std::pair<EntryInfo, arrow::RecordBatch> entry;
      {
        std::lock_guard lock(bucket_->mutex);
        entry = bucket_->entries[index];
      }
      HIGGINS_RETURN_IF_ERROR(fn(entry.first, entry.second));
    }
    return Status::OK();
  }

  Sequence next_sequence() const override {
    std::lock_guard lock(bucket_->mutex);
    return bucket_->next_sequence;
  }

 private:
  std::shared_ptr<MemoryBucket> bucket_;
};

/// Buckets live as long as the storage (or an open log on them); a reopened bucket continues
/// where it was. Thread-safe.
class MemoryStorage final : public Storage {
 public:
  Result<std::unique_ptr<BucketLog>> OpenBucket(StreamId stream_id, BucketId bucket,
                                                arrow::SchemaPtr schema,
                                                Sequence /*durable_sequence*/) override {
    std::lock_guard lock(mutex_);
    std::shared_ptr<MemoryBucket>& contents = buckets_[{stream_id, bucket}];
    if (contents == nullptr) {
      contents = std::make_shared<MemoryBucket>(std::move(schema));
    } else if (!(*contents->schema == *schema)) {
      return Status::Corruption("memory bucket " + ToString(bucket) + " of stream " +
                                ToString(stream_id) + " holds another schema");
    }
    return std::unique_ptr<BucketLog>(std::make_unique<MemoryBucketLog>(contents));
  }

  Status DropStream(StreamId stream_id) override {
    std::lock_guard lock(mutex_);
    buckets_.erase(buckets_.lower_bound({stream_id, BucketId(0)}),
                   buckets_.upper_bound({stream_id, BucketId(UINT32_MAX)}));
    return Status::OK();
  }

  bool durable() const override { return false; }

 private:
  std::mutex mutex_;
  std::map<std::pair<StreamId, BucketId>, std::shared_ptr<MemoryBucket>> buckets_;
};

}  // namespace

std::unique_ptr<Storage> MakeMemoryStorage() {
  return std::make_unique<MemoryStorage>();
}

}  // namespace higgins::storage
