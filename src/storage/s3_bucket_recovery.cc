// S3BucketCore::Open: rebuilds a bucket from its objects and its local log after a restart
// (docs/storage-format.md, "Segment objects").
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "common/file_util.h"
#include "storage/s3_bucket_log.h"
#include "storage/segment.h"

namespace higgins::storage {

Result<SegmentObjectInfo> ReadSegmentObjectFooter(s3::ObjectStore& store,
                                                  const s3::ObjectInfo& object,
                                                  const arrow::Schema& schema, StreamId stream_id,
                                                  BucketId bucket, Sequence base) {
  if (object.size < kObjectTrailerSize + 8) {
    return Status::Corruption(object.key + ": " + std::to_string(object.size) +
                              " bytes is too small for an Arrow IPC file");
  }
  HIGGINS_ASSIGN_OR_RETURN(
      Buffer trailer, store.Get(object.key, object.size - kObjectTrailerSize, kObjectTrailerSize));
  auto length = DecodeObjectTrailer(trailer.span(), object.size);
  if (!length.ok()) return Status::Corruption(object.key + ": " + length.status().message());
  HIGGINS_ASSIGN_OR_RETURN(
      Buffer footer, store.Get(object.key, object.size - kObjectTrailerSize - *length, *length));
  return DecodeSegmentObjectFooter(footer.span(), schema, stream_id, bucket, base, object.size);
}

Result<std::shared_ptr<S3BucketCore>> S3BucketCore::Open(const std::shared_ptr<S3Shared>& shared,
                                                         std::string local_directory,
                                                         StreamId stream_id, BucketId bucket,
                                                         arrow::SchemaPtr schema,
                                                         Sequence durable_sequence) {
  std::shared_ptr<S3BucketCore> core(new S3BucketCore(shared, stream_id, bucket, schema));
  const std::string where = "storage '" + shared->options.name + "', stream id " +
                            ToString(stream_id) + " bucket log " + ToString(bucket);
  // 1. The uploaded segments, contiguous from sequence 0.
  const std::string prefix =
      shared->options.prefix + ToString(stream_id) + "/" + ToString(bucket) + "/";
  auto listed = shared->store->List(prefix);
  if (!listed.ok()) {
    return Status(listed.status().code(),
                  where + ": listing the objects failed: " + listed.status().message());
  }
  std::vector<std::pair<Sequence, s3::ObjectInfo>> objects;
  for (const s3::ObjectInfo& object : *listed) {
    const std::string_view name = std::string_view(object.key).substr(prefix.size());
    if (auto base = ParseSegmentObjectName(name)) objects.emplace_back(*base, object);
  }
  std::sort(objects.begin(), objects.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Sequence remote_end;
  std::set<Sequence> remote_bases;
  for (const auto& [base, object] : objects) {
    if (base != remote_end) {
      return Status::Corruption(where + ": object " + object.key + " starts at sequence " +
                                ToString(base) + " but the objects before it end at " +
                                ToString(remote_end));
    }
    auto info = ReadSegmentObjectFooter(*shared->store, object, *schema, stream_id, bucket, base);
    if (!info.ok()) {
      return Status(info.status().code(), where + ": " + info.status().message());
    }
    Segment segment;
    segment.base = base;
    segment.end = info->end_sequence();
    segment.entries = static_cast<uint32_t>(info->entries.size());
    segment.sealed = segment.remote = segment.released = true;
    core->segments_[base] = segment;
    for (const ObjectEntry& e : info->entries) {
      Entry entry;
      entry.info = {e.base_sequence,
                    e.row_count,
                    e.timestamp_ms,
                    {base.value(), e.base_sequence.value(), e.row_count}};
      entry.block = e.block;
      core->entries_.push_back(entry);
    }
    remote_bases.insert(base);
    remote_end = segment.end;
  }
  // 2. Local segments an earlier process uploaded but had not yet removed.
  HIGGINS_RETURN_IF_ERROR(CreateDirectories(local_directory));
  HIGGINS_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirectory(local_directory));
  bool removed = false;
  for (const std::string& name : names) {
    auto base = ParseSegmentFileName(name);
    if (!base || *base >= remote_end) continue;
    std::string path = local_directory;
    path.append("/").append(name);
    if (remote_bases.count(*base) == 0) {
      std::string message = where;
      message.append(": local segment ").append(path).append(" starts at sequence ");
      message.append(ToString(*base))
          .append(", inside the uploaded objects but at none of their starts");
      return Status::Corruption(std::move(message));
    }
    spdlog::info("storage '{}': removing {}, already uploaded", shared->options.name, path);
    if (::unlink(path.c_str()) != 0) return ErrnoError("remove", path, errno);
    removed = true;
  }
  if (removed) HIGGINS_RETURN_IF_ERROR(SyncDirectory(local_directory));
  // 3. The local log, from where the objects end.
  HIGGINS_ASSIGN_OR_RETURN(
      core->wal_,
      FileBucketLog::Open(std::move(local_directory), stream_id, bucket, std::move(schema),
                          {.segment_bytes = shared->options.segment_bytes,
                           .durable_sequence = durable_sequence,
                           .first_sequence = remote_end}));
  const auto now = std::chrono::steady_clock::now();
  uint64_t pending = 0;
  uint64_t newest_end = 0;  // where the last local entry ends in its segment file
  for (const EntryInfo& local : core->wal_->entries()) {
    const Sequence base(local.location.segment);
    Segment& segment = core->segments_[base];
    if (segment.entries == 0) {
      segment.base = base;
      segment.first_append = now;
    }
    segment.end = local.end_sequence();
    segment.entries += 1;
    segment.local_bytes += local.location.size;
    pending += local.location.size;
    newest_end = local.location.position + local.location.size;
    Entry entry;
    entry.info = local;
    entry.info.location = {base.value(), local.base_sequence.value(), local.row_count};
    entry.local = local.location;
    core->entries_.push_back(entry);
  }
  // Every local segment but the newest is complete. The newest is appended to again unless it
  // is full by Append's measure: then the process before sealed it (its upload may have been
  // under way), and it is sealed again here, or it would wait for the next append or for
  // segment_max_age, counted from now.
  for (auto it = core->segments_.begin(); it != core->segments_.end(); ++it) {
    if (it->second.remote) continue;
    if (std::next(it) != core->segments_.end()) {
      it->second.sealed = true;
    } else if (newest_end >= shared->options.segment_bytes ||
               it->second.entries >= shared->options.segment_max_entries) {
      if (Status rolled = core->wal_->Roll(); !rolled.ok()) {
        return Status(rolled.code(), where + ": sealing the full local segment " +
                                         ToString(it->first) + " failed: " + rolled.message());
      }
      it->second.sealed = true;
    } else {
      core->has_tail_ = true;
      core->tail_base_ = it->first;
    }
  }
  shared->pending_local_bytes.fetch_add(pending);
  if (pending > 0) {
    spdlog::info("{}: {} bytes in the local log wait for upload", where, pending);
    shared->Wake();
  }
  return core;
}

}  // namespace higgins::storage
