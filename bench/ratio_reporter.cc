#include "ratio_reporter.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>

namespace higgins::bench {
namespace {

class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration && run.aggregate_name != "mean") continue;
      double rate = 0;
      auto bytes = run.counters.find("bytes_per_second");
      auto items = run.counters.find("items_per_second");
      if (bytes != run.counters.end()) {
        rate = bytes->second.value;
      } else if (items != run.counters.end()) {
        rate = items->second.value;
      } else if (run.GetAdjustedRealTime() > 0) {
        rate = 1.0 / run.GetAdjustedRealTime();
      }
      std::string name = run.run_name.str();
      rates_[name] = rate;
      times_[name] = run.GetAdjustedRealTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }

  std::map<std::string, double> rates_;
  std::map<std::string, double> times_;
};

}  // namespace

int RunWithRatios(const std::vector<RatioPair>& pairs) {
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\n");
  for (const RatioPair& p : pairs) {
    const auto& table = p.by_time ? reporter.times_ : reporter.rates_;
    auto a = table.find(p.name);
    auto b = table.find(p.baseline);
    if (a == table.end() || b == table.end() || b->second == 0) continue;
    std::printf("ratio %-5s %-40s / %-32s = %8.3f  (%s)\n", p.by_time ? "time" : "speed",
                p.name.c_str(), p.baseline.c_str(), a->second / b->second, p.note.c_str());
  }
  benchmark::Shutdown();
  return 0;
}

}  // namespace higgins::bench
