// The executors of src/common on the committer's hot path: posting N items through a
// BatchingWorker (what GroupCommitter::Submit does, one handler call per batch) against posting N
// tasks through a SerialExecutor (one std::function per item), each until the last has run, in
// the same run. Also a ThreadPool of one thread, the derived engine's shape with one worker.
// Informational: the overhead of each abstraction is on record (docs/performance.md).
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <future>
#include <vector>

#include "common/batching_worker.h"
#include "common/serial_executor.h"
#include "common/thread_pool.h"
#include "ratio_reporter.h"

namespace {

void BM_BatchingWorker(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::atomic<int64_t> seen{0};
  std::promise<void>* last = nullptr;  // set before each round's first post
  int64_t target = 0;
  higgins::BatchingWorker<int64_t> worker([&](std::vector<int64_t>& batch) {
    int64_t sum = 0;
    for (int64_t v : batch) sum += v;
    if (seen.fetch_add(static_cast<int64_t>(batch.size())) + static_cast<int64_t>(batch.size()) ==
        target) {
      last->set_value();
    }
    benchmark::DoNotOptimize(sum);
    return higgins::BatchingWorker<int64_t>::NextRun();
  });
  for (auto _ : state) {
    std::promise<void> done;
    last = &done;
    target = seen.load() + n;
    for (int64_t i = 0; i < n; ++i) {
      int64_t item = i;
      if (!worker.Post(item)) state.SkipWithError("refused");
    }
    done.get_future().wait();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_SerialExecutor(benchmark::State& state) {
  const int64_t n = state.range(0);
  higgins::SerialExecutor executor;
  int64_t sum = 0;  // only the executor's thread writes it
  for (auto _ : state) {
    std::promise<void> done;
    for (int64_t i = 0; i < n - 1; ++i) executor.Post([&sum, i] { sum += i; });
    executor.Post([&sum, &done, n] {
      sum += n - 1;
      done.set_value();
    });
    done.get_future().wait();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_ThreadPool1(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto pool = higgins::ThreadPool::Start(1);
  if (!pool.ok()) return state.SkipWithError("no pool");
  int64_t sum = 0;  // one thread only
  for (auto _ : state) {
    std::promise<void> done;
    for (int64_t i = 0; i < n - 1; ++i) (*pool)->Post([&sum, i](size_t) { sum += i; });
    (*pool)->Post([&sum, &done, n](size_t) {
      sum += n - 1;
      done.set_value();
    });
    done.get_future().wait();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK(BM_BatchingWorker)->Arg(1)->Arg(1000)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SerialExecutor)->Arg(1)->Arg(1000)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ThreadPool1)->Arg(1)->Arg(1000)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  return higgins::bench::RunWithRatios({
      {"BM_BatchingWorker/1000/real_time", "BM_SerialExecutor/1000/real_time",
       "info: 1000 items, one run per batch vs one task per item"},
      {"BM_BatchingWorker/1/real_time", "BM_SerialExecutor/1/real_time",
       "info: one item, post-to-run round trip"},
      {"BM_ThreadPool1/1000/real_time", "BM_SerialExecutor/1000/real_time",
       "info: a one-thread pool vs the serial executor"},
  });
}
