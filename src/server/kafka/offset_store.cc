#include "server/kafka/offset_store.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "kafka/crc32c.h"
#include "kafka/wire.h"

namespace higgins::server::kafka {
namespace {

// Record layout (docs/storage-format.md): u32 length of the rest, u32 CRC-32C of the payload,
// payload: group STRING, INT32 n, n × (topic STRING, partition INT32, offset INT64,
// leader_epoch INT32, metadata NULLABLE_STRING), big-endian as the Kafka protocol writes them.
constexpr size_t kRecordHeaderBytes = 8;
constexpr size_t kMaxRecordBytes = size_t{64} << 20;
constexpr uint64_t kRewriteMinBytes = uint64_t{1} << 20;

uint32_t LoadU32(const char* p) {
  return (uint32_t{static_cast<uint8_t>(p[0])} << 24) |
         (uint32_t{static_cast<uint8_t>(p[1])} << 16) |
         (uint32_t{static_cast<uint8_t>(p[2])} << 8) | uint32_t{static_cast<uint8_t>(p[3])};
}

Status WriteAll(int fd, const std::string& path, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("write", path, errno);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

}  // namespace

std::string OffsetStore::EncodeRecord(std::string_view group, const std::vector<Commit>& commits) {
  std::string record(kRecordHeaderBytes, '\0');
  higgins::kafka::Writer writer(&record);
  writer.String(group);
  writer.ArrayLength(commits.size());
  for (const Commit& c : commits) {
    writer.String(c.topic);
    writer.Int32(c.partition);
    writer.Int64(c.committed.offset);
    writer.Int32(c.committed.leader_epoch);
    writer.NullableString(c.committed.metadata);
  }
  const std::string_view payload = std::string_view(record).substr(kRecordHeaderBytes);
  const auto length = static_cast<uint32_t>(record.size() - 4);
  const uint32_t crc = higgins::kafka::Crc32c(payload);
  for (size_t i = 0; i < 4; ++i) {
    const size_t shift = 24 - 8 * i;
    record[i] = static_cast<char>(length >> shift);
    record[4 + i] = static_cast<char>(crc >> shift);
  }
  return record;
}

Result<std::unique_ptr<OffsetStore>> OffsetStore::Open(std::string path) {
  HIGGINS_RETURN_IF_ERROR(CreateDirectories(ParentDirectory(path)));
  std::unique_ptr<OffsetStore> store(new OffsetStore(std::move(path)));
  HIGGINS_RETURN_IF_ERROR(store->Load());
  return store;
}

Status OffsetStore::Load() {
  HIGGINS_ASSIGN_OR_RETURN(file_, OpenFile(path_, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC));
  HIGGINS_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path_, uint64_t{16} << 30));
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t left = bytes.size() - pos;
    const char* at = bytes.data() + pos;
    bool whole = left >= kRecordHeaderBytes;
    uint32_t length = 0;
    if (whole) {
      length = LoadU32(at);
      whole = length >= 4 && length <= kMaxRecordBytes && left >= size_t{4} + length;
    }
    const bool crc_ok =
        whole && higgins::kafka::Crc32c(std::string_view(at + 8, length - 4)) == LoadU32(at + 4);
    if (!whole || !crc_ok) {
      // A record that ends the file and is cut short or fails its CRC is a torn append (the
      // crash came before its fdatasync returned, so its commit was never acknowledged).
      // Anything else is damage.
      if (whole && pos + 4 + length < bytes.size()) {
        return Status::Corruption(path_ + ": the record at byte " + std::to_string(pos) +
                                  " fails its CRC, and records follow it");
      }
      spdlog::warn("{}: cutting a torn record at byte {} ({} bytes)", path_, pos, left);
      HIGGINS_RETURN_IF_ERROR(TruncateAndSync(file_.fd(), path_, pos));
      bytes.resize(pos);
      break;
    }
    higgins::kafka::Reader reader(std::string_view(at + 8, length - 4));
    const std::string group(reader.String());
    const int32_t n = reader.ArrayLength(20);
    for (int32_t i = 0; i < n && reader.ok(); ++i) {
      std::string topic(reader.String());
      const int32_t partition = reader.Int32();
      Committed c;
      c.offset = reader.Int64();
      c.leader_epoch = reader.Int32();
      if (auto m = reader.NullableString()) c.metadata = std::string(*m);
      offsets_[Key{group, std::move(topic), partition}] = std::move(c);
    }
    if (Status s = reader.Finish("committed offsets record"); !s.ok()) {
      return Status::Corruption(path_ + ": the record at byte " + std::to_string(pos) +
                                " passes its CRC but does not parse: " + s.message());
    }
    pos += 4 + length;
  }
  bytes_ = bytes.size();
  for (const auto& [key, c] : offsets_) {
    live_bytes_ += 32 + std::get<0>(key).size() + std::get<1>(key).size() +
                   (c.metadata ? c.metadata->size() : 0);
  }
  return MaybeRewrite();
}

