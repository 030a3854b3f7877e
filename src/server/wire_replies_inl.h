#pragma once

#include <string_view>

#include "protocol/messages.h"
#include "protocol/partition_name.h"

namespace higgins::server {

template <typename Body>
void SetError(Body* body, const Status& status) {
  const std::string& m = status.message();
  size_t start = 0;
  while (start <= m.size()) {
    size_t end = m.find('\n', start);
    if (end == std::string::npos) end = m.size();
    // Messages quote client bytes (stream names, keys); `errors` must stay valid UTF-8.
    if (end > start) {
      body->add_errors(protocol::EscapeInvalidUtf8(std::string_view(m).substr(start, end - start)));
    }
    start = end + 1;
  }
  if (body->errors_size() == 0) body->add_errors(std::string(StatusCodeName(status.code())));
  body->set_code(protocol::ToErrorCode(status.code()));
}

template <typename Rows, typename Window>
// (stream, partition key), the broker's order everywhere; `data` is the encoded record.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
void FillRecord(higgins::wire::Record* record, std::string data, std::string_view stream,
                std::string_view key, uint64_t offset, const Rows& rows, const Window* window) {
  record->set_data(std::move(data));
  record->set_stream(std::string(stream));
  record->set_partition(protocol::EncodePartitionName(key));
  record->set_offset(offset);
  record->set_count(static_cast<uint64_t>(rows.batch.num_rows()));
  for (int64_t t : rows.timestamps_ms) record->add_timestamps(static_cast<uint64_t>(t));
  if (window != nullptr) {
    higgins::wire::WindowBounds* bounds = record->mutable_window();
    bounds->set_closed(window->closed);
    bounds->set_by_time(window->by_time);
    bounds->set_start(window->start);
    bounds->set_end(window->end);
    bounds->set_first_offset(rows.first_offset);
  }
}

}  // namespace higgins::server
