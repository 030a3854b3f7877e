// S3BucketCore: appends to the local log, reads from it or from objects, uploads sealed
// segments (docs/storage-format.md, "Segment objects").
#include "storage/s3_bucket_log.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "higgins/arrow/ipc/reader.h"

namespace higgins::storage {
namespace {

// A scan of uploaded entries fetches up to this many bytes of one object per request.
constexpr uint64_t kScanFetchBytes = 8ull << 20;

}  // namespace

void S3Shared::Wake() {
  std::lock_guard lock(wake_mu);
  if (uploader != nullptr) uploader->Wake();
}

void S3Shared::SetUploadError(const Status& status) {
  std::lock_guard lock(error_mu_);
  upload_error_ = status;
}

Status S3Shared::upload_error() const {
  std::lock_guard lock(error_mu_);
  return upload_error_;
}

S3BucketCore::S3BucketCore(std::shared_ptr<S3Shared> shared, StreamId stream_id, BucketId bucket,
                           arrow::SchemaPtr schema)
    : shared_(std::move(shared)),
      stream_id_(stream_id),
      bucket_(bucket),
      schema_(std::move(schema)) {}

std::string S3BucketCore::ObjectKey(Sequence base) const {
  return shared_->options.prefix + ToString(stream_id_) + "/" + ToString(bucket_) + "/" +
         SegmentObjectName(base);
}

Result<EntryInfo> S3BucketCore::Append(const arrow::RecordBatch& batch, int64_t timestamp_ms) {
  std::lock_guard write_lock(write_mu_);
  HIGGINS_ASSIGN_OR_RETURN(EntryInfo local, wal_->Append(batch, timestamp_ms));
  const Sequence segment_base(local.location.segment);
  EntryInfo logical = local;
  logical.location = {segment_base.value(), local.base_sequence.value(), local.row_count};
  bool sealed_one = false;
  Segment* tail;
  {
    std::unique_lock lock(mu_);
    if (has_tail_ && tail_base_ != segment_base) {
      // The local log started a segment by itself (size): the previous one is complete.
      segments_.at(tail_base_).sealed = true;
      sealed_one = true;
    }
    if (!has_tail_ || tail_base_ != segment_base) {
      Segment segment;
      segment.base = segment_base;
      segment.first_append = std::chrono::steady_clock::now();
      segments_[segment_base] = segment;
      has_tail_ = true;
      tail_base_ = segment_base;
    }
    tail = &segments_.at(segment_base);
    tail->end = local.end_sequence();
    tail->entries += 1;
    tail->local_bytes += local.location.size;
    entries_.push_back({logical, local.location, {}});
  }
  shared_->pending_local_bytes.fetch_add(local.location.size);
  const uint64_t segment_end = local.location.position + local.location.size;
  if (segment_end >= shared_->options.segment_bytes ||
      tail->entries >= shared_->options.segment_max_entries) {
    // Sealing syncs the segment; an error here leaves the entry appended (it is in the log)
    // and the segment open, to be sealed by age later.
    if (Status st = SealTail(); !st.ok()) {
      spdlog::warn("storage '{}': sealing a segment of stream id {} bucket log {} failed: {}",
                   shared_->options.name, stream_id_.value(), bucket_.value(), st.ToString());
    } else {
      sealed_one = true;
    }
  }
  if (sealed_one) shared_->Wake();
  return logical;
}

Status S3BucketCore::SealTail() {
  if (!has_tail_) return Status::OK();
  HIGGINS_RETURN_IF_ERROR(wal_->Roll());
  std::unique_lock lock(mu_);
  segments_.at(tail_base_).sealed = true;
  has_tail_ = false;
  return Status::OK();
}

Status S3BucketCore::Sync() {
  {
    std::lock_guard write_lock(write_mu_);
    HIGGINS_RETURN_IF_ERROR(wal_->Sync());
    if (!shared_->options.ack_after_upload) return Status::OK();
    HIGGINS_RETURN_IF_ERROR(SealTail());
  }
  std::lock_guard upload_lock(upload_mu_);
  Status uploaded = UploadSealed();
  if (uploaded.ok()) return uploaded;
  return Status::DeadlineExceeded("storage '" + shared_->options.name +
                                  "': the records are in the local log but their upload is not "
                                  "confirmed (ack_after_upload): " +
                                  uploaded.ToString());
}

void S3BucketCore::UploadTick(std::chrono::steady_clock::time_point now) {
  std::lock_guard upload_lock(upload_mu_);
  if (closed_ || now < next_attempt_) return;
  {
    std::lock_guard write_lock(write_mu_);
    bool old = false;
    {
      std::shared_lock lock(mu_);
      if (has_tail_) {
        const Segment& tail = segments_.at(tail_base_);
        old = tail.entries > 0 && now - tail.first_append >= shared_->options.segment_max_age;
      }
    }
    if (old) {
      if (Status st = SealTail(); !st.ok()) {
        spdlog::warn("storage '{}': sealing a segment of stream id {} bucket log {} failed: {}",
                     shared_->options.name, stream_id_.value(), bucket_.value(), st.ToString());
      }
    }
  }
  Status st = UploadSealed();
  if (st.ok()) {
    if (failures_ > 0) {
      spdlog::info("storage '{}': uploads of stream id {} bucket log {} work again",
                   shared_->options.name, stream_id_.value(), bucket_.value());
    }
    failures_ = 0;
    return;
  }
  // Exponential back-off with full jitter: a random wait in [base, min(max, base * 2^n)].
  ++failures_;
  const auto& o = shared_->options;
  const int64_t ceiling =
      std::min<int64_t>(o.retry_max.count(), o.retry_base.count() << std::min(failures_ - 1, 20));
  thread_local std::minstd_rand random{std::random_device{}()};
  const int64_t wait = std::uniform_int_distribution<int64_t>(
      o.retry_base.count(), std::max(ceiling, o.retry_base.count()))(random);
  next_attempt_ = now + std::chrono::milliseconds(wait);
  if (failures_ == 1 || failures_ % 20 == 0) {
    spdlog::warn(
        "storage '{}': upload of stream id {} bucket log {} failed ({} in a row), next try in {} "
        "ms: {}",
        o.name, stream_id_.value(), bucket_.value(), failures_, wait, st.ToString());
  }
}

void S3BucketCore::Close() {
  std::lock_guard upload_lock(upload_mu_);
  if (closed_) return;
  closed_ = true;
  // What waits here no longer counts against the storage's limit; a reopen counts it again.
  uint64_t pending = 0;
  std::shared_lock lock(mu_);
  for (const auto& [base, segment] : segments_) {
    if (!segment.released) pending += segment.local_bytes;
  }
  shared_->pending_local_bytes.fetch_sub(pending);
}

Status S3BucketCore::UploadSealed() {
  while (true) {
    std::optional<Sequence> next;
    bool release_only = false;
    {
      std::shared_lock lock(mu_);
      for (const auto& [base, segment] : segments_) {
        if (segment.released) continue;
        if (!segment.sealed) break;
        next = base;
        release_only = segment.remote;
        break;
      }
    }
    if (!next) return Status::OK();
    if (!release_only) HIGGINS_RETURN_IF_ERROR(UploadSegment(*next));
    uint64_t freed = 0;
    {
      std::unique_lock lock(mu_);  // no local read of the segment runs now
      HIGGINS_RETURN_IF_ERROR(wal_->ReleaseSegment(*next));
      Segment& segment = segments_.at(*next);
      segment.released = true;
      freed = segment.local_bytes;
    }
    shared_->pending_local_bytes.fetch_sub(freed);
  }
}

Status S3BucketCore::UploadSegment(Sequence base) {
  std::vector<Entry> entries;
  {
    std::shared_lock lock(mu_);
    auto first =
        std::lower_bound(entries_.begin(), entries_.end(), base,
                         [](const Entry& e, Sequence s) { return e.info.base_sequence < s; });
    for (auto it = first; it != entries_.end() && it->info.location.segment == base.value(); ++it) {
      entries.push_back(*it);
    }
  }
  // Sealed entries never change and only this thread releases them: read without the lock.
  std::vector<SealedEntry> sealed;
  sealed.reserve(entries.size());
  for (const Entry& entry : entries) {
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, wal_->Read(entry.local));
    sealed.push_back({entry.info.base_sequence, entry.info.timestamp_ms, std::move(batch)});
  }
  HIGGINS_ASSIGN_OR_RETURN(Buffer object,
                           EncodeSegmentObject(schema_, stream_id_, bucket_, base, sealed));
  sealed.clear();
  // The footer this process just wrote gives the blocks, as a restart would read them.
  const std::span<const uint8_t> bytes = object.span();
  HIGGINS_ASSIGN_OR_RETURN(uint32_t footer_length,
                           DecodeObjectTrailer(bytes.last(kObjectTrailerSize), bytes.size()));
  HIGGINS_ASSIGN_OR_RETURN(
      SegmentObjectInfo info,
      DecodeSegmentObjectFooter(
          bytes.subspan(bytes.size() - kObjectTrailerSize - footer_length, footer_length), *schema_,
          stream_id_, bucket_, base, bytes.size()));
  if (info.entries.size() != entries.size()) {
    return Status::Internal("segment object of " + std::to_string(entries.size()) +
                            " entries lists " + std::to_string(info.entries.size()));
  }
  const std::string key = ObjectKey(base);
  if (Status put = shared_->store->Put(key, bytes); !put.ok()) {
    shared_->failed_uploads.fetch_add(1);
    shared_->SetUploadError(put);
    return put;
  }
  shared_->SetUploadError(Status::OK());
  shared_->uploaded_objects.fetch_add(1);
  shared_->uploaded_bytes.fetch_add(bytes.size());
  std::unique_lock lock(mu_);
  auto it = std::lower_bound(entries_.begin(), entries_.end(), base,
                             [](const Entry& e, Sequence s) { return e.info.base_sequence < s; });
  for (const ObjectEntry& object_entry : info.entries) {
    it->block = object_entry.block;
    ++it;
  }
  segments_.at(base).remote = true;
  return Status::OK();
}

