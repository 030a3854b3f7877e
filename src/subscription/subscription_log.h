#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/ids.h"
#include "higgins/result.h"
#include "subscription/subscription_state.h"

namespace higgins::subscription {

/// Where a subscription starts in each partition (the wire's ConsumerOffsetType).
enum class SubscriptionStartKind : uint8_t {
  kBeginning = 0,
  kCurrent = 1,
  kOffset = 2,
  kTimestamp = 3
};

/// What a subscription is, as written when it is created.
struct SubscriptionDecl {
  SubscriptionId id;  // 16 bytes
  std::string stream;
  StreamId stream_id;  // the stream's id: a stream deleted and created again is another one
  SubscriptionStartKind start = SubscriptionStartKind::kBeginning;
  uint64_t start_value = 0;  // the offset or timestamp (ms)
  uint64_t timeout_ms = 0;
  /// kCurrent: the record count of each partition when the subscription was created (other
  /// partitions start at 0).
  std::vector<std::pair<std::string, uint64_t>> start_offsets;
  friend bool operator==(const SubscriptionDecl&, const SubscriptionDecl&) = default;
};

/// One record of a subscription log (docs/storage-format.md, "Subscription logs").
struct SubscriptionRecord {
  enum class Type : uint8_t { kCreate = 1, kAcknowledge = 2, kState = 3 };
  Type type = Type::kCreate;
  SubscriptionDecl decl;                           // kCreate
  std::vector<OffsetRange> acknowledged;           // kAcknowledge
  std::vector<SubscriptionState::AckState> state;  // kState: every partition's watermark
};

/// Sans-I/O codec. A record is u32 payload length, u32 CRC-32 (zlib) of the payload, payload
/// (u8 type, then the type's fields), little-endian.
std::string EncodeSubscriptionRecord(const SubscriptionRecord& record);
/// The whole records at the start of `log`, in order; `*valid_end` gets where they end. A torn
/// last record ends the log (it was being written when the broker stopped and was never
/// answered). Errors: Corruption for damage that a torn write cannot leave: a record whose
/// checksum fails while whole records follow it, or whose checksum holds but whose fields do
/// not parse. Pure.
Result<std::vector<SubscriptionRecord>> DecodeSubscriptionLog(std::string_view log,
                                                              size_t* valid_end);

/// The durable log of one subscription, `<dir>/subscriptions/<id hex>.log`: its declaration,
/// then acknowledgements; rewritten as declaration + state when it grows past kRotateBytes.
/// Appends are written at once and made durable by Sync, which one caller does for all the
/// appends before it (group sync).
///
/// Thread-safety: Append and Rewrite are serialised by the caller; Sync may be called from any
/// thread.
class SubscriptionLog {
 public:
  /// Creates the log holding `decl` (written atomically and fsynced, with its folder). Errors:
  /// IOError.
  static Result<std::unique_ptr<SubscriptionLog>> Create(std::string path,
                                                         const SubscriptionDecl& decl);
  /// Opens an existing log, cutting a torn tail; `*records` gets its records. Errors: IOError,
  /// Corruption (including a log that does not start with a declaration).
  static Result<std::unique_ptr<SubscriptionLog>> Open(std::string path,
                                                       std::vector<SubscriptionRecord>* records);
  ~SubscriptionLog();

  /// Writes a record (not yet durable); returns the log position after it. Errors: IOError
  /// (nothing appended; the log stays usable).
  Result<uint64_t> Append(const SubscriptionRecord& record);
  /// Makes every append up to `position` durable (fdatasync, shared by concurrent callers).
  Status Sync(uint64_t position);
  /// Replaces the log with `decl` + `state` (atomically). Errors: IOError.
  Status Rewrite(const SubscriptionDecl& decl, std::vector<SubscriptionState::AckState> state);
  /// Bytes written.
  uint64_t size() const;
  /// The size of the log right after its last Rewrite (0 before any): the log is rewritten
  /// again only once it has doubled, so a large state is not rewritten at every append.
  uint64_t rewritten_size() const;
  /// Removes the file (the subscription is deleted).
  Status Remove();

  static constexpr uint64_t kRotateBytes = uint64_t{4} << 20;

 private:
  SubscriptionLog(int fd, std::string path, uint64_t size);

  const std::string path_;
  mutable std::mutex mu_;  // fd_, size_, broken_
  int fd_ = -1;
  uint64_t size_ = 0;     // the file's size
  uint64_t written_ = 0;  // bytes appended since opened: positions, which never go back
  uint64_t rewritten_size_ = 0;
  std::mutex sync_mu_;   // taken before mu_
  uint64_t synced_ = 0;  // under sync_mu_: appends up to here are durable
};

}  // namespace higgins::subscription
