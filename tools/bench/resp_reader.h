#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "higgins/result.h"

namespace higgins::bench {

/// One top-level RESP2 reply, reduced to what the benchmark looks at.
struct RespReply {
  char kind = 0;       // '+', '-', ':', '$' or '*'
  std::string text;    // simple string, error text, or bulk string ("" for a null bulk)
  int64_t number = 0;  // integer value, or array length (-1 for a null array)
};

/// Sans-I/O splitter of a RESP2 byte stream into top-level replies (nested arrays are checked
/// and skipped). Feed it what the socket returned; take replies with Next(). Not thread-safe.
class RespReader {
 public:
  void Consume(std::string_view bytes);
  /// The next complete reply, nullopt when more bytes are needed, or Corruption for bytes that
  /// are not RESP2 (sticky: the stream cannot be resynchronised).
  Result<std::optional<RespReply>> Next();

 private:
  enum class Parse { kComplete, kIncomplete, kInvalid };
  /// Parses the value at `*pos`: on kComplete advances `*pos` past it and fills `reply` (when
  /// non-null) with the top level.
  Parse Value(size_t* pos, RespReply* reply, int depth) const;
  /// The line at `pos` (without CRLF) and the position after it, or nullopt if incomplete.
  std::optional<std::pair<std::string_view, size_t>> Line(size_t pos) const;

  std::string buffer_;
  size_t read_pos_ = 0;
  bool invalid_ = false;
};

}  // namespace higgins::bench
