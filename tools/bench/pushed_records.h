#pragma once

#include <cstdint>
#include <string_view>

namespace higgins::bench {

/// The fields of one pushed record that a fan-out reader checks.
struct PushedRecord {
  std::string_view key;  // partition_key; a view into the message
  int64_t offset = 0;
  int64_t seq = 0;
  int64_t sent_us = 0;  // the record's scheduled send time, steady clock µs
};

/// Reads the records of one WebSocket message of a stream channel (docs/http.md, "WebSocket
/// channels"): one object {"stream":…,"partition_key":"…","offset":N,…,"record":{…}}, or with
/// batch=true a JSON array of them. Of each it takes partition_key, offset and the record's
/// seq and sent_us (the fan-out bench's records: {"id":"…","seq":N,"sent_us":N,"payload":"…"},
/// no escapes), in one forward pass: each field is looked for where the broker's order puts it,
/// and searched for further on only when it is not there. Not a JSON parser: it relies on the
/// bench's records holding none of the field names.
class PushedRecords {
 public:
  explicit PushedRecords(std::string_view message) : text_(message) {}

  /// The next record into `*record`: true; false at the end of the message, or when what
  /// follows is not a record (malformed() then says so).
  bool Next(PushedRecord* record);

  /// Whether the message stopped being readable before its end (no fields where a record
  /// should be, or an array without its closing bracket).
  bool malformed() const { return malformed_; }

 private:
  /// Moves past `literal`, found here or further on; false when it is nowhere.
  bool Seek(std::string_view literal);
  /// The integer here, moving past it.
  bool Int(int64_t* value);
  /// The characters up to the next '"', moving past that quote.
  bool UntilQuote(std::string_view* value);
  /// Marks the message malformed and ends it; false.
  bool Fail();

  std::string_view text_;
  size_t at_ = 0;
  bool array_ = false;
  bool done_ = false;
  bool malformed_ = false;
};

}  // namespace higgins::bench
