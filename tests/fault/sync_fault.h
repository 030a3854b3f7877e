#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace higgins::test {

/// The test side of the sync fault shim (sync_fault_shim.c): its control folder, the environment
/// that preloads it into a process, and the power cut it lets a test simulate. Not thread-safe.
class SyncFault {
 public:
  /// `control_dir` is created if absent; the shim writes its files there.
  explicit SyncFault(std::string control_dir);

  /// The shim's shared library (built beside the tests).
  static std::string ShimPath();
  /// Whether the shim is preloaded into this process.
  static bool LoadedHere();
  /// Variables that preload the shim, pointed at this control folder, into a process started
  /// with them (LD_PRELOAD, HIGGINS_SYNC_FAULT_DIR, and ASAN_OPTIONS allowing a library before
  /// the AddressSanitizer runtime).
  std::vector<std::pair<std::string, std::string>> Environment() const;

  /// While slow, every fsync / fdatasync of a process with the shim waits (up to 60 s).
  void SetSlow(bool slow);
  /// Waits until a sync of a file whose path contains `path_part` is being held; false when
  /// none is within `timeout`.
  bool WaitUntilHeld(std::string_view path_part, std::chrono::milliseconds timeout) const;

  /// Per file, its size when its last successful sync began: what a power cut leaves of it.
  std::map<std::string, uint64_t> SyncedSizes() const;
  /// Simulates a power cut after every process with the shim has died: each regular file under
  /// `root` whose name ends with one of `suffixes` is cut to its last synced size, or to 0 bytes
  /// when it was never synced (its data only ever reached the page cache). Returns one line
  /// per file cut ("path: from -> to bytes"), for failure messages.
  std::vector<std::string> CutToSynced(const std::string& root,
                                       const std::vector<std::string>& suffixes) const;

 private:
  std::string dir_;
};

}  // namespace higgins::test
