#include "stream/stream_log.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "arrow/json/json_reader.h"
#include "higgins/arrow/ipc/reader.h"
#include "stream/partitioning.h"

namespace higgins::stream {
namespace {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using KeyTable = std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;

/// Rows [0, n) of `batch` picked at `rows`, as a new batch.
Result<arrow::RecordBatch> Take(const arrow::RecordBatch& batch, const std::vector<int64_t>& rows) {
  std::vector<arrow::Array> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (const arrow::Array& column : batch.columns()) {
    arrow::ArrayBuilder builder(column.type());
    builder.Reserve(static_cast<int64_t>(rows.size()));
    for (int64_t r : rows) HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(column, r));
    columns.push_back(builder.Finish());
  }
  return arrow::RecordBatch::Make(batch.schema(), static_cast<int64_t>(rows.size()),
                                  std::move(columns));
}

/// `name` quoted, with its control characters (U+0000 to U+001F, U+007F) as \u00XX: a
/// payload's field names are the client's and may hold any bytes.
std::string QuotedName(std::string_view name) {
  std::string out = "'";
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string DescribeSchemaDifference(const arrow::Schema& expected, const arrow::Schema& got) {
  if (expected.num_fields() != got.num_fields()) {
    return "it has " + std::to_string(got.num_fields()) + " fields, the stream has " +
           std::to_string(expected.num_fields());
  }
  for (size_t i = 0; i < expected.num_fields(); ++i) {
    const arrow::Field& e = expected.field(i);
    const arrow::Field& g = got.field(i);
    if (e.name != g.name) {
      return "field " + std::to_string(i) + " is " + QuotedName(g.name) + ", the stream has " +
             QuotedName(e.name);
    }
    if (!(e.type == g.type)) {
      return "field " + QuotedName(e.name) + " is " + g.type.ToString() + ", the stream has " +
             e.type.ToString();
    }
  }
  return "";
}

}  // namespace

StreamLog::StreamLog(Options options) : options_(std::move(options)), index_(options_.buckets) {
  if (options_.cache_bytes > 0) cache_ = std::make_unique<EntryCache>(options_.cache_bytes);
}

StreamLog::~StreamLog() {
  Status s = FlushIndex(true);
  if (!s.ok()) spdlog::warn("stream '{}': index flush at close failed: {}", name(), s.ToString());
}

Result<std::unique_ptr<StreamLog>> StreamLog::Open(Options options) {
  auto key = options.schema->FieldIndex(options.partition_key);
  if (!key) {
    return Status::InvalidArgument("stream '" + options.name + "': partition key '" +
                                   options.partition_key + "' is not a field of its schema");
  }
  std::unique_ptr<StreamLog> log(new StreamLog(std::move(options)));
  log->key_column_ = static_cast<int>(*key);
  HIGGINS_RETURN_IF_ERROR(log->Recover());
  return log;
}

Status StreamLog::Recover() {
  const bool indexed = !options_.index_dir.empty();
  if (indexed) {
    std::error_code ec;
    std::filesystem::create_directories(options_.index_dir, ec);
    if (ec) return Status::IOError("create " + options_.index_dir + ": " + ec.message());
  }
  for (uint32_t n = 0; n < options_.buckets; ++n) {
    const BucketId b(n);
    std::vector<storage::IndexRecord> records;
    std::unique_ptr<storage::IndexLog> index_log;
    const std::string path = options_.index_dir + "/" + ToString(b) + ".index";
    Sequence indexed_end;
    bool consistent = true;
    if (indexed) {
      HIGGINS_ASSIGN_OR_RETURN(index_log, storage::IndexLog::Open(path, &records));
      for (const auto& r : records) {
        if (r.entry.base_sequence != indexed_end) consistent = false;
        indexed_end = r.entry.end_sequence();
      }
    }
    // With syncing on, the index is written only after the data is synced (by a commit, or by
    // the storage when it opened the log): everything it records was durable, and the storage
    // must not cut the log below it.
    const Sequence durable = consistent && options_.sync ? indexed_end : Sequence(0);
    HIGGINS_ASSIGN_OR_RETURN(auto log,
                             options_.storage->OpenBucket(options_.id, b, schema(), durable));
    const Sequence next = log->next_sequence();
    if (indexed) {
      // The index can only lag the data; if it is ahead (a tail cut of a stream that does not
      // sync) or has a gap, it is rebuilt from the data.
      if (!consistent || indexed_end > next) {
        spdlog::warn("stream '{}' bucket {}: index file disagrees with the data; rebuilding it",
                     name(), n);
        index_log.reset();
        records.clear();
        std::filesystem::remove(path);
        HIGGINS_ASSIGN_OR_RETURN(index_log, storage::IndexLog::Open(path, &records));
      }
    }
    std::vector<uint64_t> offsets;
    Sequence covered;
    for (const auto& r : records) {
      offsets.resize(r.key_indexes.size());
      index_.Add(b, r.entry, r.keys, r.key_indexes, offsets.data());
      covered = r.entry.end_sequence();
      last_timestamp_ms_ = std::max(last_timestamp_ms_, r.entry.timestamp_ms);
    }
    uint64_t rebuilt = 0;
    HIGGINS_RETURN_IF_ERROR(log->Scan(
        covered, [&](const storage::EntryInfo& entry, const arrow::RecordBatch& batch) -> Status {
          storage::IndexRecord record;
          record.entry = entry;
          KeyTable table;
          std::string key;
          const arrow::Array& column = batch.column(key_column_);
          for (int64_t r = 0; r < batch.num_rows(); ++r) {
            HIGGINS_RETURN_IF_ERROR(
                PartitionKeyOf(column, r, &key)
                    .WithContext("stream '" + name() + "' bucket " + ToString(b) + " sequence " +
                                 ToString(entry.base_sequence + static_cast<uint64_t>(r))));
            auto [it, added] = table.try_emplace(key, static_cast<uint32_t>(record.keys.size()));
            if (added) record.keys.push_back(key);
            record.key_indexes.push_back(it->second);
          }
          offsets.resize(record.key_indexes.size());
          index_.Add(b, entry, record.keys, record.key_indexes, offsets.data());
          last_timestamp_ms_ = std::max(last_timestamp_ms_, entry.timestamp_ms);
          if (index_log) HIGGINS_RETURN_IF_ERROR(index_log->Append(record));
          ++rebuilt;
          return Status::OK();
        }));
    if (rebuilt > 0 && index_log) {
      spdlog::info("stream '{}' bucket {}: indexed {} entries from the data", name(), n, rebuilt);
    }
    if (index_log) HIGGINS_RETURN_IF_ERROR(index_log->Flush(true));
    index_.Publish(b, next);
    logs_.push_back(std::move(log));
    if (index_log) index_logs_.push_back(std::move(index_log));
  }
  return Status::OK();
}

Result<PreparedProduce> StreamLog::Decode(std::string_view payload, PayloadFormat format) const {
  PreparedProduce prepared;
  if (format == PayloadFormat::kAuto) {
    format = arrow::ipc::LooksLikeIpc(payload) ? PayloadFormat::kArrowIpc : PayloadFormat::kJson;
  }
  if (format == PayloadFormat::kJson) {
    arrow::json::JsonReadOptions options;
    options.max_rows = options_.max_records_per_request;
    HIGGINS_ASSIGN_OR_RETURN(auto batch, arrow::json::ReadJson(payload, schema(), options));
    prepared.batches.push_back(std::move(batch));
    return prepared;
  }
  arrow::ipc::ReadOptions options;
  options.limits.max_batch_rows = options_.max_records_per_request;
  HIGGINS_ASSIGN_OR_RETURN(auto read, arrow::ipc::ReadStreamOrFile(Buffer::Copy(payload), options));
  std::string difference = DescribeSchemaDifference(*schema(), *read.schema);
  if (!difference.empty()) {
    return Status::InvalidArgument("the payload's schema differs from the stream's: " + difference);
  }
  int64_t rows = 0;
  for (const auto& batch : read.batches) {
    rows += batch.num_rows();
    if (rows > options_.max_records_per_request) break;
    if (batch.num_rows() == 0) continue;
    // Re-declared under the stream's schema: checks non-nullable fields hold no nulls.
    auto rebased = arrow::RecordBatch::Make(schema(), batch.num_rows(), batch.columns());
    if (!rebased.ok()) {
      return rebased.status().WithContext("the payload does not fit stream '" + name() + "'");
    }
    prepared.batches.push_back(*std::move(rebased));
  }
  if (rows > options_.max_records_per_request) {
    return Status::ResourceExhausted("the payload holds more than " +
                                     std::to_string(options_.max_records_per_request) +
                                     " records, the limit per request");
  }
  return prepared;
}

Result<PreparedProduce> StreamLog::Prepare(std::string_view payload, PayloadFormat format) const {
  if (payload.empty()) return Status::InvalidArgument("empty payload");
  HIGGINS_ASSIGN_OR_RETURN(PreparedProduce prepared, Decode(payload, format));
  HIGGINS_RETURN_IF_ERROR(IndexKeys(&prepared));
  if (prepared.rows == 0) return Status::InvalidArgument("the payload holds no records");
  return prepared;
}

Result<PreparedProduce> StreamLog::PrepareJson(std::span<const std::string_view> payloads) const {
  PreparedProduce prepared;
  arrow::json::JsonBatchReader reader(schema());
  size_t bytes = 0;
  for (std::string_view payload : payloads) bytes += payload.size();
  reader.ExpectBytes(bytes);
  prepared.request_rows.reserve(payloads.size());
  for (std::string_view payload : payloads) {
    if (payload.empty()) return Status::InvalidArgument("empty payload");
    const int64_t before = reader.num_rows();
    HIGGINS_RETURN_IF_ERROR(reader.Append(payload));
    const int64_t rows = reader.num_rows() - before;
    if (rows == 0) return Status::InvalidArgument("the payload holds no records");
    if (rows > options_.max_records_per_request) {
      return Status::ResourceExhausted("a payload holds more than the limit per request");
    }
    prepared.request_rows.push_back(rows);
  }
  HIGGINS_ASSIGN_OR_RETURN(auto batch, reader.Finish());
  prepared.batches.push_back(std::move(batch));
  HIGGINS_RETURN_IF_ERROR(IndexKeys(&prepared));
  return prepared;
}

Status StreamLog::IndexKeys(PreparedProduce* prepared) const {
  KeyTable table;
  std::string key;
  const std::string& key_field = options_.partition_key;
  int64_t row = 0;
  for (const auto& batch : prepared->batches) {
    const arrow::Array& column = batch.column(key_column_);
    prepared->key_indexes.reserve(prepared->key_indexes.size() +
                                  static_cast<size_t>(batch.num_rows()));
    for (int64_t r = 0; r < batch.num_rows(); ++r, ++row) {
      Status s = PartitionKeyOf(column, r, &key);
      if (!s.ok()) {
        return Status::InvalidArgument("row " + std::to_string(row) + ", field '" + key_field +
                                       "': " + s.message());
      }
      auto it = table.find(std::string_view(key));
      if (it == table.end()) {
        it = table.emplace(key, static_cast<uint32_t>(prepared->keys.size())).first;
        prepared->keys.push_back(key);
      }
      prepared->key_indexes.push_back(it->second);
    }
  }
  prepared->rows = row;
  return Status::OK();
}

Status StreamLog::CheckAppend() const {
  return options_.storage == nullptr ? Status::OK() : options_.storage->CheckAppend();
}

Result<ProduceResult> StreamLog::Append(PreparedProduce& prepared, int64_t now_ms,
                                        PendingEntries* pending,
                                        std::vector<storage::BucketLog*>* touched,
                                        bool exact_timestamp) {
  std::lock_guard lock(write_mu_);
  HIGGINS_RETURN_IF_ERROR(failure());  // deleted, or offline, since the caller looked
  last_timestamp_ms_ = std::max(last_timestamp_ms_, now_ms);
  const int64_t timestamp_ms = exact_timestamp ? now_ms : last_timestamp_ms_;
  ProduceResult result;
  result.timestamp_ms = timestamp_ms;
  result.offsets.resize(static_cast<size_t>(prepared.rows));
  const bool indexed = !index_logs_.empty();
  // Keys and key indexes are copied only into index records, and only for indexed streams
  // (keys also for the commit listener).
  auto add_entry = [&](BucketId bucket, const arrow::RecordBatch& batch,
                       const std::vector<std::string>& keys,
                       const std::vector<uint32_t>& key_indexes, uint64_t* offsets) -> Status {
    storage::BucketLog* log = logs_[bucket.value()].get();
    HIGGINS_ASSIGN_OR_RETURN(storage::EntryInfo entry, log->Append(batch, timestamp_ms));
    // Recent entries are the likeliest to be read (latest queries, derived streams).
    if (cache_) cache_->Put(bucket, entry.base_sequence, batch);
    if (options_.sync && std::find(touched->begin(), touched->end(), log) == touched->end()) {
      touched->push_back(log);
    }
    index_.Add(bucket, entry, keys, key_indexes, offsets);
    ++unpublished_[timestamp_ms];
    PendingEntries::Item item{bucket, {}};
    item.record.entry = entry;
    if (indexed || listener_) item.record.keys = keys;  // the listener gets them too
    if (indexed) item.record.key_indexes = key_indexes;
    pending->items.push_back(std::move(item));
    return Status::OK();
  };

  size_t row = 0;
  for (const auto& batch : prepared.batches) {
    const size_t n = static_cast<size_t>(batch.num_rows());
    if (options_.buckets == 1 && prepared.batches.size() == 1) {
      HIGGINS_RETURN_IF_ERROR(add_entry(BucketId(0), batch, prepared.keys, prepared.key_indexes,
                                        result.offsets.data()));
      break;
    }
    std::vector<uint32_t> batch_key_indexes(prepared.key_indexes.begin() + row,
                                            prepared.key_indexes.begin() + row + n);
    if (options_.buckets == 1) {
      HIGGINS_RETURN_IF_ERROR(add_entry(BucketId(0), batch, prepared.keys, batch_key_indexes,
                                        result.offsets.data() + row));
    } else {
      // Split the rows by bucket; each bucket's entry keeps payload order.
      std::map<BucketId, std::vector<int64_t>> rows_by_bucket;
      std::vector<BucketId> key_bucket(prepared.keys.size());
      for (size_t k = 0; k < prepared.keys.size(); ++k) {
        key_bucket[k] = BucketOf(prepared.keys[k], options_.buckets);
      }
      for (size_t r = 0; r < n; ++r) {
        rows_by_bucket[key_bucket[batch_key_indexes[r]]].push_back(static_cast<int64_t>(r));
      }
      for (const auto& [bucket, rows] : rows_by_bucket) {
        HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch part, Take(batch, rows));
        // The entry's own key table: only the keys of its rows.
        std::vector<std::string> part_keys;
        std::vector<uint32_t> part_indexes;
        std::unordered_map<uint32_t, uint32_t> remap;
        part_indexes.reserve(rows.size());
        for (int64_t r : rows) {
          const uint32_t k = batch_key_indexes[static_cast<size_t>(r)];
          auto [it, added] = remap.try_emplace(k, static_cast<uint32_t>(part_keys.size()));
          if (added) part_keys.push_back(prepared.keys[k]);
          part_indexes.push_back(it->second);
        }
        std::vector<uint64_t> part_offsets(rows.size());
        HIGGINS_RETURN_IF_ERROR(
            add_entry(bucket, part, part_keys, part_indexes, part_offsets.data()));
        for (size_t i = 0; i < rows.size(); ++i) {
          result.offsets[row + static_cast<size_t>(rows[i])] = part_offsets[i];
        }
      }
    }
    row += n;
  }
  // The prepared request is spent: its keys move into the reply.
  result.partitions = std::move(prepared.keys);
  result.partition_indexes = std::move(prepared.key_indexes);
  return result;
}