Status S3BucketCore::RemoteError(const Entry& entry, const Status& cause) const {
  return Status(cause.code(), "storage '" + shared_->options.name + "': reading sequence " +
                                  ToString(entry.info.base_sequence) + " of stream id " +
                                  ToString(stream_id_) + " bucket log " + ToString(bucket_) +
                                  " from object storage: " + cause.message());
}

Result<arrow::RecordBatch> S3BucketCore::DecodeRemote(const Entry& entry,
                                                      const Buffer& message) const {
  arrow::ipc::ReadOptions options;  // validate_full: the bytes come from outside the process
  auto batch = arrow::ipc::ReadRecordBatchMessage(schema_, message, options);
  if (!batch.ok()) {
    return RemoteError(entry, Status::Corruption(ObjectKey(Sequence(entry.info.location.segment)) +
                                                 ": " + batch.status().ToString()));
  }
  if (batch->num_rows() != entry.info.row_count) {
    return RemoteError(entry, Status::Corruption(ObjectKey(Sequence(entry.info.location.segment)) +
                                                 ": the record batch holds another row count"));
  }
  return batch;
}

Result<arrow::RecordBatch> S3BucketCore::Read(const EntryLocation& location) const {
  Entry entry;
  {
    std::shared_lock lock(mu_);
    auto it = std::lower_bound(entries_.begin(), entries_.end(), Sequence(location.position),
                               [](const Entry& e, Sequence s) { return e.info.base_sequence < s; });
    if (it == entries_.end() || !(it->info.location == location)) {
      return Status::NotFound("no entry at segment " + std::to_string(location.segment) +
                              ", sequence " + std::to_string(location.position) + " in stream id " +
                              ToString(stream_id_) + " bucket log " + ToString(bucket_));
    }
    if (!segments_.at(Sequence(location.segment)).remote) return wal_->Read(it->local);
    entry = *it;
  }
  const std::string key = ObjectKey(Sequence(location.segment));
  const auto offset = static_cast<uint64_t>(entry.block.offset);
  std::optional<Buffer> message = shared_->cache.Get(key, offset);
  if (!message) {
    auto fetched = shared_->store->Get(
        key, offset, entry.block.metadata_length + static_cast<uint64_t>(entry.block.body_length));
    shared_->remote_reads.fetch_add(1);
    if (!fetched.ok()) return RemoteError(entry, fetched.status());
    message = *std::move(fetched);
    shared_->cache.Put(key, offset, *message);
  }
  return DecodeRemote(entry, *message);
}

