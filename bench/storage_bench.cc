// File storage produce path: Append (+ Sync) of 1000-row batches of ~100-byte records, against
// raw write(2) (+ fdatasync) of the same bytes per batch, measured in the same run. Targets
// (issue [storage]): Append >= 100 MB/s to the page cache and >= 0.5x raw write(2); Append+Sync
// >= 0.9x write+fdatasync (the disk dominates both). Also: the frame CRC (storage::Crc32 against
// zlib), and reads of an entry appended by this process (no ValidateFull) and of one recovered
// from disk (ValidateFull).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "higgins/arrow/array.h"
#include "ratio_reporter.h"
#include "storage/crc32.h"
#include "storage/storage.h"

namespace arrow = higgins::arrow;
namespace storage = higgins::storage;

namespace {

constexpr int64_t kRows = 1000;
constexpr int64_t kRecordBytes = 100;

arrow::RecordBatch MakeBatch() {
  auto schema = arrow::MakeSchema({arrow::Field("seq", arrow::DataType::Int64(), false),
                                   arrow::Field("key", arrow::DataType::Utf8(), false),
                                   arrow::Field("payload", arrow::DataType::Utf8(), true)});
  arrow::ArrayBuilder seq(arrow::DataType::Int64());
  arrow::ArrayBuilder key(arrow::DataType::Utf8());
  arrow::ArrayBuilder payload(arrow::DataType::Utf8());
  const std::string text(kRecordBytes - 8 - 12, 'p');
  for (int64_t i = 0; i < kRows; ++i) {
    seq.AppendPrimitive<int64_t>(i);
    (void)key.AppendBinary("customer-" + std::to_string(i % 997));
    (void)payload.AppendBinary(text);
  }
  return *arrow::RecordBatch::Make(schema, kRows, {seq.Finish(), key.Finish(), payload.Finish()});
}

/// A fresh directory under /tmp for one benchmark, removed afterwards.
class BenchDir {
 public:
  BenchDir() {
    char pattern[] = "/tmp/higgins-storage-bench-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~BenchDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::unique_ptr<storage::BucketLog> OpenLog(const std::string& dir) {
  auto files = storage::MakeFileStorage(dir);
  if (!files.ok()) return nullptr;
  auto log = (*files)->OpenBucket(higgins::StreamId(1), higgins::BucketId(0), MakeBatch().schema(),
                                  higgins::Sequence(0));
  return log.ok() ? std::move(log).value() : nullptr;
}

// Bytes one Append writes for the batch (its frame).
uint32_t FrameBytes(const arrow::RecordBatch& batch) {
  BenchDir dir;
  auto log = OpenLog(dir.path());
  return log->Append(batch, 0)->location.size;
}

// Without `sync`, the baseline still fdatasyncs once per 64 MiB, as the log does when it starts
// a new segment (the default segment_bytes), so both write the same bytes to the same disk.
void BM_RawWrite(benchmark::State& state, bool sync) {
  const std::vector<uint8_t> bytes(FrameBytes(MakeBatch()), 0x5A);
  const uint64_t roll_bytes = storage::FileStorageOptions().segment_bytes;
  BenchDir dir;
  int fd = ::open((dir.path() + "/raw").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  uint64_t unsynced = 0;
  for (auto _ : state) {
    if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
      state.SkipWithError("write failed");
      break;
    }
    unsynced += bytes.size();
    if ((sync || unsynced >= roll_bytes) && ::fdatasync(fd) != 0) {
      state.SkipWithError("fdatasync failed");
      break;
    }
    if (unsynced >= roll_bytes) unsynced = 0;
  }
  ::close(fd);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}

void BM_Append(benchmark::State& state, bool sync) {
  const arrow::RecordBatch batch = MakeBatch();
  BenchDir dir;
  auto log = OpenLog(dir.path());
  int64_t bytes = 0;
  for (auto _ : state) {
    auto entry = log->Append(batch, 0);
    if (!entry.ok() || (sync && !log->Sync().ok())) {
      state.SkipWithError("append or sync failed");
      break;
    }
    bytes += entry->location.size;
  }
  state.SetBytesProcessed(bytes);
  state.counters["records/s"] = benchmark::Counter(static_cast<double>(state.iterations() * kRows),
                                                   benchmark::Counter::kIsRate);
}

void BM_Read(benchmark::State& state, bool recovered) {
  const arrow::RecordBatch batch = MakeBatch();
  BenchDir dir;
  auto log = OpenLog(dir.path());
  std::vector<storage::EntryLocation> locations;
  for (int i = 0; i < 64; ++i) locations.push_back(log->Append(batch, 0)->location);
  if (recovered) log = OpenLog(dir.path());
  size_t i = 0;
  for (auto _ : state) {
    auto read = log->Read(locations[i++ % locations.size()]);
    if (!read.ok()) state.SkipWithError(read.status().ToString().c_str());
    benchmark::DoNotOptimize(read);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * locations[0].size));
}

// The frame checksum over one batch's bytes: zlib's table-driven crc32 against storage::Crc32.
void BM_Crc32(benchmark::State& state, bool zlib) {
  const std::vector<uint8_t> bytes(FrameBytes(MakeBatch()), 0x5A);
  for (auto _ : state) {
    uint32_t crc = zlib ? static_cast<uint32_t>(crc32_z(0, bytes.data(), bytes.size()))
                        : storage::Crc32(0, bytes.data(), bytes.size());
    benchmark::DoNotOptimize(crc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}

BENCHMARK_CAPTURE(BM_Crc32, zlib, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Crc32, folded, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_RawWrite, page_cache, false)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.5)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Append, page_cache, false)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.5)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_RawWrite, fdatasync, true)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.5)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Append, sync, true)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(0.5)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, appended_here, false)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Read, recovered_validated, true)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  return higgins::bench::RunWithRatios({
      {"BM_Append/page_cache/min_time:0.500/real_time",
       "BM_RawWrite/page_cache/min_time:0.500/real_time",
       "target >= 0.5: serialise + CRC + write vs write alone"},
      {"BM_Append/sync/min_time:0.500/real_time", "BM_RawWrite/fdatasync/min_time:0.500/real_time",
       "target >= 0.9: the disk dominates"},
      {"BM_Crc32/folded", "BM_Crc32/zlib", "info: PCLMULQDQ folding vs zlib's tables"},
      {"BM_Read/recovered_validated/real_time", "BM_Read/appended_here/real_time",
       "info: cost of ValidateFull"},
  });
}
