// FileBucketLog::Recover: rebuilds the entry list from the segment files when a bucket is opened
// (docs/storage-format.md, "Recovery").
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "storage/file_bucket_log.h"
#include "storage/segment_scan.h"

namespace higgins::storage {

Status FileBucketLog::Recover() {
  HIGGINS_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirectory(directory_));
  std::vector<Sequence> bases;
  for (const std::string& name : names) {
    if (auto base = ParseSegmentFileName(name)) bases.push_back(*base);
  }
  std::sort(bases.begin(), bases.end());
  for (size_t i = 0; i < bases.size(); ++i) {
    HIGGINS_RETURN_IF_ERROR(RecoverSegment(bases[i], i + 1 == bases.size()));
  }
  const Sequence recovered(next_sequence_.load(std::memory_order_relaxed));
  if (recovered < durable_sequence_) {
    return Status::Corruption(directory_ + ": the log holds " + ToString(recovered) + " rows but " +
                              ToString(durable_sequence_) +
                              " were synced and indexed: segment data is missing or damaged");
  }
  trusted_from_ = recovered;
  return SyncRecoveredTail();
}

Status FileBucketLog::SyncRecoveredTail() {
  // The newest segment may hold entries written by an earlier process that stopped before it
  // synced them: still in the page cache (so the scan above saw them), not on the disk. They
  // become visible, indexed and derived from as soon as the log is open, so they must be durable
  // first; otherwise a power loss after a restart takes back records that were served, and
  // leaves the index (and derived streams) ahead of the data. The folder too: the newest
  // segment's name may not have been synced either.
  if (tail_ == nullptr) return Status::OK();
  HIGGINS_RETURN_IF_ERROR(tail_writer_->Sync());
  return SyncDirectory(directory_);
}

Status FileBucketLog::RecoverSegment(Sequence base_sequence, bool newest) {
  const Sequence expected_base(next_sequence_.load(std::memory_order_relaxed));
  auto segment = std::make_unique<Segment>();
  segment->base_sequence = base_sequence;
  segment->path = directory_ + "/" + SegmentFileName(base_sequence);
  if (base_sequence != expected_base) {
    return Status::Corruption(segment->path + ": segment starts at sequence " +
                              ToString(base_sequence) + " but the log holds " +
                              ToString(expected_base) + " rows before it");
  }
  HIGGINS_ASSIGN_OR_RETURN(segment->file, OpenFile(segment->path, newest ? O_RDWR : O_RDONLY));
  HIGGINS_ASSIGN_OR_RETURN(ScannedSegment scanned,
                           ScanSegment(segment->file.fd(), segment->path,
                                       {stream_id_, bucket_, base_sequence}, *schema_));
  const bool damaged = scanned.damage != FrameError::kNone || !scanned.has_schema;
  if (damaged && !newest) {
    const std::string what = scanned.damage != FrameError::kNone
                                 ? std::string(FrameErrorName(scanned.damage))
                                 : "incomplete header or schema frame";
    return Status::Corruption(segment->path + ": " + what + " after offset " +
                              std::to_string(scanned.valid_end) +
                              " in a segment that is not the newest (it was synced whole)");
  }
  if (!scanned.has_schema) {
    // Created but never completed: it holds no entry. Remove it; the next Append recreates it.
    spdlog::warn("storage: removing {} ({} bytes): its header or schema frame is incomplete",
                 segment->path, scanned.file_size);
    if (::unlink(segment->path.c_str()) != 0) {
      return ErrnoError("remove", segment->path, errno);
    }
    return SyncDirectory(directory_);
  }
  if (damaged && scanned.next_sequence < durable_sequence_) {
    // The index proves the entries after the damage were synced: not a torn write.
    return Status::Corruption(segment->path + ": " + std::string(FrameErrorName(scanned.damage)) +
                              " at offset " + std::to_string(scanned.valid_end) + ", sequence " +
                              ToString(scanned.next_sequence) + ", below the " +
                              ToString(durable_sequence_) +
                              " rows known to be synced. Refusing to cut acknowledged records: "
                              "restore the file, or truncate it at that offset to accept the loss");
  }
  if (damaged) {
    spdlog::warn("storage: cutting the torn tail of {}: {} at offset {}, {} bytes dropped",
                 segment->path, FrameErrorName(scanned.damage), scanned.valid_end,
                 scanned.file_size - scanned.valid_end);
    HIGGINS_RETURN_IF_ERROR(TruncateAndSync(segment->file.fd(), segment->path, scanned.valid_end));
  }
  if (newest) {
    tail_ = segment.get();
    tail_writer_ =
        std::make_unique<LogWriter>(segment->file.fd(), segment->path, scanned.valid_end);
    tail_entries_ = scanned.entries.size();
  }
  std::unique_lock lock(mutex_);
  entries_.insert(entries_.end(), scanned.entries.begin(), scanned.entries.end());
  segments_.emplace(base_sequence, std::move(segment));
  next_sequence_.store(scanned.next_sequence.value(), std::memory_order_release);
  return Status::OK();
}

}  // namespace higgins::storage
