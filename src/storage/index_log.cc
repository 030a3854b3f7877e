#include "storage/index_log.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/file_util.h"
#include "storage/index_codec.h"
#include "storage/log_reader.h"
#include "storage/log_writer.h"

namespace higgins::storage {
namespace {

void EncodeIndexHeader(uint8_t* out) {
  std::memset(out, 0, kIndexHeaderSize);
  std::memcpy(out, kIndexMagic.data(), kIndexMagic.size());
  out[kIndexVersionOffset] = kIndexFormatVersion;
}

/// The index file of one bucket. Records are framed into `pending_` by Append and written by
/// Flush in one write. Not thread-safe.
class FileIndexLog final : public IndexLog {
 public:
  FileIndexLog(FileHandle file, const std::string& path, uint64_t end)
      : file_(std::move(file)), writer_(file_.fd(), path, end) {}

  ~FileIndexLog() override {
    // Best effort: the index may lag the data, and recovery rebuilds what is missing.
    if (Status st = Flush(false); !st.ok()) {
      spdlog::warn("storage: index records not written on close: {}", st.ToString());
    }
  }

  Status Append(const IndexRecord& record) override {
    HIGGINS_RETURN_IF_ERROR(CheckIndexRecord(record));
    scratch_.Clear();
    EncodeIndexRecord(record, scratch_);
    if (scratch_.size() > kMaxFramePayload) {
      return Status::InvalidArgument("index record of " + std::to_string(scratch_.size()) +
                                     " bytes does not fit a frame");
    }
    AppendFrame(FrameType::kIndexRecord, {scratch_.data(), scratch_.size()}, pending_);
    if (pending_.size() >= kIndexBufferBytes) return Flush(false);
    return Status::OK();
  }

  Status Flush(bool sync) override {
    HIGGINS_RETURN_IF_ERROR(failed_);
    if (pending_.size() > 0) {
      HIGGINS_RETURN_IF_ERROR(writer_.Append({{pending_.data(), pending_.size()}}));
      pending_.Clear();
    }
    if (sync) {
      if (Status st = writer_.Sync(); !st.ok()) {
        failed_ = st;
        return st;
      }
    }
    return Status::OK();
  }

 private:
  FileHandle file_;
  LogWriter writer_;
  BufferBuilder pending_;  // whole frames not yet written
  BufferBuilder scratch_;  // one record's payload
  Status failed_;          // sticky: a failed fdatasync
};

/// Reads the header and every record after it; cuts a damaged tail. Returns where the file ends.
Result<uint64_t> ReadIndexFile(int fd, const std::string& path, uint64_t size,
                               std::vector<IndexRecord>* records) {
  uint8_t header[kIndexHeaderSize];
  HIGGINS_RETURN_IF_ERROR(ReadFully(fd, path, 0, header, sizeof(header)));
  if (std::memcmp(header, kIndexMagic.data(), kIndexMagic.size()) != 0) {
    return Status::Corruption(path + ": not a Higgins index file (missing \"HGIDX\" magic)");
  }
  if (header[kIndexVersionOffset] != kIndexFormatVersion) {
    return Status::Corruption(path + ": unsupported index format version " +
                              std::to_string(header[kIndexVersionOffset]));
  }
  LogReader reader(fd, path, kIndexHeaderSize, size);
  while (true) {
    HIGGINS_ASSIGN_OR_RETURN(std::optional<LogReader::Frame> frame, reader.Next());
    if (!frame) break;
    const std::string where = path + " at offset " + std::to_string(frame->position);
    if (frame->type != static_cast<uint8_t>(FrameType::kIndexRecord)) {
      return Status::Corruption(where + ": unexpected frame type " + std::to_string(frame->type));
    }
    auto record = DecodeIndexRecord(frame->payload);
    if (!record.ok()) return record.status().WithContext(where);
    records->push_back(std::move(record).value());
  }
  if (reader.error() != FrameError::kNone) {
    spdlog::warn("storage: cutting the torn tail of {}: {} at offset {}, {} bytes dropped", path,
                 FrameErrorName(reader.error()), reader.valid_end(), size - reader.valid_end());
    HIGGINS_RETURN_IF_ERROR(TruncateAndSync(fd, path, reader.valid_end()));
  }
  return reader.valid_end();
}

/// Writes the header of an empty (or torn-header) file and makes it durable.
Status InitializeIndexFile(int fd, const std::string& path, uint64_t size, bool created) {
  if (size > 0) {
    spdlog::warn("storage: rewriting the torn header of {} ({} bytes)", path, size);
    HIGGINS_RETURN_IF_ERROR(TruncateAndSync(fd, path, 0));
  }
  uint8_t header[kIndexHeaderSize];
  EncodeIndexHeader(header);
  LogWriter writer(fd, path, 0);
  HIGGINS_RETURN_IF_ERROR(writer.Append({header}));
  HIGGINS_RETURN_IF_ERROR(writer.Sync());
  return created ? SyncDirectory(ParentDirectory(path)) : Status::OK();
}

}  // namespace

Result<std::unique_ptr<IndexLog>> IndexLog::Open(const std::string& path,
                                                 std::vector<IndexRecord>* records) {
  records->clear();
  const bool created = ::access(path.c_str(), F_OK) != 0 && errno == ENOENT;
  HIGGINS_ASSIGN_OR_RETURN(FileHandle file, OpenFile(path, O_RDWR | O_CREAT, 0644));
  HIGGINS_ASSIGN_OR_RETURN(uint64_t size, FileSize(file.fd(), path));
  uint64_t end = kIndexHeaderSize;
  if (size < kIndexHeaderSize) {
    HIGGINS_RETURN_IF_ERROR(InitializeIndexFile(file.fd(), path, size, created));
  } else {
    HIGGINS_ASSIGN_OR_RETURN(end, ReadIndexFile(file.fd(), path, size, records));
  }
  return std::unique_ptr<IndexLog>(std::make_unique<FileIndexLog>(std::move(file), path, end));
}

}  // namespace higgins::storage
