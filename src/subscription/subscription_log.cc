#include "subscription/subscription_log.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/file_util.h"
#include "storage/crc32.h"

namespace higgins::subscription {
namespace {

void PutU8(std::string* out, uint8_t v) {
  out->push_back(static_cast<char>(v));
}
void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutString(std::string* out, std::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out->append(s);
}
uint32_t Crc(std::string_view bytes) {
  return storage::Crc32(0, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

/// Reads fields from a payload; a read past the end sets `bad`.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  uint64_t Le(int width) {
    if (bad || bytes_.size() - at_ < static_cast<size_t>(width)) {
      bad = true;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) {
      v |= uint64_t{static_cast<uint8_t>(bytes_[at_ + static_cast<size_t>(i)])} << (8 * i);
    }
    at_ += static_cast<size_t>(width);
    return v;
  }
  std::string String() {
    const uint64_t n = Le(4);
    if (bad || bytes_.size() - at_ < n) {
      bad = true;
      return {};
    }
    std::string s(bytes_.substr(at_, n));
    at_ += n;
    return s;
  }
  /// A count of items of at least `min_item_bytes` each that the rest can hold.
  uint64_t Count(size_t min_item_bytes) {
    const uint64_t n = Le(4);
    if (!bad && n > (bytes_.size() - at_) / min_item_bytes) bad = true;
    return bad ? 0 : n;
  }
  bool done() const { return !bad && at_ == bytes_.size(); }
  bool bad = false;

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

Status Errno(const std::string& what, const std::string& path) {
  return Status::IOError(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

std::string EncodeSubscriptionRecord(const SubscriptionRecord& record) {
  std::string payload;
  PutU8(&payload, static_cast<uint8_t>(record.type));
  switch (record.type) {
    case SubscriptionRecord::Type::kCreate: {
      const SubscriptionDecl& d = record.decl;
      PutString(&payload, d.id.value());
      PutString(&payload, d.stream);
      PutU64(&payload, d.stream_id.value());
      PutU8(&payload, static_cast<uint8_t>(d.start));
      PutU64(&payload, d.start_value);
      PutU64(&payload, d.timeout_ms);
      PutU32(&payload, static_cast<uint32_t>(d.start_offsets.size()));
      for (const auto& [key, offset] : d.start_offsets) {
        PutString(&payload, key);
        PutU64(&payload, offset);
      }
      break;
    }
    case SubscriptionRecord::Type::kAcknowledge:
      PutU32(&payload, static_cast<uint32_t>(record.acknowledged.size()));
      for (const OffsetRange& r : record.acknowledged) {
        PutString(&payload, r.key);
        PutU64(&payload, r.start);
        PutU64(&payload, r.end);
      }
      break;
    case SubscriptionRecord::Type::kState:
      PutU32(&payload, static_cast<uint32_t>(record.state.size()));
      for (const auto& s : record.state) {
        PutString(&payload, s.key);
        PutU64(&payload, s.watermark);
        PutU32(&payload, static_cast<uint32_t>(s.acknowledged.size()));
        for (const auto& [a, b] : s.acknowledged) {
          PutU64(&payload, a);
          PutU64(&payload, b);
        }
      }
      break;
  }
  std::string out;
  PutU32(&out, static_cast<uint32_t>(payload.size()));
  PutU32(&out, Crc(payload));
  return out + payload;
}

Result<std::vector<SubscriptionRecord>> DecodeSubscriptionLog(std::string_view log,
                                                              size_t* valid_end) {
  std::vector<SubscriptionRecord> records;
  size_t at = 0;
  while (log.size() - at >= 8) {
    Reader header(log.substr(at, 8));
    const uint64_t length = header.Le(4);
    const uint32_t crc = static_cast<uint32_t>(header.Le(4));
    if (length == 0 || length > log.size() - at - 8) break;
    const std::string_view payload = log.substr(at + 8, length);
    const std::string where = "subscription log record at byte " + std::to_string(at);
    if (Crc(payload) != crc) {
      // A torn write leaves its record last; more bytes after it mean the file was damaged.
      if (at + 8 + length < log.size()) {
        return Status::Corruption(where + ": its checksum fails and " +
                                  std::to_string(log.size() - at - 8 - length) +
                                  " bytes follow it (not a torn write)");
      }
      break;
    }
    Reader r(payload);
    SubscriptionRecord record;
    const uint64_t type = r.Le(1);
    switch (type) {
      case 1: {
        record.type = SubscriptionRecord::Type::kCreate;
        SubscriptionDecl& d = record.decl;
        d.id = SubscriptionId(r.String());
        d.stream = r.String();
        d.stream_id = StreamId(r.Le(8));
        const uint64_t start = r.Le(1);
        if (start > 3) return Status::Corruption(where + ": unknown start kind");
        d.start = static_cast<SubscriptionStartKind>(start);
        d.start_value = r.Le(8);
        d.timeout_ms = r.Le(8);
        const uint64_t n = r.Count(12);
        for (uint64_t i = 0; i < n && !r.bad; ++i) {
          std::string key = r.String();
          d.start_offsets.emplace_back(std::move(key), r.Le(8));
        }
        break;
      }
      case 2: {
        record.type = SubscriptionRecord::Type::kAcknowledge;
        const uint64_t n = r.Count(20);
        for (uint64_t i = 0; i < n && !r.bad; ++i) {
          OffsetRange range;
          range.key = r.String();
          range.start = r.Le(8);
          range.end = r.Le(8);
          record.acknowledged.push_back(std::move(range));
        }
        break;
      }
      case 3: {
        record.type = SubscriptionRecord::Type::kState;
        const uint64_t n = r.Count(16);
        for (uint64_t i = 0; i < n && !r.bad; ++i) {
          SubscriptionState::AckState s;
          s.key = r.String();
          s.watermark = r.Le(8);
          const uint64_t m = r.Count(16);
          for (uint64_t j = 0; j < m && !r.bad; ++j) {
            const uint64_t a = r.Le(8);
            s.acknowledged.emplace_back(a, r.Le(8));
          }
          record.state.push_back(std::move(s));
        }
        break;
      }
      default: return Status::Corruption(where + ": unknown record type " + std::to_string(type));
    }
    if (!r.done()) return Status::Corruption(where + ": its fields do not match its length");
    records.push_back(std::move(record));
    at += 8 + length;
  }
  if (valid_end) *valid_end = at;
  return records;
}

SubscriptionLog::SubscriptionLog(int fd, std::string path, uint64_t size)
    : path_(std::move(path)), fd_(fd), size_(size) {}

SubscriptionLog::~SubscriptionLog() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::unique_ptr<SubscriptionLog>> SubscriptionLog::Create(std::string path,
                                                                 const SubscriptionDecl& decl) {
  SubscriptionRecord record;
  record.type = SubscriptionRecord::Type::kCreate;
  record.decl = decl;
  const std::string bytes = EncodeSubscriptionRecord(record);
  HIGGINS_RETURN_IF_ERROR(CreateDirectories(ParentDirectory(path)));
  HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(path, bytes));
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open", path);
  return std::unique_ptr<SubscriptionLog>(new SubscriptionLog(fd, std::move(path), bytes.size()));
}

Result<std::unique_ptr<SubscriptionLog>> SubscriptionLog::Open(
    std::string path, std::vector<SubscriptionRecord>* records) {
  HIGGINS_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
  size_t valid_end = 0;
  auto decoded = DecodeSubscriptionLog(bytes, &valid_end);
  if (!decoded.ok()) return decoded.status().WithContext(path);
  *records = *std::move(decoded);
  if (records->empty() || records->front().type != SubscriptionRecord::Type::kCreate) {
    return Status::Corruption(path +
                              ": the log does not start with the subscription's declaration");
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open", path);
  if (valid_end < bytes.size()) {
    spdlog::warn("{}: cutting a torn last record ({} bytes from byte {})", path,
                 bytes.size() - valid_end, valid_end);
    if (::ftruncate(fd, static_cast<off_t>(valid_end)) != 0 || ::fdatasync(fd) != 0) {
      Status s = Errno("cannot cut the torn tail of", path);
      ::close(fd);
      return s;
    }
  }
  return std::unique_ptr<SubscriptionLog>(new SubscriptionLog(fd, std::move(path), valid_end));
}

Result<uint64_t> SubscriptionLog::Append(const SubscriptionRecord& record) {
  const std::string bytes = EncodeSubscriptionRecord(record);
  std::lock_guard lock(mu_);
  if (fd_ < 0) return Status::IOError(path_ + " is closed");
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(size_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Status s = Errno("cannot write", path_);
      // Cut what was written so the file ends on a whole record again.
      if (::ftruncate(fd_, static_cast<off_t>(size_)) != 0) {
        ::close(fd_);
        fd_ = -1;
      }
      return s;
    }
    done += static_cast<size_t>(n);
  }
  size_ += bytes.size();
  written_ += bytes.size();
  return written_;
}

Status SubscriptionLog::Sync(uint64_t position) {
  std::lock_guard sync_lock(sync_mu_);
  if (synced_ >= position) return Status::OK();
  int fd;
  uint64_t target;
  {
    std::lock_guard lock(mu_);
    fd = fd_;
    target = written_;
  }
  if (fd < 0) return Status::IOError(path_ + " is closed");
  if (::fdatasync(fd) != 0) return Errno("cannot sync", path_);
  synced_ = target;
  return Status::OK();
}

Status SubscriptionLog::Rewrite(const SubscriptionDecl& decl,
                                std::vector<SubscriptionState::AckState> state) {
  SubscriptionRecord create;
  create.type = SubscriptionRecord::Type::kCreate;
  create.decl = decl;
  SubscriptionRecord snapshot;
  snapshot.type = SubscriptionRecord::Type::kState;
  snapshot.state = std::move(state);
  const std::string bytes = EncodeSubscriptionRecord(create) + EncodeSubscriptionRecord(snapshot);
  std::lock_guard sync_lock(sync_mu_);
  std::lock_guard lock(mu_);
  HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(path_, bytes));
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open", path_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  size_ = bytes.size();
  rewritten_size_ = bytes.size();
  // Everything written before is in the new file, which is durable.
  synced_ = written_;
  return Status::OK();
}

uint64_t SubscriptionLog::size() const {
  std::lock_guard lock(mu_);
  return size_;
}

uint64_t SubscriptionLog::rewritten_size() const {
  std::lock_guard lock(mu_);
  return rewritten_size_;
}

Status SubscriptionLog::Remove() {
  std::lock_guard sync_lock(sync_mu_);
  std::lock_guard lock(mu_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) return Errno("cannot remove", path_);
  return SyncDirectory(ParentDirectory(path_));
}

}  // namespace higgins::subscription
