#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/ids.h"
#include "higgins/result.h"

namespace higgins::derived {

/// One step of a join processor, written before the joined records it produces: the step reads
/// every participant bucket from `from` to `to` (bucket sequences, at entry boundaries; one
/// value per participant bucket, participants in order, buckets in order).
struct JoinIntent {
  std::vector<Sequence> from;
  std::vector<Sequence> to;
  friend bool operator==(const JoinIntent&, const JoinIntent&) = default;
};

/// The intent as one log record (docs/storage-format.md, "Join intent log"): u32 payload
/// length, u32 CRC-32 (zlib) of the payload, payload = u32 n, n × u64 from, n × u64 to, all
/// little-endian. Pure.
std::string EncodeJoinIntent(const JoinIntent& intent);
/// The last whole record of a log, or nullopt when there is none. A torn or corrupt record
/// ends the log (it was being written when the broker stopped, so its step committed nothing).
/// Pure.
std::optional<JoinIntent> LastJoinIntent(std::string_view log);

/// The append-only intent log of one join stream, `<index dir>/join-intent.log`. Each step
/// appends its intent and syncs it before committing joined records, so that after a crash the
/// last intent names exactly the input the possibly half-committed step read (see JoinStream).
///
/// Thread-safety: one writer (the join's processor).
class JoinIntentLog {
 public:
  /// Opens (creating) the log and reads its last intent. `sync`: fdatasync each append.
  /// Errors: IOError.
  static Result<std::unique_ptr<JoinIntentLog>> Open(std::string path, bool sync);
  ~JoinIntentLog();

  const std::optional<JoinIntent>& last() const { return last_; }
  /// Appends `intent` (synced when the log syncs). When the log passes kRotateBytes it is
  /// replaced by a log holding only this intent (WriteFileAtomically). Errors: IOError.
  Status Append(const JoinIntent& intent);

  static constexpr size_t kRotateBytes = size_t{1} << 20;

 private:
  JoinIntentLog(std::string path, bool sync) : path_(std::move(path)), sync_(sync) {}
  Status OpenForAppend();

  std::string path_;
  bool sync_ = true;
  int fd_ = -1;
  size_t size_ = 0;
  bool broken_ = false;  // an append failed: the next one rewrites the file
  std::optional<JoinIntent> last_;
};

}  // namespace higgins::derived