Status StreamLog::Publish(const PendingEntries& pending) {
  Status status;
  {
    std::lock_guard lock(write_mu_);
    for (const auto& item : pending.items) {
      index_.Publish(item.bucket, item.record.entry.end_sequence());
      if (auto it = unpublished_.find(item.record.entry.timestamp_ms);
          it != unpublished_.end() && --it->second == 0) {
        unpublished_.erase(it);
      }
      if (!index_logs_.empty() && status.ok()) {
        status = index_logs_[item.bucket.value()]->Append(item.record);
      }
    }
  }
  if (listener_ && !pending.items.empty()) {
    std::vector<std::string_view> keys;
    for (const auto& item : pending.items) {
      keys.insert(keys.end(), item.record.keys.begin(), item.record.keys.end());
    }
    listener_(keys);
  }
  return status;
}

Result<ProduceResult> StreamLog::CommitNow(PreparedProduce& prepared, int64_t now_ms) {
  HIGGINS_RETURN_IF_ERROR(failure());
  HIGGINS_RETURN_IF_ERROR(CheckAppend());
  PendingEntries pending;
  std::vector<storage::BucketLog*> touched;  // stays empty when the stream does not sync
  auto result = Append(prepared, now_ms, &pending, &touched);
  HIGGINS_RETURN_IF_ERROR(SyncAndPublish(result.status(), touched, pending));
  return result;
}