Status OffsetStore::MaybeRewrite() {
  if (bytes_ < kRewriteMinBytes || live_bytes_ * 4 > bytes_) return Status::OK();
  std::string all;
  std::string group;
  std::vector<Commit> commits;
  auto flush = [&] {
    if (!commits.empty()) all += EncodeRecord(group, commits);
    commits.clear();
  };
  {
    std::lock_guard lock(mu_);
    for (const auto& [key, c] : offsets_) {
      if (std::get<0>(key) != group) {
        flush();
        group = std::get<0>(key);
      }
      commits.push_back({std::get<1>(key), std::get<2>(key), c});
    }
  }
  flush();
  HIGGINS_RETURN_IF_ERROR(WriteFileAtomically(path_, all));
  HIGGINS_ASSIGN_OR_RETURN(file_, OpenFile(path_, O_RDWR | O_APPEND | O_CLOEXEC));
  spdlog::info("{}: rewritten with the latest offsets ({} bytes, was {})", path_, all.size(),
               bytes_);
  bytes_ = all.size();
  return Status::OK();
}

Status OffsetStore::Store(std::string_view group, const std::vector<Commit>& commits) {
  const GroupCommits one{std::string(group), commits};
  return StoreMany(std::span(&one, 1));
}

Status OffsetStore::StoreMany(std::span<const GroupCommits> batch) {
  std::string records;
  for (const GroupCommits& g : batch) records += EncodeRecord(g.group, g.commits);
  std::lock_guard write(write_mu_);
  HIGGINS_RETURN_IF_ERROR(failure_);
  Status s = WriteAll(file_.fd(), path_, records);
  if (s.ok() && ::fdatasync(file_.fd()) != 0) s = ErrnoError("fdatasync", path_, errno);
  if (!s.ok()) {
    failure_ = s;
    return s;
  }
  bytes_ += records.size();
  {
    std::lock_guard lock(mu_);
    for (const GroupCommits& g : batch) {
      for (const Commit& c : g.commits) {
        auto [it, added] =
            offsets_.insert_or_assign(Key{g.group, c.topic, c.partition}, c.committed);
        if (added) live_bytes_ += 32 + g.group.size() + c.topic.size();
      }
    }
  }
  if (Status rewrite = MaybeRewrite(); !rewrite.ok()) {
    // The commits themselves are durable; a failed rewrite leaves the old file
    // (WriteFileAtomically).
    spdlog::warn("{}", rewrite.ToString());
  }
  return Status::OK();
}

std::optional<OffsetStore::Committed> OffsetStore::Fetch(std::string_view group,
                                                         std::string_view topic,
                                                         int32_t partition) const {
  std::lock_guard lock(mu_);
  auto it = offsets_.find(Key{std::string(group), std::string(topic), partition});
  if (it == offsets_.end()) return std::nullopt;
  return it->second;
}

std::vector<OffsetStore::Commit> OffsetStore::FetchAll(std::string_view group) const {
  std::lock_guard lock(mu_);
  std::vector<Commit> out;
  for (auto it = offsets_.lower_bound(Key{std::string(group), std::string(), INT32_MIN});
       it != offsets_.end() && std::get<0>(it->first) == group; ++it) {
    out.push_back({std::get<1>(it->first), std::get<2>(it->first), it->second});
  }
  return out;
}

std::vector<std::string> OffsetStore::Groups() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [key, committed] : offsets_) {
    if (out.empty() || out.back() != std::get<0>(key)) out.push_back(std::get<0>(key));
  }
  return out;
}

uint64_t OffsetStore::file_bytes() const {
  std::lock_guard write(write_mu_);
  return bytes_;
}

}  // namespace higgins::server::kafka
