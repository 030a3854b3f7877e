// IPC write and read of an int64 + utf8 record batch, beside memcpy of the same bytes.
// Targets (issue [arrow]): uncompressed write >= 0.5x memcpy (compared like for like: into a
// reused output vs memcpy into a reused buffer, and into a fresh output vs memcpy into a fresh
// allocation); reading is zero-copy, so its time does not grow with the body size (compare
// BM_IpcRead at 10k, 100k and 1M rows).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "arrow/ipc/dictionary_test_writer.h"
#include "arrow/ipc/message_writer.h"
#include "higgins/arrow/ipc/reader.h"
#include "higgins/arrow/ipc/writer.h"
#include "ratio_reporter.h"

namespace arrow = higgins::arrow;
namespace ipc = higgins::arrow::ipc;

namespace {

arrow::RecordBatch MakeBatch(int64_t rows) {
  auto schema = arrow::MakeSchema({arrow::Field("offset", arrow::DataType::Int64(), false),
                                   arrow::Field("key", arrow::DataType::Utf8(), false)});
  arrow::ArrayBuilder ints(arrow::DataType::Int64());
  arrow::ArrayBuilder strs(arrow::DataType::Utf8());
  ints.Reserve(rows);
  strs.Reserve(rows, rows * 12);
  for (int64_t i = 0; i < rows; ++i) {
    ints.AppendPrimitive<int64_t>(i * 7);
    (void)strs.AppendBinary("customer-" + std::to_string(i % 100000));
  }
  return *arrow::RecordBatch::Make(schema, rows, {ints.Finish(), strs.Finish()});
}

int64_t BodyBytes(const arrow::RecordBatch& batch) {
  int64_t n = 0;
  for (const auto& c : batch.columns()) {
    for (const auto& b : c.data().buffers) n += static_cast<int64_t>(b.size());
  }
  return n;
}

void BM_Memcpy(benchmark::State& state) {
  const arrow::RecordBatch batch = MakeBatch(state.range(0));
  const size_t bytes = static_cast<size_t>(BodyBytes(batch));
  std::vector<uint8_t> src(bytes, 1);
  std::vector<uint8_t> dst(bytes);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

// The same copy into memory freshly allocated each time, as a writer that hands out its output
// must do: the kernel maps and zeroes new pages, which costs more than the copy itself.
void BM_MemcpyFreshAllocation(benchmark::State& state) {
  const arrow::RecordBatch batch = MakeBatch(state.range(0));
  const size_t bytes = static_cast<size_t>(BodyBytes(batch));
  std::vector<uint8_t> src(bytes, 1);
  for (auto _ : state) {
    higgins::Buffer dst = higgins::Buffer::Copy(std::span<const uint8_t>(src));
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

// A writer that reuses its output buffer (as a segment writer does): the like-for-like
// comparison with BM_Memcpy.
void BM_IpcWriteReusedOutput(benchmark::State& state) {
  const arrow::RecordBatch batch = MakeBatch(state.range(0));
  ipc::RecordBatchSerializer serializer(ipc::WriteOptions{});
  higgins::BufferBuilder out;
  for (auto _ : state) {
    out.Clear();
    if (!serializer.Append(batch, out).ok()) state.SkipWithError("write failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * BodyBytes(batch));
}

void BM_IpcWrite(benchmark::State& state, ipc::Compression compression) {
  const arrow::RecordBatch batch = MakeBatch(state.range(0));
  ipc::WriteOptions options;
  options.compression = compression;
  for (auto _ : state) {
    ipc::StreamWriter writer(batch.schema(), options);
    if (!writer.WriteBatch(batch).ok()) state.SkipWithError("write failed");
    auto bytes = writer.Finish();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * BodyBytes(batch));
}

void BM_IpcRead(benchmark::State& state, bool validate_full, ipc::Compression compression) {
  const arrow::RecordBatch batch = MakeBatch(state.range(0));
  ipc::WriteOptions write;
  write.compression = compression;
  const higgins::Buffer bytes = *ipc::WriteStream(batch.schema(), {batch}, write);
  ipc::ReadOptions options;
  options.validate_full = validate_full;
  for (auto _ : state) {
    auto result = ipc::ReadStream(bytes, options);
    if (!result.ok() || result->batches.size() != 1) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * BodyBytes(batch));
}

// The same batch as MakeBatch with `key` dictionary-encoded (int32 indices into 100 000
// distinct keys, the dictionary sent once before the batch), as pyarrow writes categoricals.
// Reading materializes `key` as utf8, so this is the cost of decoding plus one copy of the
// selected strings; compare with BM_IpcRead/validated.
void BM_IpcReadDictionary(benchmark::State& state) {
  const int64_t rows = state.range(0);
  const int64_t distinct = std::min<int64_t>(rows, 100000);
  const arrow::RecordBatch plain = MakeBatch(rows);
  arrow::ArrayBuilder keys(arrow::DataType::Utf8());
  arrow::ArrayBuilder indices(arrow::DataType::Int32());
  for (int64_t i = 0; i < distinct; ++i) (void)keys.AppendBinary("customer-" + std::to_string(i));
  for (int64_t i = 0; i < rows; ++i) indices.AppendPrimitive<int32_t>(int32_t(i % 100000));
  ipc::testing::DictionaryIpcWriter writer(plain.schema(),
                                           {ipc::DictionaryField{1, 0, arrow::DataType::Int32()}});
  writer.WriteDictionary(0, keys.Finish());
  writer.WriteBatch({plain.column(0), indices.Finish()});
  const higgins::Buffer bytes = writer.Finish();
  for (auto _ : state) {
    auto result = ipc::ReadStream(bytes);
    if (!result.ok() || result->batches.size() != 1) state.SkipWithError("read failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * BodyBytes(plain));
}

BENCHMARK(BM_Memcpy)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MemcpyFreshAllocation)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IpcWriteReusedOutput)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcWrite, uncompressed, ipc::Compression::kNone)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcWrite, lz4, ipc::Compression::kLz4Frame)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcWrite, zstd, ipc::Compression::kZstd)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcRead, zero_copy, false, ipc::Compression::kNone)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcRead, validated, true, ipc::Compression::kNone)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcRead, lz4_validated, true, ipc::Compression::kLz4Frame)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_IpcRead, zstd_validated, true, ipc::Compression::kZstd)
    ->Arg(1'000'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_IpcReadDictionary)->Arg(10'000)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  return higgins::bench::RunWithRatios({
      {"BM_IpcWriteReusedOutput/1000000", "BM_Memcpy/1000000", "target >= 0.5"},
      {"BM_IpcWrite/uncompressed/1000000", "BM_MemcpyFreshAllocation/1000000",
       "target >= 0.5: both allocate their output"},
      {"BM_IpcWrite/uncompressed/1000000", "BM_Memcpy/1000000", "info: fresh output vs warm"},
      {"BM_IpcWrite/lz4/1000000", "BM_Memcpy/1000000", "info"},
      {"BM_IpcWrite/zstd/1000000", "BM_Memcpy/1000000", "info"},
      {"BM_IpcRead/zero_copy/1000000", "BM_Memcpy/1000000", "zero-copy: >> 1"},
      {"BM_IpcRead/validated/1000000", "BM_Memcpy/1000000", "info: full validation incl. UTF-8"},
      {"BM_IpcReadDictionary/1000000", "BM_IpcRead/validated/1000000",
       "info: dictionary-encoded key materialized as utf8"},
      {"BM_IpcRead/zero_copy/1000000", "BM_IpcRead/zero_copy/10000",
       "zero-copy: ~1 although the body is 100x larger", true},
  });
}
