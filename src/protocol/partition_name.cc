#include "protocol/partition_name.h"

namespace higgins::protocol {

Result<std::string> DecodePartitionName(std::string_view wire) {
  std::string_view key = wire;
  if (key.size() == kPaddedPartitionBytes) {
    const size_t last = key.find_last_not_of('\0');
    key = key.substr(0, last == std::string_view::npos ? 0 : last + 1);
  }
  if (key.empty()) return Status::InvalidArgument("invalid partition key: empty");
  if (key.size() > kMaxPartitionKeyBytes) {
    return Status::InvalidArgument("invalid partition key: " + std::to_string(key.size()) +
                                   " bytes, more than the limit of " +
                                   std::to_string(kMaxPartitionKeyBytes));
  }
  if (const size_t zero = key.find('\0'); zero != std::string_view::npos) {
    return Status::InvalidArgument("invalid partition key: zero byte at position " +
                                   std::to_string(zero));
  }
  return std::string(key);
}

std::string EncodePartitionName(std::string_view key) {
  std::string wire(key);
  if (wire.size() < kPaddedPartitionBytes) wire.resize(kPaddedPartitionBytes, '\0');
  return wire;
}

}  // namespace higgins::protocol
