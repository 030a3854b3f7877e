// Power cuts at the storage and index level, in process: the sync fault shim records what each
// fsync made durable, and a power cut is simulated by cutting every file back to that. The
// binary re-executes itself with the shim preloaded when started without it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "storage/storage.h"
#include "storage/storage_test_util.h"
#include "stream/stream_log.h"
#include "sync_fault.h"

namespace higgins {
namespace {

/// Runs before main: without the shim in this process, exec this binary again with it (same
/// arguments), so that the tests run the same under ctest and by hand.
const bool kUnderShim = [] {
  if (test::SyncFault::LoadedHere() || std::getenv("HIGGINS_SYNC_FAULT_REEXEC") != nullptr) {
    return test::SyncFault::LoadedHere();
  }
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  std::vector<std::string> args;
  for (std::string arg; std::getline(bytes, arg, '\0');) args.push_back(arg);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string asan_options =
      (asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : "") +
      "verify_asan_link_order=0";
  ::setenv("ASAN_OPTIONS", asan_options.c_str(), 1);
  ::setenv("LD_PRELOAD", test::SyncFault::ShimPath().c_str(), 1);
  ::setenv("HIGGINS_SYNC_FAULT_REEXEC", "1", 1);
  ::execv("/proc/self/exe", argv.data());
  return false;  // exec failed: the tests report it
}();

/// Each test points the shim at its own control folder.
class PowerCutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kUnderShim) << "the sync fault shim " << test::SyncFault::ShimPath()
                            << " is not preloaded";
    ::setenv("HIGGINS_SYNC_FAULT_DIR", (tmp_.path() + "/fault").c_str(), 1);
  }
  void TearDown() override { ::unsetenv("HIGGINS_SYNC_FAULT_DIR"); }

  /// A power cut: the data and index files keep only what was synced.
  std::vector<std::string> PowerCut() { return fault_.CutToSynced(data_, {".segment", ".index"}); }

  storage::testing::TempDir tmp_;
  test::SyncFault fault_{tmp_.path() + "/fault"};
  const std::string data_ = tmp_.path() + "/data";
};

TEST_F(PowerCutTest, FileBucketRecoveredAfterACrashKeepsItsTailThroughAPowerCut) {
  const auto schema = storage::testing::RecordSchema();
  auto storage = storage::MakeFileStorage(data_ + "/storage");
  ASSERT_TRUE(storage.ok()) << storage.status().ToString();
  {
    auto log = (*storage)->OpenBucket(StreamId(1), BucketId(0), schema, Sequence(0));
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    ASSERT_TRUE((*log)->Append(storage::testing::RecordBatchOf(3), 1).ok());
    ASSERT_TRUE((*log)->Sync().ok());
    // The process stops here: this entry reached the page cache, never the disk.
    ASSERT_TRUE((*log)->Append(storage::testing::RecordBatchOf(4, 3), 2).ok());
  }
  {
    // The restart finds all 7 rows; whoever opened the bucket may now index and serve them.
    auto log = (*storage)->OpenBucket(StreamId(1), BucketId(0), schema, Sequence(3));
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    ASSERT_EQ((*log)->next_sequence(), Sequence(7));
  }
  const std::vector<std::string> cut = PowerCut();
  auto log = (*storage)->OpenBucket(StreamId(1), BucketId(0), schema, Sequence(7));
  ASSERT_TRUE(log.ok()) << log.status().ToString() << "\ncut: " << ::testing::PrintToString(cut);
  EXPECT_EQ((*log)->next_sequence(), Sequence(7)) << ::testing::PrintToString(cut);
}

stream::StreamLog::Options KvOptions(storage::Storage* storage, const std::string& index_dir) {
  stream::StreamLog::Options o;
  o.name = "kv";
  o.id = StreamId(1);
  o.schema = arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                                arrow::Field("data", arrow::DataType::Int32())});
  o.partition_key = "id";
  o.storage = storage;
  o.index_dir = index_dir;
  return o;
}

TEST_F(PowerCutTest, PowerCutAfterARestartNeverLeavesTheIndexAheadOfTheData) {
  auto storage = storage::MakeFileStorage(data_ + "/storage");
  ASSERT_TRUE(storage.ok()) << storage.status().ToString();
  const auto options = KvOptions(storage->get(), data_ + "/index/1");
  {
    auto kv = stream::StreamLog::Open(options);
    ASSERT_TRUE(kv.ok()) << kv.status().ToString();
    auto acked = (*kv)->Prepare(R"({"id":"a","data":1})", stream::PayloadFormat::kJson);
    ASSERT_TRUE(acked.ok() && (*kv)->CommitNow(*acked, 1).ok());
    // Appended, then the process stops before the group commit's sync: never acknowledged.
    auto unacked = (*kv)->Prepare(R"({"id":"r","data":5})", stream::PayloadFormat::kJson);
    ASSERT_TRUE(unacked.ok());
    stream::PendingEntries pending;
    std::vector<storage::BucketLog*> touched;
    ASSERT_TRUE((*kv)->Append(*unacked, 2, &pending, &touched).ok());
  }
  bool served = false;
  {
    // The restart recovers `r` from the page cache, indexes it (fdatasynced) and serves it.
    auto kv = stream::StreamLog::Open(options);
    ASSERT_TRUE(kv.ok()) << kv.status().ToString();
    served = (*kv)->Latest("r").ok();
  }
  const std::vector<std::string> cut = PowerCut();
  auto kv = stream::StreamLog::Open(options);
  ASSERT_TRUE(kv.ok()) << kv.status().ToString() << "\ncut: " << ::testing::PrintToString(cut);
  EXPECT_TRUE((*kv)->Latest("a").ok()) << "an acknowledged record was lost";
  EXPECT_EQ((*kv)->Latest("r").ok(), served)
      << "a record served before the power cut must survive it";
}

}  // namespace
}  // namespace higgins