Status StreamLog::CommitNow(std::span<PreparedProduce> prepared,
                            std::span<const int64_t> timestamps_ms) {
  if (prepared.size() != timestamps_ms.size()) {
    return Status::Internal("CommitNow: " + std::to_string(prepared.size()) + " requests but " +
                            std::to_string(timestamps_ms.size()) + " timestamps");
  }
  HIGGINS_RETURN_IF_ERROR(failure());
  HIGGINS_RETURN_IF_ERROR(CheckAppend());
  PendingEntries pending;
  std::vector<storage::BucketLog*> touched;
  Status status;
  for (size_t i = 0; status.ok() && i < prepared.size(); ++i) {
    status = Append(prepared[i], timestamps_ms[i], &pending, &touched, true).status();
  }
  return SyncAndPublish(status, touched, pending);
}

Status StreamLog::SyncAndPublish(Status status, const std::vector<storage::BucketLog*>& touched,
                                 const PendingEntries& pending) {
  for (size_t i = 0; status.ok() && i < touched.size(); ++i) status = touched[i]->Sync();
  if (storage::IsUploadPending(status)) {
    // Durable locally and visible; only the upload is unconfirmed: not a storage failure.
    Status s = Publish(pending);
    if (!s.ok()) spdlog::warn("stream '{}': index write failed: {}", name(), s.ToString());
    return status;
  }
  if (!status.ok()) {
    if (Status failed = failure(); !failed.ok()) return failed;
    MarkFailed(status);
    return failure();
  }
  Status s = Publish(pending);
  if (!s.ok()) spdlog::warn("stream '{}': index write failed: {}", name(), s.ToString());
  return Status::OK();
}

