#include "stream/partitioning.h"

#include <charconv>
#include <cstring>

#include "common/quote.h"
#include "higgins/limits.h"

namespace higgins::stream {

int32_t Murmur2(std::string_view bytes) {
  constexpr uint32_t kSeed = 0x9747b28c;
  constexpr uint32_t kM = 0x5bd1e995;
  constexpr int kR = 24;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t length = bytes.size();
  uint32_t h = kSeed ^ static_cast<uint32_t>(length);
  const size_t blocks = length / 4;
  for (size_t i = 0; i < blocks; ++i) {
    const uint8_t* p = data + i * 4;
    uint32_t k = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
    k *= kM;
    k ^= k >> kR;
    k *= kM;
    h *= kM;
    h ^= k;
  }
  const uint8_t* tail = data + blocks * 4;
  switch (length % 4) {
    case 3: h ^= uint32_t{tail[2]} << 16; [[fallthrough]];
    case 2: h ^= uint32_t{tail[1]} << 8; [[fallthrough]];
    case 1: h ^= uint32_t{tail[0]}; h *= kM;
  }
  h ^= h >> 13;
  h *= kM;
  h ^= h >> 15;
  return static_cast<int32_t>(h);
}

BucketId BucketOf(std::string_view key, uint32_t buckets) {
  return BucketId((static_cast<uint32_t>(Murmur2(key)) & 0x7fffffffu) % buckets);
}

bool IsPartitionKeyType(const arrow::DataType& type) {
  return type.is_string() || type.is_integer();
}

Status PartitionKeyOf(const arrow::Array& column, int64_t row, std::string* key) {
  if (column.IsNull(row)) return Status::InvalidArgument("the partition key is null");
  if (column.type().is_integer()) {
    char text[24];
    std::to_chars_result r;
    if (column.type().id() == arrow::TypeId::kUInt64) {
      r = std::to_chars(text, text + sizeof(text), static_cast<uint64_t>(column.IntegerValue(row)));
    } else {
      r = std::to_chars(text, text + sizeof(text), column.IntegerValue(row));
    }
    key->assign(text, r.ptr);
    return Status::OK();
  }
  std::string_view bytes = column.BinaryValue(row);
  if (bytes.empty()) return Status::InvalidArgument("the partition key is empty");
  if (bytes.size() > kMaxPartitionKeyBytes) {
    return Status::InvalidArgument("the partition key has " + std::to_string(bytes.size()) +
                                   " bytes, more than the limit of " +
                                   std::to_string(kMaxPartitionKeyBytes));
  }
  if (std::memchr(bytes.data(), 0, bytes.size()) != nullptr) {
    return Status::InvalidArgument("the partition key contains a zero byte");
  }
  key->assign(bytes);
  return Status::OK();
}

bool SameKeyColumn(const arrow::Array& out, const arrow::Array& in) {
  const arrow::ArrayData& o = out.data();
  const arrow::ArrayData& i = in.data();
  if (o.length != i.length || o.null_count != 0 || i.null_count != 0 || !(o.type == i.type)) {
    return false;
  }
  const auto n = static_cast<size_t>(o.length);
  if (n == 0) return true;
  switch (o.type.layout()) {
    case arrow::Layout::kFixedWidth: {
      if (!o.type.is_integer()) return false;
      const auto width = static_cast<size_t>(o.type.bit_width() / 8);
      return std::memcmp(o.buffers[1].data() + static_cast<size_t>(o.offset) * width,
                         i.buffers[1].data() + static_cast<size_t>(i.offset) * width,
                         n * width) == 0;
    }
    case arrow::Layout::kVarBinary: {
      const uint8_t* oo = o.buffers[1].data() + static_cast<size_t>(o.offset) * 4;
      const uint8_t* io = i.buffers[1].data() + static_cast<size_t>(i.offset) * 4;
      const int32_t out_begin = bit_util::LoadLE<int32_t>(oo);
      const int32_t in_begin = bit_util::LoadLE<int32_t>(io);
      if (out_begin == in_begin) {
        if (std::memcmp(oo, io, (n + 1) * 4) != 0) return false;
      } else {
        // A slice against a column of its own: the same lengths, from other starts.
        bool same = true;
        for (size_t r = 1; r <= n; ++r) {
          same &= bit_util::LoadLE<int32_t>(oo + r * 4) - out_begin ==
                  bit_util::LoadLE<int32_t>(io + r * 4) - in_begin;
        }
        if (!same) return false;
      }
      const int32_t out_end = bit_util::LoadLE<int32_t>(oo + n * 4);
      return std::memcmp(o.buffers[2].data() + out_begin, i.buffers[2].data() + in_begin,
                         static_cast<size_t>(out_end - out_begin)) == 0;
    }
    default: return false;
  }
}

Status CheckSameKeys(const arrow::Array& column, std::span<const std::string* const> keys,
                     std::string_view field) {
  // The common case, a string key column without nulls: compare the bytes in place.
  const arrow::ArrayData& d = column.data();
  const bool plain = d.type.layout() == arrow::Layout::kVarBinary && d.null_count == 0;
  const uint8_t* offsets = plain ? d.buffers[1].data() + d.offset * 4 : nullptr;
  const bool bytes_key = !column.type().is_integer();
  std::string key;
  for (size_t r = 0; r < keys.size(); ++r) {
    const auto row = static_cast<int64_t>(r);
    if (plain) {
      const int32_t begin = bit_util::LoadLE<int32_t>(offsets + r * 4);
      const int32_t end = bit_util::LoadLE<int32_t>(offsets + r * 4 + 4);
      const std::string& want = *keys[r];
      if (static_cast<size_t>(end - begin) == want.size() &&
          std::memcmp(d.buffers[2].data() + begin, want.data(), want.size()) == 0) {
        continue;
      }
    } else if (bytes_key && column.IsValid(row) && column.BinaryValue(row) == *keys[r]) {
      continue;
    }
    Status s = PartitionKeyOf(column, row, &key);
    if (!s.ok()) {
      return Status::InvalidArgument("row " + std::to_string(r) + ": partition key '" +
                                     std::string(field) + "': " + s.message());
    }
    if (key != *keys[r]) {
      return Status::InvalidArgument("row " + std::to_string(r) +
                                     ": the module changed the partition key from " +
                                     Quote(*keys[r]) + " to " + Quote(key));
    }
  }
  return Status::OK();
}

Status CheckQueryKey(const arrow::DataType& key_type, std::string_view key) {
  if (!key_type.is_integer()) return Status::OK();
  const char* end = key.data() + key.size();
  bool canonical = false;
  char text[24];
  std::to_chars_result r{};
  if (key_type.id() == arrow::TypeId::kUInt64) {
    uint64_t value = 0;
    auto parsed = std::from_chars(key.data(), end, value);
    canonical = parsed.ec == std::errc() && parsed.ptr == end;
    if (canonical) r = std::to_chars(text, text + sizeof(text), value);
  } else {
    int64_t value = 0;
    auto parsed = std::from_chars(key.data(), end, value);
    canonical = parsed.ec == std::errc() && parsed.ptr == end;
    if (canonical) r = std::to_chars(text, text + sizeof(text), value);
  }
  if (canonical && std::string_view(text, static_cast<size_t>(r.ptr - text)) == key) {
    return Status::OK();
  }
  return Status::InvalidArgument(
      "partition key " + Quote(key) + " is not an integer in decimal (the " +
      "stream's partition key is " + key_type.ToString() + "; write it like 42 or -7)");
}

}  // namespace higgins::stream
