// Segment objects: a sealed segment as an Arrow IPC file (docs/storage-format.md).
#include "storage/segment_object.h"

#include <charconv>
#include <cstdio>
#include <cstring>

#include "higgins/arrow/ipc/writer.h"

namespace higgins::storage {
namespace {

constexpr std::string_view kStreamKey = "higgins.stream_id";
constexpr std::string_view kBucketKey = "higgins.bucket";
constexpr std::string_view kBaseKey = "higgins.base_sequence";
constexpr std::string_view kEntriesKey = "higgins.entries";
constexpr std::string_view kObjectSuffix = ".arrow";

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

const std::string* FindValue(const arrow::KeyValueMetadata& metadata, std::string_view key) {
  for (const auto& [k, v] : metadata) {
    if (k == key) return &v;
  }
  return nullptr;
}

Status Corrupt(StreamId stream_id, BucketId bucket, Sequence base, const std::string& what) {
  return Status::Corruption("segment object " + ToString(stream_id) + "/" + ToString(bucket) + "/" +
                            SegmentObjectName(base) + ": " + what);
}

}  // namespace

std::string SegmentObjectName(Sequence base_sequence) {
  char name[32];
  std::snprintf(name, sizeof name, "%020llu.arrow",
                static_cast<unsigned long long>(base_sequence.value()));
  return name;
}

std::optional<Sequence> ParseSegmentObjectName(std::string_view name) {
  if (name.size() != 20 + kObjectSuffix.size() || !name.ends_with(kObjectSuffix))
    return std::nullopt;
  uint64_t base = 0;
  if (!ParseNumber(name.substr(0, 20), &base)) return std::nullopt;
  return Sequence(base);
}

Result<Buffer> EncodeSegmentObject(const arrow::SchemaPtr& schema, StreamId stream_id,
                                   BucketId bucket, Sequence base_sequence,
                                   std::span<const SealedEntry> entries) {
  std::string listed;
  listed.reserve(entries.size() * 20);
  Sequence next = base_sequence;
  for (const SealedEntry& entry : entries) {
    if (entry.base_sequence != next || entry.batch.num_rows() < 1) {
      return Status::InvalidArgument("segment entries are not consecutive at sequence " +
                                     ToString(next));
    }
    if (!listed.empty()) listed += ';';
    listed += std::to_string(entry.batch.num_rows());
    listed += ':';
    listed += std::to_string(entry.timestamp_ms);
    next += static_cast<uint64_t>(entry.batch.num_rows());
  }
  arrow::KeyValueMetadata metadata = schema->metadata();
  metadata.emplace_back(kStreamKey, ToString(stream_id));
  metadata.emplace_back(kBucketKey, ToString(bucket));
  metadata.emplace_back(kBaseKey, ToString(base_sequence));
  metadata.emplace_back(kEntriesKey, std::move(listed));
  auto object_schema = arrow::MakeSchema(schema->fields(), std::move(metadata));
  arrow::ipc::FileWriter writer(object_schema);
  HIGGINS_RETURN_IF_ERROR(writer.status());
  for (const SealedEntry& entry : entries) HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(entry.batch));
  return writer.Finish();
}

Result<uint32_t> DecodeObjectTrailer(std::span<const uint8_t> trailer, uint64_t object_size) {
  if (trailer.size() != kObjectTrailerSize || std::memcmp(trailer.data() + 4, "ARROW1", 6) != 0) {
    return Status::Corruption("not an Arrow IPC file: the trailing ARROW1 magic is missing");
  }
  int32_t length = 0;
  std::memcpy(&length, trailer.data(), 4);
  // An Arrow file is at least the 8-byte leading magic, the footer and the trailer.
  if (length <= 0 || static_cast<uint64_t>(length) + 8 + kObjectTrailerSize > object_size) {
    return Status::Corruption("footer length " + std::to_string(length) +
                              " does not fit an object of " + std::to_string(object_size) +
                              " bytes");
  }
  return static_cast<uint32_t>(length);
}

