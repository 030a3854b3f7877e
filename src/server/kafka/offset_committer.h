#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "common/serial_executor.h"
#include "higgins/status.h"
#include "server/kafka/offset_store.h"

namespace higgins::server::kafka {

/// Stores consumer groups' committed offsets off the network threads (docs/kafka.md,
/// "Consumer groups"): OffsetCommit requests queue here, and one thread writes every request
/// queued while the previous write and fdatasync ran as one more write and one fdatasync
/// (OffsetStore::StoreMany), so that many consumers committing at once cost about one sync.
/// Thread-safe.
class OffsetCommitter {
 public:
  using Done = std::function<void(Status)>;

  /// `store` outlives the committer.
  explicit OffsetCommitter(OffsetStore* store) : store_(store) {}

  /// Stores `commits` of `group`; `done` runs on the committer's thread once they are durable
  /// and visible to OffsetStore::Fetch, or with the store's error (IOError), or Internal when
  /// the committer is being destroyed. `done` must not block.
  void Submit(std::string group, std::vector<OffsetStore::Commit> commits, Done done);

 private:
  void Flush();

  OffsetStore* store_;
  std::mutex mu_;
  std::vector<OffsetStore::GroupCommits> pending_;
  std::vector<Done> pending_done_;
  bool scheduled_ = false;   // a Flush is queued and has not taken pending_ yet
  SerialExecutor executor_;  // last: its destructor runs the queued Flush first
};

}  // namespace higgins::server::kafka
