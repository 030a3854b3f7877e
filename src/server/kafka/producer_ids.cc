#include "server/kafka/producer_ids.h"

#include <charconv>
#include <limits>

#include "common/file_util.h"

namespace higgins::server::kafka {

Result<ProducerIdRange> ClaimProducerIds(const std::string& path, int64_t span) {
  int64_t first = 0;
  auto text = ReadFileToString(path, 64);
  if (text.ok()) {
    std::string_view digits = *text;
    if (!digits.empty() && digits.back() == '\n') digits.remove_suffix(1);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), first);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        first < 0) {
      return Status::Corruption(path + " does not hold one non-negative producer id");
    }
  } else if (text.status().code() != StatusCode::kNotFound) {
    return text.status();
  }
  if (span <= 0 || first > std::numeric_limits<int64_t>::max() - span) {
    return Status::ResourceExhausted("the Kafka producer ids are used up (" + path + ")");
  }
  const int64_t end = first + span;
  if (auto made = CreateDirectories(ParentDirectory(path)); !made.ok()) return made;
  if (auto written = WriteFileAtomically(path, std::to_string(end) + "\n"); !written.ok()) {
    return written;
  }
  return ProducerIdRange{.first = first, .end = end};
}

}  // namespace higgins::server::kafka