Result<SegmentObjectInfo> DecodeSegmentObjectFooter(std::span<const uint8_t> footer,
                                                    const arrow::Schema& schema, StreamId stream_id,
                                                    BucketId bucket, Sequence base_sequence,
                                                    uint64_t object_size) {
  auto decoded = arrow::ipc::DecodeFooter(footer, arrow::ipc::IpcLimits{});
  if (!decoded.ok()) return Corrupt(stream_id, bucket, base_sequence, decoded.status().ToString());
  if (!decoded->dictionary_fields.empty() || !decoded->dictionaries.empty()) {
    // Segments hold batches of the stream's plain schema; Higgins never dictionary-encodes.
    return Corrupt(stream_id, bucket, base_sequence, "has dictionary-encoded fields");
  }
  const arrow::Schema& found = *decoded->schema;
  if (found.fields() != schema.fields()) {
    return Corrupt(stream_id, bucket, base_sequence, "holds another schema:\n" + found.ToString());
  }
  const arrow::KeyValueMetadata& metadata = found.metadata();
  const std::string* stream_text = FindValue(metadata, kStreamKey);
  const std::string* bucket_text = FindValue(metadata, kBucketKey);
  const std::string* base_text = FindValue(metadata, kBaseKey);
  const std::string* entries_text = FindValue(metadata, kEntriesKey);
  uint64_t found_stream = 0;
  uint32_t found_bucket = 0;
  uint64_t found_base = 0;
  if (stream_text == nullptr || bucket_text == nullptr || base_text == nullptr ||
      entries_text == nullptr || !ParseNumber(*stream_text, &found_stream) ||
      !ParseNumber(*bucket_text, &found_bucket) || !ParseNumber(*base_text, &found_base)) {
    return Corrupt(stream_id, bucket, base_sequence, "the higgins.* schema metadata is missing");
  }
  if (StreamId(found_stream) != stream_id || BucketId(found_bucket) != bucket ||
      Sequence(found_base) != base_sequence) {
    return Corrupt(stream_id, bucket, base_sequence,
                   "its metadata names stream " + *stream_text + ", bucket " + *bucket_text +
                       ", base sequence " + *base_text);
  }
  SegmentObjectInfo info{stream_id, bucket, base_sequence, {}};
  std::string_view rest = *entries_text;
  Sequence next = base_sequence;
  size_t index = 0;
  while (!rest.empty()) {
    const size_t end = rest.find(';');
    const std::string_view item = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    const size_t colon = item.find(':');
    ObjectEntry entry;
    if (colon == std::string_view::npos || !ParseNumber(item.substr(0, colon), &entry.row_count) ||
        !ParseNumber(item.substr(colon + 1), &entry.timestamp_ms) || entry.row_count == 0 ||
        entry.row_count > INT32_MAX) {
      return Corrupt(stream_id, bucket, base_sequence,
                     "entry " + std::to_string(index) + " of higgins.entries is malformed");
    }
    ++index;
    if (index > decoded->record_batches.size()) continue;  // counted, reported below
    entry.base_sequence = next;
    entry.block = decoded->record_batches[index - 1];
    if (entry.block.offset < 8 || entry.block.metadata_length <= 0 || entry.block.body_length < 0 ||
        static_cast<uint64_t>(entry.block.offset) + entry.message_bytes() > object_size) {
      return Corrupt(stream_id, bucket, base_sequence,
                     "block " + std::to_string(index - 1) + " lies outside the object");
    }
    next += entry.row_count;
    info.entries.push_back(entry);
  }
  if (index != decoded->record_batches.size()) {
    return Corrupt(stream_id, bucket, base_sequence,
                   "higgins.entries lists another number of entries than the footer's " +
                       std::to_string(decoded->record_batches.size()) + " blocks");
  }
  if (info.entries.empty()) return Corrupt(stream_id, bucket, base_sequence, "holds no entry");
  return info;
}

}  // namespace higgins::storage
