#include "storage/file_bucket_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>

#include "higgins/arrow/ipc/reader.h"

namespace higgins::storage {
namespace {

// A frame's IPC message starts this far into the frame; reads place frames in memory so that the
// message lands 8-byte aligned and its buffers are zero-copy.
constexpr size_t kMessageOffset = kFrameHeaderSize + kBatchPrefixSize;
constexpr size_t kReadLead = (8 - kMessageOffset % 8) % 8;

bool LocationLess(const EntryInfo& entry, const EntryLocation& location) {
  const EntryLocation& l = entry.location;
  return l.segment < location.segment ||
         (l.segment == location.segment && l.position < location.position);
}

Status CorruptEntry(const EntryInfo& entry, const std::string& path, const std::string& what) {
  return Status::Corruption(path + ": entry at offset " + std::to_string(entry.location.position) +
                            " (sequence " + ToString(entry.base_sequence) + "): " + what);
}

}  // namespace

FileBucketLog::FileBucketLog(std::string directory, StreamId stream_id, BucketId bucket,
                             arrow::SchemaPtr schema, uint64_t segment_bytes)
    : directory_(std::move(directory)),
      stream_id_(stream_id),
      bucket_(bucket),
      schema_(std::move(schema)),
      segment_bytes_(segment_bytes),
      ipc_writer_(schema_) {}

FileBucketLog::~FileBucketLog() = default;

Result<std::unique_ptr<FileBucketLog>> FileBucketLog::Open(std::string directory,
                                                           StreamId stream_id, BucketId bucket,
                                                           arrow::SchemaPtr schema,
                                                           const Options& options) {
  std::unique_ptr<FileBucketLog> log(new FileBucketLog(std::move(directory), stream_id, bucket,
                                                       std::move(schema), options.segment_bytes));
  HIGGINS_RETURN_IF_ERROR(log->ipc_writer_.status());
  log->schema_message_ = log->ipc_writer_.TakeBytes();
  log->durable_sequence_ = options.durable_sequence;
  log->next_sequence_.store(options.first_sequence.value(), std::memory_order_relaxed);
  HIGGINS_RETURN_IF_ERROR(log->Recover());
  return log;
}

Result<EntryInfo> FileBucketLog::Append(const arrow::RecordBatch& batch, int64_t timestamp_ms) {
  HIGGINS_RETURN_IF_ERROR(failed_);
  if (batch.num_rows() < 1 || batch.num_rows() > INT32_MAX) {
    return Status::InvalidArgument("cannot append a batch of " + std::to_string(batch.num_rows()) +
                                   " rows (1 to 2^31-1)");
  }
  HIGGINS_RETURN_IF_ERROR(ipc_writer_.WriteBatch(batch));
  const Buffer message = ipc_writer_.TakeBytes();
  if (message.size() > kMaxFramePayload - kBatchPrefixSize) {
    return Status::InvalidArgument("record batch message of " + std::to_string(message.size()) +
                                   " bytes does not fit a frame");
  }
  if (tail_ == nullptr || (tail_entries_ > 0 && tail_writer_->end() >= segment_bytes_)) {
    HIGGINS_RETURN_IF_ERROR(StartSegment());
  }
  const Sequence sequence(next_sequence_.load(std::memory_order_relaxed));
  const auto rows = static_cast<uint32_t>(batch.num_rows());
  const EntryInfo entry{
      sequence,
      rows,
      timestamp_ms,
      {tail_->base_sequence.value(), tail_writer_->end(),
       static_cast<uint32_t>(kFrameHeaderSize + kBatchPrefixSize + message.size())}};
  uint8_t prefix[kBatchPrefixSize];
  EncodeBatchPrefix({sequence, rows, timestamp_ms}, prefix);
  HIGGINS_RETURN_IF_ERROR(tail_writer_->AppendFrame(FrameType::kBatch, {prefix, message.span()}));
  tail_unsynced_ = true;
  ++tail_entries_;
  {
    std::unique_lock lock(mutex_);
    entries_.push_back(entry);
  }
  next_sequence_.store((sequence + rows).value(), std::memory_order_release);
  return entry;
}

Status FileBucketLog::SyncTail() {
  if (tail_ == nullptr || !tail_unsynced_) return Status::OK();
  if (Status st = tail_writer_->Sync(); !st.ok()) {
    failed_ = st;
    return st;
  }
  tail_unsynced_ = false;
  return Status::OK();
}

Status FileBucketLog::Sync() {
  HIGGINS_RETURN_IF_ERROR(failed_);
  HIGGINS_RETURN_IF_ERROR(SyncTail());
  if (directory_unsynced_) {
    HIGGINS_RETURN_IF_ERROR(SyncDirectory(directory_));
    directory_unsynced_ = false;
  }
  return Status::OK();
}

Status FileBucketLog::StartSegment() {
  // A segment is complete on disk before a newer one exists, so that only the newest segment
  // can ever have a torn tail.
  HIGGINS_RETURN_IF_ERROR(SyncTail());
  auto segment = std::make_unique<Segment>();
  segment->base_sequence = Sequence(next_sequence_.load(std::memory_order_relaxed));
  segment->path = directory_ + "/" + SegmentFileName(segment->base_sequence);
  HIGGINS_ASSIGN_OR_RETURN(segment->file, OpenFile(segment->path, O_RDWR | O_CREAT | O_EXCL, 0644));
  uint8_t header[kSegmentHeaderSize];
  EncodeSegmentHeader({stream_id_, bucket_, segment->base_sequence}, header);
  uint8_t frame_header[kFrameHeaderSize];
  EncodeFrameHeader(FrameType::kSchema, {schema_message_.span()}, frame_header);
  auto writer = std::make_unique<LogWriter>(segment->file.fd(), segment->path, 0);
  if (Status st = writer->Append({header, frame_header, schema_message_.span()}); !st.ok()) {
    ::unlink(segment->path.c_str());
    return st;
  }
  tail_ = segment.get();
  tail_writer_ = std::move(writer);
  tail_entries_ = 0;
  tail_unsynced_ = true;
  directory_unsynced_ = true;
  std::unique_lock lock(mutex_);
  segments_.emplace(tail_->base_sequence, std::move(segment));
  return Status::OK();
}

Status FileBucketLog::Roll() {
  HIGGINS_RETURN_IF_ERROR(failed_);
  if (tail_ == nullptr || tail_entries_ == 0) return Status::OK();
  HIGGINS_RETURN_IF_ERROR(Sync());
  tail_ = nullptr;
  tail_writer_.reset();
  tail_entries_ = 0;
  return Status::OK();
}

Status FileBucketLog::ReleaseSegment(Sequence base_sequence) {
  std::string path;
  {
    std::unique_lock lock(mutex_);
    auto it = segments_.find(base_sequence);
    if (it == segments_.end() || it != segments_.begin() || it->second.get() == tail_) {
      return Status::InvalidArgument("segment " + ToString(base_sequence) + " of " + directory_ +
                                     " is not the oldest sealed segment");
    }
    path = it->second->path;
    auto end = std::find_if(entries_.begin(), entries_.end(), [&](const EntryInfo& e) {
      return e.location.segment != base_sequence.value();
    });
    entries_.erase(entries_.begin(), end);
    segments_.erase(it);  // closes the file
  }
  if (::unlink(path.c_str()) != 0) return ErrnoError("remove", path, errno);
  return SyncDirectory(directory_);
}

std::vector<EntryInfo> FileBucketLog::entries() const {
  std::shared_lock lock(mutex_);
  return entries_;
}

Result<arrow::RecordBatch> FileBucketLog::Read(const EntryLocation& location) const {
  EntryInfo entry;
  const Segment* segment = nullptr;
  {
    std::shared_lock lock(mutex_);
    auto it = std::lower_bound(entries_.begin(), entries_.end(), location, LocationLess);
    if (it == entries_.end() || !(it->location == location)) {
      return Status::NotFound("no entry at segment " + std::to_string(location.segment) +
                              ", position " + std::to_string(location.position) + ", size " +
                              std::to_string(location.size) + " in " + directory_);
    }
    entry = *it;
    segment = segments_.at(Sequence(location.segment)).get();
  }
  return ReadEntry(entry, *segment);
}

Result<arrow::RecordBatch> FileBucketLog::ReadEntry(const EntryInfo& entry,
                                                    const Segment& segment) const {
  const size_t size = entry.location.size;
  BufferBuilder builder;
  uint8_t* frame_start = builder.AppendUninitialized(kReadLead + size) + kReadLead;
  HIGGINS_RETURN_IF_ERROR(
      ReadFully(segment.file.fd(), segment.path, entry.location.position, frame_start, size));
  const Buffer bytes = builder.Finish();
  const DecodedFrame frame = DecodeFrame({frame_start, size});
  if (frame.error != FrameError::kNone) {
    return CorruptEntry(entry, segment.path, std::string(FrameErrorName(frame.error)));
  }
  if (frame.size != size || frame.type != static_cast<uint8_t>(FrameType::kBatch) ||
      frame.payload.size() < kBatchPrefixSize) {
    return CorruptEntry(entry, segment.path, "not the batch frame the index points at");
  }
  const BatchPrefix prefix = DecodeBatchPrefix(frame.payload.data());
  if (prefix.base_sequence != entry.base_sequence || prefix.row_count != entry.row_count) {
    return CorruptEntry(entry, segment.path, "batch prefix disagrees with the entry");
  }
  arrow::ipc::ReadOptions options;
  options.validate_full = entry.base_sequence < trusted_from_;
  auto batch = arrow::ipc::ReadRecordBatchMessage(
      schema_, bytes.Slice(kReadLead + kMessageOffset, size - kMessageOffset), options);
  if (!batch.ok()) return CorruptEntry(entry, segment.path, batch.status().ToString());
  if (batch->num_rows() != entry.row_count) {
    return CorruptEntry(entry, segment.path, "record batch row count disagrees with the entry");
  }
  return batch;
}

Status FileBucketLog::Scan(
    Sequence from_sequence,
    const std::function<Status(const EntryInfo&, const arrow::RecordBatch&)>& fn) const {
  size_t index;
  size_t end;
  {
    std::shared_lock lock(mutex_);
    end = entries_.size();
    index = FirstEntryEndingAfter(entries_, from_sequence,
                                  [](const EntryInfo& e) -> const EntryInfo& { return e; });
  }
  for (; index < end; ++index) {
    EntryInfo entry;
    const Segment* segment;
    {
      std::shared_lock lock(mutex_);
      entry = entries_[index];
      segment = segments_.at(Sequence(entry.location.segment)).get();
    }
    HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, ReadEntry(entry, *segment));
    HIGGINS_RETURN_IF_ERROR(fn(entry, batch));
  }
  return Status::OK();
}

}  // namespace higgins::storage
