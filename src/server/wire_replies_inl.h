#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages.h"
#include "protocol/partition_name.h"

namespace higgins::server {

template <typename Body>
void SetError(Body* body, const Status& status) {
  for (std::string& line : ErrorLines(status)) body->add_errors(std::move(line));
  body->set_code(protocol::ToErrorCode(status.code()));
}

template <typename Body>
void SetErrorWithin(Body* body, const Status& status, protocol::ReplySize size) {
  constexpr size_t kCodeBytes = 4;  // the code's tag and varint, at most
  const auto field = static_cast<uint32_t>(Body::kErrorsFieldNumber);
  std::vector<std::string> lines = ErrorLines(status);
  size_t all = kCodeBytes;
  for (const std::string& line : lines) all += protocol::FieldBytes(field, line.size());
  // When not every line fits, room is kept for the one that says how many were left out.
  const size_t reserved =
      size.Fits(all)
          ? kCodeBytes
          : kCodeBytes + protocol::FieldBytes(field, LeftOutErrorsLine(lines.size()).size());
  size_t left_out = 0;
  for (std::string& line : lines) {
    const size_t bytes = protocol::FieldBytes(field, line.size());
    if (left_out == 0 && size.Fits(bytes + reserved)) {
      body->add_errors(std::move(line));
      size.Add(bytes);
    } else {
      ++left_out;
    }
  }
  if (left_out > 0) body->add_errors(LeftOutErrorsLine(left_out));
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
