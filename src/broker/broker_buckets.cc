// Bucket logs read as Kafka partitions (docs/kafka.md): entries from a sequence on, the visible
// end, the entry at a time, where a partition's record lies, and waits for the next commit.
#include <algorithm>

#include "broker/broker.h"
#include "common/quote.h"
#include "stream/partitioning.h"

namespace higgins::broker {
namespace {

Status CheckBucket(std::string_view stream, const stream::StreamLog& log, uint32_t bucket) {
  if (bucket >= log.buckets()) {
    return Status::NotFound("stream " + Quote(stream) + " has " + std::to_string(log.buckets()) +
                            " bucket(s); there is no bucket " + std::to_string(bucket));
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<stream::StreamLog>> Broker::BucketStream(std::string_view name,
                                                                uint32_t bucket) const {
  if (FindWindow(name)) {
    return Status::NotFound("stream " + Quote(name) +
                            " is a window stream: it is computed from its base and has no "
                            "bucket logs of its own");
  }
  HIGGINS_ASSIGN_OR_RETURN(auto log, FindStream(name));
  HIGGINS_RETURN_IF_ERROR(CheckBucket(name, *log, bucket));
  return log;
}

// (from, how many) and (bucket, time) are BrokerApi's orders, named at every call.
// NOLINTBEGIN(bugprone-easily-swappable-parameters)
Result<BucketRead> Broker::ReadBucket(std::string_view stream_name, uint32_t bucket,
                                      uint64_t from_sequence, uint64_t min_rows,
                                      size_t max_entries) const {
  // NOLINTEND(bugprone-easily-swappable-parameters)
  HIGGINS_ASSIGN_OR_RETURN(auto log, BucketStream(stream_name, bucket));
  const stream::StreamIndex& index = log->index();
  const BucketId id(bucket);
  BucketRead read;
  read.schema = log->schema();
  read.end_sequence = index.VisibleSequence(id).value();
  if (from_sequence > read.end_sequence) {
    return Status::OutOfRange("bucket " + std::to_string(bucket) + " of stream " +
                              Quote(stream_name) + " ends at sequence " +
                              std::to_string(read.end_sequence) + "; " +
                              std::to_string(from_sequence) + " is past its end");
  }
  const std::vector<storage::EntryInfo> entries =
      index.VisibleEntries(id, Sequence(from_sequence), std::max<size_t>(max_entries, 1));
  uint64_t rows = 0;
  const int key_column = log->key_column();
  for (const storage::EntryInfo& info : entries) {
    if (!read.entries.empty() && rows >= min_rows) break;
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, log->ReadEntry(id, info));
    BucketEntry entry;
    entry.base_sequence = info.base_sequence.value();
    entry.timestamp_ms = info.timestamp_ms;
    const arrow::Array& keys = batch.column(key_column);
    entry.keys.resize(static_cast<size_t>(batch.num_rows()));
    entry.offsets.resize(entry.keys.size());
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      auto r = static_cast<size_t>(row);
      HIGGINS_RETURN_IF_ERROR(stream::PartitionKeyOf(keys, row, &entry.keys[r]));
      entry.offsets[r] = index.OffsetAtSequence(entry.keys[r], Sequence(entry.base_sequence + r));
    }
    rows += entry.base_sequence + info.row_count - std::max(entry.base_sequence, from_sequence);
    entry.batch = std::move(batch);
    read.entries.push_back(std::move(entry));
  }
  return read;
}

Result<BrokerApi::BucketLogs> Broker::DescribeBuckets(std::string_view stream_name) const {
  HIGGINS_ASSIGN_OR_RETURN(auto log, BucketStream(stream_name, 0));
  std::shared_lock lock(mu_);
  const config::StreamDecl* decl = topography_.FindStream(stream_name);
  return BucketLogs{log->buckets(), decl != nullptr && decl->kind == config::StreamKind::kSource};
}

Result<uint64_t> Broker::BucketEnd(std::string_view stream_name, uint32_t bucket) const {
  HIGGINS_ASSIGN_OR_RETURN(auto log, BucketStream(stream_name, bucket));
  return log->index().VisibleSequence(BucketId(bucket)).value();
}

// NOLINTBEGIN(bugprone-easily-swappable-parameters)
Result<std::optional<BrokerApi::BucketPosition>> Broker::BucketAtTime(std::string_view stream_name,
                                                                      uint32_t bucket,
                                                                      int64_t timestamp_ms) const {
  // NOLINTEND(bugprone-easily-swappable-parameters)
  HIGGINS_ASSIGN_OR_RETURN(auto log, BucketStream(stream_name, bucket));
  // Entries are read a page at a time; commit timestamps only grow along a bucket of a source
  // stream, but a derived stream copies its bases' (which may not), so every entry is looked at.
  constexpr size_t kPage = 1024;
  Sequence from(0);
  for (;;) {
    const auto entries = log->index().VisibleEntries(BucketId(bucket), from, kPage);
    for (const storage::EntryInfo& e : entries) {
      if (e.timestamp_ms >= timestamp_ms) {
        return std::optional<BucketPosition>(
            BucketPosition{e.base_sequence.value(), e.timestamp_ms});
      }
    }
    if (entries.size() < kPage) return std::optional<BucketPosition>();
    from = entries.back().end_sequence();
  }
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (stream, key), every query's order
Result<BrokerApi::RecordPosition> Broker::Locate(std::string_view stream_name, std::string_view key,
                                                 uint64_t offset) const {
  HIGGINS_ASSIGN_OR_RETURN(auto log, FindStream(stream_name));
  HIGGINS_ASSIGN_OR_RETURN(stream::RowRef ref, log->index().At(key, offset));
  return RecordPosition{ref.bucket.value(), ref.entry.base_sequence.value() + ref.row};
}

Result<uint64_t> Broker::WaitForCommit(std::string_view stream_name, std::function<void()> wake) {
  HIGGINS_RETURN_IF_ERROR(BucketStream(stream_name, 0).status());
  return commit_waiters_.Add(stream_name, std::move(wake));
}

void Broker::CancelCommitWait(std::string_view stream_name, uint64_t id) {
  commit_waiters_.Cancel(stream_name, id);
}

}  // namespace higgins::broker
