#include "kafka/offset_fetch.h"

#include "kafka/message_internal.h"

namespace higgins::kafka {
namespace {

// Smallest encodings of one array element, which bound the counts a reader accepts.
constexpr size_t kMinTopicBytes = 2 + 4;
constexpr size_t kMinCompactTopicBytes = 1 + 1 + 1;           // name, partitions, tags
constexpr size_t kMinPartitionResponseBytes = 4 + 8 + 2 + 2;  // v5 adds 4, v6 compacts

/// The encoding of one version: v6 and later are flexible (compact lengths, tagged fields).
struct Flexible {
  explicit Flexible(int16_t version) : on(IsFlexible(ApiKey::kOffsetFetch, version)) {}
  bool on;

  std::string_view String(Reader& r) const { return on ? r.CompactString() : r.String(); }
  void String(std::string_view s, Writer& w) const { on ? w.CompactString(s) : w.String(s); }
  std::optional<std::string_view> NullableString(Reader& r) const {
    return on ? r.CompactNullableString() : r.NullableString();
  }
  void NullableString(std::optional<std::string_view> s, Writer& w) const {
    on ? w.CompactNullableString(s) : w.NullableString(s);
  }
  int32_t ArrayLength(Reader& r, size_t min) const {
    return on ? r.CompactArrayLength(min) : r.ArrayLength(min);
  }
  void ArrayLength(size_t n, Writer& w) const { on ? w.CompactArrayLength(n) : w.ArrayLength(n); }
  void Tags(Reader& r) const {
    if (on) r.SkipTaggedFields();
  }
  void Tags(Writer& w) const {
    if (on) w.EmptyTaggedFields();
  }
};

OffsetFetchPartitionResponse DecodePartition(Reader& reader, int16_t version) {
  const Flexible f(version);
  OffsetFetchPartitionResponse p;
  p.partition_index = reader.Int32();
  p.committed_offset = reader.Int64();
  if (version >= 5) p.committed_leader_epoch = reader.Int32();
  p.metadata = internal::OwnedOrNull(f.NullableString(reader));
  p.error_code = static_cast<ErrorCode>(reader.Int16());
  f.Tags(reader);
  return p;
}

}  // namespace

Result<OffsetFetchRequest> DecodeOffsetFetchRequest(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kOffsetFetch, version));
  const Flexible f(version);
  OffsetFetchRequest request;
  request.group_id = f.String(reader);
  std::optional<int32_t> count;
  if (f.on) {
    count = reader.CompactNullableArrayLength(kMinCompactTopicBytes);
  } else if (version >= 2) {
    count = reader.NullableArrayLength(kMinTopicBytes);
  } else {
    count = reader.ArrayLength(kMinTopicBytes);
  }
  if (count) {
    request.topics->reserve(*count);
    for (int32_t i = 0; i < *count && reader.ok(); ++i) {
      OffsetFetchTopic t;
      t.name = f.String(reader);
      t.partition_indexes.resize(static_cast<size_t>(f.ArrayLength(reader, sizeof(int32_t))));
      for (int32_t& index : t.partition_indexes) index = reader.Int32();
      f.Tags(reader);
      request.topics->push_back(std::move(t));
    }
  } else {
    request.topics.reset();
  }
  if (version >= 7) request.require_stable = reader.Int8() != 0;
  f.Tags(reader);
  HIGGINS_RETURN_IF_ERROR(reader.Finish("OffsetFetch request"));
  return request;
}

void EncodeOffsetFetchRequest(const OffsetFetchRequest& request, int16_t version, Writer& writer) {
  internal::AssertVersion(ApiKey::kOffsetFetch, version);
  assert(version >= 2 || request.topics.has_value());
  const Flexible f(version);
  f.String(request.group_id, writer);
  if (!request.topics) {
    f.on ? writer.CompactNullArray() : writer.NullArray();
  } else {
    f.ArrayLength(request.topics->size(), writer);
    for (const OffsetFetchTopic& t : *request.topics) {
      f.String(t.name, writer);
      f.ArrayLength(t.partition_indexes.size(), writer);
      for (int32_t index : t.partition_indexes) writer.Int32(index);
      f.Tags(writer);
    }
  }
  if (version >= 7) writer.Int8(request.require_stable ? 1 : 0);
  f.Tags(writer);
}

void EncodeOffsetFetchResponse(const OffsetFetchResponse& response, int16_t version,
                               Writer& writer) {
  internal::AssertVersion(ApiKey::kOffsetFetch, version);
  const Flexible f(version);
  if (version >= 3) writer.Int32(response.throttle_time_ms);
  f.ArrayLength(response.topics.size(), writer);
  for (const OffsetFetchTopicResponse& t : response.topics) {
    f.String(t.name, writer);
    f.ArrayLength(t.partitions.size(), writer);
    for (const OffsetFetchPartitionResponse& p : t.partitions) {
      writer.Int32(p.partition_index);
      writer.Int64(p.committed_offset);
      if (version >= 5) writer.Int32(p.committed_leader_epoch);
      f.NullableString(p.metadata, writer);
      writer.Int16(static_cast<int16_t>(p.error_code));
      f.Tags(writer);
    }
    f.Tags(writer);
  }
  if (version >= 2) writer.Int16(static_cast<int16_t>(response.error_code));
  f.Tags(writer);
}

Result<OffsetFetchResponse> DecodeOffsetFetchResponse(Reader& reader, int16_t version) {
  HIGGINS_RETURN_IF_ERROR(internal::CheckVersion(ApiKey::kOffsetFetch, version));
  const Flexible f(version);
  OffsetFetchResponse response;
  if (version >= 3) response.throttle_time_ms = reader.Int32();
  const int32_t topics = f.ArrayLength(reader, f.on ? kMinCompactTopicBytes : kMinTopicBytes);
  for (int32_t i = 0; i < topics && reader.ok(); ++i) {
    OffsetFetchTopicResponse t;
    t.name = f.String(reader);
    const int32_t partitions = f.ArrayLength(reader, kMinPartitionResponseBytes);
    for (int32_t j = 0; j < partitions && reader.ok(); ++j) {
      t.partitions.push_back(DecodePartition(reader, version));
    }
    f.Tags(reader);
    response.topics.push_back(std::move(t));
  }
  if (version >= 2) response.error_code = static_cast<ErrorCode>(reader.Int16());
  f.Tags(reader);
  HIGGINS_RETURN_IF_ERROR(reader.Finish("OffsetFetch response"));
  return response;
}

}  // namespace higgins::kafka
