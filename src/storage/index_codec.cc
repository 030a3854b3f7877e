#include "storage/index_codec.h"

#include <algorithm>
#include <string>

namespace higgins::storage {
namespace {

constexpr size_t kMaxVarint64Bytes = 10;

void PutVarint(uint64_t value, BufferBuilder& out) {
  uint8_t bytes[kMaxVarint64Bytes];
  size_t n = 0;
  while (value >= 0x80) {
    bytes[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  bytes[n++] = static_cast<uint8_t>(value);
  out.Append(bytes, n);
}

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

/// Reads varints and bytes from a payload; the first failure sticks.
class PayloadReader {
 public:
  explicit PayloadReader(ByteSpan bytes) : bytes_(bytes) {}

  uint64_t Varint(uint64_t max, const char* what) {
    uint64_t value = 0;
    for (int shift = 0; ok_; shift += 7) {
      if (pos_ == bytes_.size() || shift > 63) return Fail(what);
      const uint8_t byte = bytes_[pos_++];
      if (shift == 63 && byte > 1) return Fail(what);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) break;
    }
    if (value > max) return Fail(what);
    return ok_ ? value : 0;
  }

  std::string Bytes(uint64_t n) {
    if (!ok_ || n > bytes_.size() - pos_) {
      Fail("key bytes");
      return {};
    }
    std::string out(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return out;
  }

  uint64_t Fail(const char* what) {
    if (ok_) failure_ = std::string("truncated or out-of-range ") + what;
    ok_ = false;
    return 0;
  }

  uint64_t remaining() const { return bytes_.size() - pos_; }
  bool ok() const { return ok_; }
  const std::string& failure() const { return failure_; }

 private:
  ByteSpan bytes_;
  size_t pos_ = 0;
  bool ok_ = true;
  std::string failure_;
};

}  // namespace

Status CheckIndexRecord(const IndexRecord& record) {
  if (record.key_indexes.size() != record.entry.row_count) {
    return Status::InvalidArgument("index record of " + std::to_string(record.entry.row_count) +
                                   " rows has " + std::to_string(record.key_indexes.size()) +
                                   " key indexes");
  }
  if (record.keys.size() > record.entry.row_count) {
    return Status::InvalidArgument("index record has more keys than rows");
  }
  for (uint32_t index : record.key_indexes) {
    if (index >= record.keys.size()) {
      return Status::InvalidArgument("index record key index " + std::to_string(index) +
                                     " is past its " + std::to_string(record.keys.size()) +
                                     " keys");
    }
  }
  return Status::OK();
}

void EncodeIndexRecord(const IndexRecord& record, BufferBuilder& out) {
  const EntryInfo& e = record.entry;
  PutVarint(e.base_sequence.value(), out);
  PutVarint(e.row_count, out);
  PutVarint(ZigZag(e.timestamp_ms), out);
  PutVarint(e.location.segment, out);
  PutVarint(e.location.position, out);
  PutVarint(e.location.size, out);
  PutVarint(record.keys.size(), out);
  for (const std::string& key : record.keys) {
    PutVarint(key.size(), out);
    out.Append(key.data(), key.size());
  }
  for (uint32_t index : record.key_indexes) PutVarint(index, out);
}

Result<IndexRecord> DecodeIndexRecord(ByteSpan payload) {
  PayloadReader in(payload);
  IndexRecord record;
  EntryInfo& e = record.entry;
  e.base_sequence = Sequence(in.Varint(UINT64_MAX, "base sequence"));
  e.row_count = static_cast<uint32_t>(in.Varint(INT32_MAX, "row count"));
  e.timestamp_ms = UnZigZag(in.Varint(UINT64_MAX, "timestamp"));
  e.location.segment = in.Varint(UINT64_MAX, "segment");
  e.location.position = in.Varint(UINT64_MAX, "position");
  e.location.size = static_cast<uint32_t>(in.Varint(UINT32_MAX, "size"));
  // Every key and key index takes at least one byte: bound the counts by what is left, so a
  // corrupt count cannot make us allocate more than the payload's size.
  const uint64_t key_count =
      in.Varint(std::min<uint64_t>(e.row_count, in.remaining()), "key count");
  record.keys.reserve(key_count);
  for (uint64_t i = 0; i < key_count && in.ok(); ++i) {
    record.keys.push_back(in.Bytes(in.Varint(in.remaining(), "key length")));
  }
  if (e.row_count > in.remaining()) in.Fail("key indexes");
  record.key_indexes.reserve(in.ok() ? e.row_count : 0);
  for (uint32_t i = 0; i < e.row_count && in.ok(); ++i) {
    record.key_indexes.push_back(static_cast<uint32_t>(in.Varint(UINT32_MAX, "key index")));
  }
  if (!in.ok()) return Status::Corruption("index record: " + in.failure());
  if (in.remaining() != 0) {
    return Status::Corruption("index record: " + std::to_string(in.remaining()) +
                              " bytes after its end");
  }
  if (Status st = CheckIndexRecord(record); !st.ok()) {
    return Status::Corruption(st.message());
  }
  return record;
}

}  // namespace higgins::storage
