#pragma once

#include <string>
#include <vector>

namespace higgins::bench {

/// A pair to report: the benchmark named `name` against `baseline` from the same run, compared
/// by bytes_per_second (or items_per_second when neither reports bytes). Names are the full
/// benchmark names as printed (e.g. "BM_IpcWrite/1000000").
struct RatioPair {
  std::string name;
  std::string baseline;
  std::string note;  // printed after the ratio, e.g. "target >= 0.5"
  /// Compare wall time per iteration (name / baseline) instead of throughput.
  bool by_time = false;
};

/// Runs every registered benchmark with the console reporter, then prints one line per pair:
/// "ratio <name> / <baseline> = <x> (<note>)". Call from main after benchmark::Initialize.
int RunWithRatios(const std::vector<RatioPair>& pairs);

}  // namespace higgins::bench
