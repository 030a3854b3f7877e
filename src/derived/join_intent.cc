#include "derived/join_intent.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "common/file_util.h"
#include "storage/crc32.h"

namespace higgins::derived {
namespace {

void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
template <int kWidth>
uint64_t GetLe(std::string_view bytes, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < kWidth; ++i) {
    v |= uint64_t{static_cast<uint8_t>(bytes[at + static_cast<size_t>(i)])} << (8 * i);
  }
  return v;
}
uint32_t Crc(std::string_view bytes) {
  return storage::Crc32(0, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}
Status Errno(const std::string& what, const std::string& path) {
  return Status::IOError(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

std::string EncodeJoinIntent(const JoinIntent& intent) {
  std::string payload;
  PutU32(&payload, static_cast<uint32_t>(intent.from.size()));
  for (Sequence v : intent.from) PutU64(&payload, v.value());
  for (Sequence v : intent.to) PutU64(&payload, v.value());
  std::string out;
  PutU32(&out, static_cast<uint32_t>(payload.size()));
  PutU32(&out, Crc(payload));
  return out + payload;
}

std::optional<JoinIntent> LastJoinIntent(std::string_view log) {
  std::optional<JoinIntent> last;
  size_t at = 0;
  while (log.size() - at >= 8) {
    const uint64_t length = GetLe<4>(log, at);
    const uint32_t crc = static_cast<uint32_t>(GetLe<4>(log, at + 4));
    if (length < 4 || length > log.size() - at - 8) break;
    const std::string_view payload = log.substr(at + 8, length);
    if (Crc(payload) != crc) break;
    const uint64_t n = GetLe<4>(payload, 0);
    if (length != 4 + 16 * n) break;
    JoinIntent intent;
    for (size_t i = 0; i < n; ++i) intent.from.emplace_back(GetLe<8>(payload, 4 + 8 * i));
    for (size_t i = 0; i < n; ++i) intent.to.emplace_back(GetLe<8>(payload, 4 + 8 * (n + i)));
    last = std::move(intent);
    at += 8 + length;
  }
  return last;
}

Result<std::unique_ptr<JoinIntentLog>> JoinIntentLog::Open(std::string path, bool sync) {
  std::unique_ptr<JoinIntentLog> log(new JoinIntentLog(std::move(path), sync));
  auto text = ReadFileToString(log->path_, size_t{64} << 20);
  if (text.ok()) {
    log->last_ = LastJoinIntent(*text);
  } else if (text.status().code() != StatusCode::kNotFound) {
    return text.status();
  }
  // Drop a torn tail (and older intents): later appends must follow a whole record.
  const std::string kept = log->last_ ? EncodeJoinIntent(*log->last_) : std::string();
  if (text.ok() && *text != kept) HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(log->path_, kept));
  HIGGINS_RETURN_IF_ERROR(log->OpenForAppend());
  return log;
}

JoinIntentLog::~JoinIntentLog() {
  if (fd_ >= 0) ::close(fd_);
}

Status JoinIntentLog::OpenForAppend() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) return Errno("cannot open", path_);
  const off_t end = ::lseek(fd_, 0, SEEK_END);
  if (end < 0) return Errno("cannot seek", path_);
  size_ = static_cast<size_t>(end);
  return Status::OK();
}

Status JoinIntentLog::Append(const JoinIntent& intent) {
  const std::string record = EncodeJoinIntent(intent);
  if (broken_ || size_ + record.size() > kRotateBytes) {
    // After a failed append the file may end in a torn record: replace it whole.
    broken_ = true;
    HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(path_, record));
    HIGGINS_RETURN_IF_ERROR(OpenForAppend());
    broken_ = false;
  } else {
    broken_ = true;  // until this append is whole and synced
    size_t written = 0;
    while (written < record.size()) {
      const ssize_t n = ::write(fd_, record.data() + written, record.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno("cannot write", path_);
      written += static_cast<size_t>(n);
    }
    size_ += record.size();
    if (sync_ && ::fdatasync(fd_) != 0) return Errno("cannot sync", path_);
    broken_ = false;
  }
  last_ = intent;
  return Status::OK();
}

}  // namespace higgins::derived
