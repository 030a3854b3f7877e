#include "storage/segment.h"

#include <cstdio>
#include <cstring>

#include "higgins/bit_util.h"
#include "storage/crc32.h"

namespace higgins::storage {
namespace {

uint32_t HeaderChecksum(const uint8_t* header) {
  return Crc32(0, header, kSegmentHeaderChecksumOffset);
}

}  // namespace

void EncodeSegmentHeader(const SegmentHeader& header, uint8_t* out) {
  std::memset(out, 0, kSegmentHeaderSize);
  std::memcpy(out, kSegmentMagic.data(), kSegmentMagic.size());
  out[kSegmentVersionOffset] = kSegmentFormatVersion;
  bit_util::StoreLE<uint64_t>(out + kSegmentStreamIdOffset, header.stream_id.value());
  bit_util::StoreLE<uint32_t>(out + kSegmentBucketOffset, header.bucket.value());
  bit_util::StoreLE<uint64_t>(out + kSegmentBaseSequenceOffset, header.base_sequence.value());
  bit_util::StoreLE<uint32_t>(out + kSegmentHeaderChecksumOffset, HeaderChecksum(out));
}

Result<SegmentHeader> DecodeSegmentHeader(ByteSpan bytes) {
  if (bytes.size() < kSegmentHeaderSize) {
    return Status::Corruption("segment header of " + std::to_string(bytes.size()) +
                              " bytes, expected " + std::to_string(kSegmentHeaderSize));
  }
  const uint8_t* p = bytes.data();
  if (std::memcmp(p, kSegmentMagic.data(), kSegmentMagic.size()) != 0) {
    return Status::Corruption("not a Higgins segment: missing \"HGSEG\" magic");
  }
  if (bit_util::LoadLE<uint32_t>(p + kSegmentHeaderChecksumOffset) != HeaderChecksum(p)) {
    return Status::Corruption("segment header checksum mismatch");
  }
  if (p[kSegmentVersionOffset] != kSegmentFormatVersion) {
    return Status::Corruption("unsupported segment format version " +
                              std::to_string(p[kSegmentVersionOffset]) + " (this build reads " +
                              std::to_string(kSegmentFormatVersion) + ")");
  }
  return SegmentHeader{StreamId(bit_util::LoadLE<uint64_t>(p + kSegmentStreamIdOffset)),
                       BucketId(bit_util::LoadLE<uint32_t>(p + kSegmentBucketOffset)),
                       Sequence(bit_util::LoadLE<uint64_t>(p + kSegmentBaseSequenceOffset))};
}

void EncodeBatchPrefix(const BatchPrefix& prefix, uint8_t* out) {
  bit_util::StoreLE<uint64_t>(out, prefix.base_sequence.value());
  bit_util::StoreLE<uint32_t>(out + kBatchRowCountOffset, prefix.row_count);
  bit_util::StoreLE<int64_t>(out + kBatchTimestampOffset, prefix.timestamp_ms);
}

BatchPrefix DecodeBatchPrefix(const uint8_t* bytes) {
  return {Sequence(bit_util::LoadLE<uint64_t>(bytes)),
          bit_util::LoadLE<uint32_t>(bytes + kBatchRowCountOffset),
          bit_util::LoadLE<int64_t>(bytes + kBatchTimestampOffset)};
}

std::string SegmentFileName(Sequence base_sequence) {
  char digits[kSegmentNameDigits + 1];
  std::snprintf(digits, sizeof(digits), "%020llu",
                static_cast<unsigned long long>(base_sequence.value()));
  return std::string(digits) + std::string(kSegmentSuffix);
}

std::optional<Sequence> ParseSegmentFileName(std::string_view name) {
  if (name.size() != kSegmentNameDigits + kSegmentSuffix.size() ||
      name.substr(kSegmentNameDigits) != kSegmentSuffix) {
    return std::nullopt;
  }
  uint64_t value = 0;
  for (char c : name.substr(0, kSegmentNameDigits)) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return Sequence(value);
}

}  // namespace higgins::storage