Result<arrow::RecordBatch> StreamLog::ReadEntry(BucketId bucket,
                                                const storage::EntryInfo& entry) const {
  if (cache_) {
    if (auto cached = cache_->Get(bucket, entry.base_sequence)) return *std::move(cached);
  }
  HIGGINS_ASSIGN_OR_RETURN(auto batch, logs_[bucket.value()]->Read(entry.location));
  if (batch.num_rows() != entry.row_count) {
    return Status::Corruption("stream '" + name() + "': entry at sequence " +
                              ToString(entry.base_sequence) + " holds " +
                              std::to_string(batch.num_rows()) + " rows, the index says " +
                              std::to_string(entry.row_count));
  }
  if (cache_) cache_->Put(bucket, entry.base_sequence, batch);
  return batch;
}

void StreamLog::MarkFailed(const Status& cause) {
  std::lock_guard lock(failure_mu_);
  if (failure_.ok()) {
    spdlog::error("stream '{}': taken offline after a storage failure: {}", name(),
                  cause.ToString());
    failure_ = Status(cause.code(), "stream '" + name() +
                                        "' is offline after a storage failure (restart the "
                                        "broker to recover it): " +
                                        cause.message());
  }
}

void StreamLog::MarkDeleted() {
  std::lock_guard write_lock(write_mu_);
  std::lock_guard lock(failure_mu_);
  failure_ = Status::NotFound("stream '" + name() + "' was deleted");
}

