// Kafka record batches v2 (src/kafka): encoding (the Fetch path) and decoding (the Produce path)
// of a batch of 1000 records with 100-byte values and 16-byte keys, uncompressed and lz4, plus
// CRC-32C with and without SSE4.2. The consume target is >= 1M records/s per core; the
// items_per_second columns count records.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "kafka/crc32c.h"
#include "kafka/record_batch.h"
#include "ratio_reporter.h"

namespace {

using higgins::kafka::Compression;

constexpr int kRecords = 1000;

struct Input {
  std::vector<std::string> keys;
  std::vector<std::string> values;
  std::vector<higgins::kafka::RecordToWrite> records;

  Input() {
    uint32_t x = 1;
    for (int i = 0; i < kRecords; ++i) {
      keys.push_back("key-" + std::to_string(1000000000 + i) + "--");
      std::string v(100, ' ');
      for (char& c : v) {
        x = x * 1103515245 + 12345;
        c = static_cast<char>('a' + ((x >> 16) % 16));
      }
      values.push_back(std::move(v));
    }
    for (int i = 0; i < kRecords; ++i) {
      records.push_back({1700000000000 + i, keys[i], values[i], {}});
    }
  }
};

const Input& TheInput() {
  static const Input input;
  return input;
}

higgins::kafka::BatchToWrite Batch(Compression codec) {
  higgins::kafka::BatchToWrite batch;
  batch.base_offset = 42;
  batch.compression = codec;
  batch.records = TheInput().records;
  return batch;
}

void BM_Encode(benchmark::State& state) {
  const auto batch = Batch(static_cast<Compression>(state.range(0)));
  std::string out;
  for (auto _ : state) {
    out.clear();
    if (!AppendRecordBatch(batch, out).ok()) state.SkipWithError("encode failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
  state.counters["batch_bytes"] = static_cast<double>(out.size());
}
BENCHMARK(BM_Encode)->Arg(0)->Arg(3);

void BM_Decode(benchmark::State& state) {
  const std::string bytes = *EncodeRecordBatch(Batch(static_cast<Compression>(state.range(0))));
  for (auto _ : state) {
    auto batches = higgins::kafka::DecodeRecordBatches(bytes);
    if (!batches.ok()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(batches);
  }
  state.SetItemsProcessed(state.iterations() * kRecords);
}
BENCHMARK(BM_Decode)->Arg(0)->Arg(3);

void BM_Crc32c(benchmark::State& state) {
  const std::string data(64 * 1024, 'x');
  for (auto _ : state) benchmark::DoNotOptimize(higgins::kafka::Crc32c(data));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_Crc32c);

void BM_Crc32cPortable(benchmark::State& state) {
  const std::string data(64 * 1024, 'x');
  for (auto _ : state) benchmark::DoNotOptimize(higgins::kafka::Crc32cExtendPortable(0, data));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_Crc32cPortable);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  return higgins::bench::RunWithRatios({
      {"BM_Encode/3", "BM_Encode/0", "info: lz4 vs uncompressed encode, records/s"},
      {"BM_Decode/3", "BM_Decode/0", "info: lz4 vs uncompressed decode, records/s"},
      {"BM_Crc32c", "BM_Crc32cPortable", "info: SSE4.2 vs slicing-by-8"},
  });
}
