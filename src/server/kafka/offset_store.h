#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common/file_util.h"
#include "higgins/result.h"

namespace higgins::server::kafka {

/// The offsets Kafka consumer groups commit (OffsetCommit), kept durably in one append-only file
/// (docs/storage-format.md, "Kafka committed offsets") and in memory for OffsetFetch. Independent
/// of Higgins subscriptions. A commit is fdatasynced before Store returns, so an acknowledged
/// commit survives kill -9 and a power cut; at open the file is read back, a torn last record
/// (a crash mid-append) is cut off, and the file is rewritten with only the latest offsets when
/// most of it is superseded. Thread-safe: writers take turns; Fetch waits for none of their
/// I/O, only for the moment a write's offsets become visible.
class OffsetStore {
 public:
  struct Committed {
    int64_t offset = -1;
    int32_t leader_epoch = -1;
    std::optional<std::string> metadata;
    bool operator==(const Committed&) const = default;
  };
  struct Commit {
    std::string topic;
    int32_t partition = 0;
    Committed committed;
  };

  /// Opens (creating) the file at `path`; its folder is created if needed. Errors: IOError;
  /// Corruption when a record before the last fails its CRC (damage, not a torn append).
  static Result<std::unique_ptr<OffsetStore>> Open(std::string path);

  /// Stores `commits` of `group` as one record, durably, then makes them visible to Fetch.
  /// Errors: IOError (nothing is visible then; the store refuses later commits, since the
  /// file's state is unknown after a failed write or sync).
  Status Store(std::string_view group, const std::vector<Commit>& commits);
  /// The commits of several requests, one record each, with one write and one fdatasync for
  /// all (group commit: OffsetCommitter). Errors: as Store, for all of them.
  struct GroupCommits {
    std::string group;
    std::vector<Commit> commits;
  };
  Status StoreMany(std::span<const GroupCommits> batch);
  std::optional<Committed> Fetch(std::string_view group, std::string_view topic,
                                 int32_t partition) const;
  /// Every committed partition of `group`, in topic and partition order.
  std::vector<Commit> FetchAll(std::string_view group) const;
  /// Every group with a committed offset, in id order (ListGroups lists them after a restart).
  std::vector<std::string> Groups() const;

  /// Bytes of the file (for tests of the rewrite).
  uint64_t file_bytes() const;

 private:
  using Key = std::tuple<std::string, std::string, int32_t>;  // group, topic, partition

  explicit OffsetStore(std::string path) : path_(std::move(path)) {}
  Status Load();
  /// Rewrites the file with one record per group when the live offsets take less than a
  /// quarter of it. Under write_mu_.
  Status MaybeRewrite();
  static std::string EncodeRecord(std::string_view group, const std::vector<Commit>& commits);

  const std::string path_;
  /// Held by a writer across its write, fdatasync and rewrite: guards the members below it.
  mutable std::mutex write_mu_;
  FileHandle file_;
  uint64_t bytes_ = 0;       // the file's size
  uint64_t live_bytes_ = 0;  // what a rewrite would write (estimated)
  Status failure_;
  /// Guards offsets_, for as long as a lookup or an update of it takes.
  mutable std::mutex mu_;
  std::map<Key, Committed, std::less<>> offsets_;
};

}  // namespace higgins::server::kafka