Status StreamLog::failure() const {
  std::lock_guard lock(failure_mu_);
  return failure_;
}

int64_t StreamLog::SealBefore(int64_t now_ms) {
  std::lock_guard lock(write_mu_);
  // Entries whose append failed are never published here; they stay in unpublished_ and keep T
  // before them, rightly: a restart re-reads them from the bucket logs.
  const int64_t sealed =
      unpublished_.empty() ? now_ms : std::min(now_ms, unpublished_.begin()->first);
  last_timestamp_ms_ = std::max(last_timestamp_ms_, sealed);
  return sealed;
}

Status StreamLog::FlushIndex(bool sync) {
  std::lock_guard lock(write_mu_);
  for (auto& log : index_logs_) HIGGINS_RETURN_IF_ERROR(log->Flush(sync));
  return Status::OK();
}

Result<QueryRows> StreamLog::Materialize(const std::vector<RowRef>& rows) const {
  QueryRows out;
  out.first_offset = rows.front().offset;
  if (rows.size() == 1) {  // a point read: a slice of one row of its entry
    const RowRef& ref = rows.front();
    HIGGINS_ASSIGN_OR_RETURN(auto batch, ReadEntry(ref.bucket, ref.entry));
    out.timestamps_ms.push_back(ref.entry.timestamp_ms);
    out.batch = batch.Slice(ref.row, 1);
    return out;
  }
  out.timestamps_ms.reserve(rows.size());
  // Read each entry once; rows of one partition usually come from few entries.
  std::map<std::pair<BucketId, Sequence>, arrow::RecordBatch> entries;
  for (const RowRef& ref : rows) {
    out.timestamps_ms.push_back(ref.entry.timestamp_ms);
    auto key = std::make_pair(ref.bucket, ref.entry.base_sequence);
    if (entries.count(key) == 0) {
      HIGGINS_ASSIGN_OR_RETURN(auto batch, ReadEntry(ref.bucket, ref.entry));
      entries.emplace(key, std::move(batch));
    }
  }
  // One contiguous run inside one entry: a zero-copy slice.
  const RowRef& first = rows.front();
  const RowRef& last = rows.back();
  if (entries.size() == 1 && last.row - first.row + 1 == rows.size()) {
    out.batch = entries.begin()->second.Slice(first.row, static_cast<int64_t>(rows.size()));
    return out;
  }
  std::vector<arrow::Array> columns;
  for (size_t c = 0; c < schema()->num_fields(); ++c) {
    arrow::ArrayBuilder builder(schema()->field(c).type);
    builder.Reserve(static_cast<int64_t>(rows.size()));
    for (const RowRef& ref : rows) {
      const auto& batch = entries.at(std::make_pair(ref.bucket, ref.entry.base_sequence));
      HIGGINS_RETURN_IF_ERROR(builder.AppendFrom(batch.column(static_cast<int>(c)), ref.row));
    }
    columns.push_back(builder.Finish());
  }
  HIGGINS_ASSIGN_OR_RETURN(
      out.batch,
      arrow::RecordBatch::Make(schema(), static_cast<int64_t>(rows.size()), std::move(columns)));
  return out;
}

