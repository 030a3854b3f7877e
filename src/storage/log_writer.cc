#include "storage/log_writer.h"

#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cassert>
#include <cerrno>

#include "common/file_util.h"

namespace higgins::storage {
namespace {

constexpr size_t kMaxPieces = 8;

iovec ToIovec(ByteSpan bytes) {
  return {const_cast<uint8_t*>(bytes.data()), bytes.size()};
}

}  // namespace

Status LogWriter::Append(std::initializer_list<ByteSpan> pieces) {
  assert(pieces.size() <= kMaxPieces);
  std::array<iovec, kMaxPieces> iov;
  int count = 0;
  size_t total = 0;
  for (ByteSpan piece : pieces) {
    if (piece.empty()) continue;
    iov[static_cast<size_t>(count++)] = ToIovec(piece);
    total += piece.size();
  }
  return Write({iov.data(), static_cast<size_t>(count)}, total);
}

Status LogWriter::AppendFrame(FrameType type, std::initializer_list<ByteSpan> payload) {
  assert(payload.size() < kMaxPieces);
  uint8_t header[kFrameHeaderSize];
  EncodeFrameHeader(type, payload, header);
  std::array<iovec, kMaxPieces> iov;
  iov[0] = ToIovec({header, kFrameHeaderSize});
  int count = 1;
  size_t total = kFrameHeaderSize;
  for (ByteSpan piece : payload) {
    if (piece.empty()) continue;
    iov[static_cast<size_t>(count++)] = ToIovec(piece);
    total += piece.size();
  }
  return Write({iov.data(), static_cast<size_t>(count)}, total);
}

Status LogWriter::Write(std::span<const iovec> pieces, size_t total) {
  HIGGINS_RETURN_IF_ERROR(broken_);
  if (total == 0) return Status::OK();
  ssize_t written;
  do {
    written =
        ::pwritev(fd_, pieces.data(), static_cast<int>(pieces.size()), static_cast<off_t>(end_));
  } while (written < 0 && errno == EINTR);
  if (written >= 0 && static_cast<size_t>(written) == total) {
    end_ += total;
    return Status::OK();
  }
  Status failure = written < 0
                       ? ErrnoError("write", path_, errno)
                       : Status::IOError("write " + path_ + ": short write of " +
                                         std::to_string(written) + " of " + std::to_string(total) +
                                         " bytes (file size limit or disk full)");
  if (::ftruncate(fd_, static_cast<off_t>(end_)) != 0) {
    broken_ =
        ErrnoError("cutting back a failed write of", path_, errno).WithContext(failure.message());
    return broken_;
  }
  return failure;
}

Status LogWriter::Sync() {
  HIGGINS_RETURN_IF_ERROR(broken_);
  if (::fdatasync(fd_) != 0) return ErrnoError("fdatasync", path_, errno);
  return Status::OK();
}

}  // namespace higgins::storage