Status S3BucketCore::Scan(
    Sequence from_sequence,
    const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const {
  size_t index;
  size_t end;
  {
    std::shared_lock lock(mu_);
    end = entries_.size();
    index = FirstEntryEndingAfter(entries_, from_sequence,
                                  [](const Entry& e) -> const EntryInfo& { return e.info; });
  }
  while (index < end) {
    std::vector<Entry> run;  // consecutive uploaded entries of one object
    {
      std::shared_lock lock(mu_);
      const Entry& first = entries_[index];
      const uint64_t segment = first.info.location.segment;
      if (!segments_.at(Sequence(segment)).remote) {
        HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, wal_->Read(first.local));
        const EntryInfo info = first.info;
        lock.unlock();
        HIGGINS_RETURN_IF_ERROR(fn(info, batch));
        ++index;
        continue;
      }
      const auto start = static_cast<uint64_t>(first.block.offset);
      for (size_t i = index; i < end && entries_[i].info.location.segment == segment; ++i) {
        const Entry& e = entries_[i];
        if (!run.empty() && static_cast<uint64_t>(e.block.offset) + e.block.metadata_length +
                                    static_cast<uint64_t>(e.block.body_length) - start >
                                kScanFetchBytes) {
          break;
        }
        run.push_back(e);
      }
    }
    const Entry& last = run.back();
    const auto start = static_cast<uint64_t>(run.front().block.offset);
    const uint64_t stop = static_cast<uint64_t>(last.block.offset) + last.block.metadata_length +
                          static_cast<uint64_t>(last.block.body_length);
    auto fetched = shared_->store->Get(ObjectKey(Sequence(run.front().info.location.segment)),
                                       start, stop - start);
    shared_->remote_reads.fetch_add(1);
    if (!fetched.ok()) return RemoteError(run.front(), fetched.status());
    for (const Entry& e : run) {
      const Buffer message =
          fetched->Slice(static_cast<uint64_t>(e.block.offset) - start,
                         e.block.metadata_length + static_cast<uint64_t>(e.block.body_length));
      HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, DecodeRemote(e, message));
      HIGGINS_RETURN_IF_ERROR(fn(e.info, batch));
    }
    index += run.size();
  }
  return Status::OK();
}

}  // namespace higgins::storage