Status StreamLog::CheckKey(std::string_view key) const {
  return CheckQueryKey(schema()->field(static_cast<size_t>(key_column_)).type, key);
}

Result<QueryRows> StreamLog::At(std::string_view key, uint64_t offset) const {
  HIGGINS_RETURN_IF_ERROR(CheckKey(key));
  HIGGINS_ASSIGN_OR_RETURN(RowRef ref, index_.At(key, offset));
  return Materialize({ref});
}

Result<QueryRows> StreamLog::Latest(std::string_view key) const {
  HIGGINS_RETURN_IF_ERROR(CheckKey(key));
  HIGGINS_ASSIGN_OR_RETURN(uint64_t offset, index_.Latest(key));
  return At(key, offset);
}

Result<QueryRows> StreamLog::FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const {
  HIGGINS_RETURN_IF_ERROR(CheckKey(key));
  HIGGINS_ASSIGN_OR_RETURN(uint64_t offset, index_.FirstAtOrAfter(key, timestamp_ms));
  return At(key, offset);
}

Result<QueryRows> StreamLog::Range(std::string_view key, uint64_t from, uint64_t to,
                                   uint64_t limit) const {
  HIGGINS_RETURN_IF_ERROR(CheckKey(key));
  HIGGINS_ASSIGN_OR_RETURN(auto rows, index_.Range(key, from, to, limit));
  return Materialize(rows);
}

}  // namespace higgins::stream
