// JSON to Arrow on vega-datasets' flights-200k.json (200,000 rows of {delay, distance, time}),
// beside simdjson parsing the same bytes without building anything. Target (issue [arrow]):
// JSON to Arrow >= 0.4x the throughput of the bare parse.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "arrow/json/json_reader.h"
#include "ratio_reporter.h"

namespace arrow = higgins::arrow;
namespace json = higgins::arrow::json;

namespace {

const std::string& FlightsJson() {
  static const std::string text = [] {
    const char* env = std::getenv("HIGGINS_FLIGHTS_JSON");
    std::string path =
        env != nullptr
            ? env
            : std::string(HIGGINS_SOURCE_DIR) +
                  "/tools/interop/node_modules/vega-datasets/data/flights-200k.json";
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (ss.str().empty()) {
      std::fprintf(stderr, "cannot read %s (run scripts/install-deps)\n", path.c_str());
      std::exit(1);
    }
    return ss.str();
  }();
  return text;
}

arrow::SchemaPtr FlightsSchema() {
  return arrow::MakeSchema({arrow::Field("delay", arrow::DataType::Int32()),
                            arrow::Field("distance", arrow::DataType::Int32()),
                            arrow::Field("time", arrow::DataType::Float64())});
}

// Baseline 1: simdjson On Demand visiting every value of every row, building nothing.
void BM_SimdjsonOnDemandParse(benchmark::State& state) {
  const std::string& text = FlightsJson();
  simdjson::padded_string padded(text);
  simdjson::ondemand::parser parser;
  for (auto _ : state) {
    simdjson::ondemand::document doc = parser.iterate(padded);
    int64_t sum = 0;
    for (simdjson::ondemand::object row : doc.get_array()) {
      for (auto field : row) {
        simdjson::ondemand::value v = field.value();
        if (v.type() == simdjson::ondemand::json_type::number) {
          sum += static_cast<int64_t>(double(v.get_double()));
        }
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

// Baseline 2: simdjson DOM parse (validates the whole document into its tape).
void BM_SimdjsonDomParse(benchmark::State& state) {
  const std::string& text = FlightsJson();
  simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element doc = parser.parse(padded);
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void BM_JsonToArrow(benchmark::State& state) {
  const std::string& text = FlightsJson();
  const arrow::SchemaPtr schema = FlightsSchema();
  int64_t rows = 0;
  for (auto _ : state) {
    auto batch = json::ReadJson(text, schema);
    if (!batch.ok()) {
      state.SkipWithError(batch.status().ToString().c_str());
      break;
    }
    rows = batch->num_rows();
    benchmark::DoNotOptimize(batch);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["rows"] = static_cast<double>(rows);
}

BENCHMARK(BM_SimdjsonOnDemandParse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimdjsonDomParse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JsonToArrow)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  return higgins::bench::RunWithRatios({
      {"BM_JsonToArrow", "BM_SimdjsonOnDemandParse", "target >= 0.4"},
      {"BM_JsonToArrow", "BM_SimdjsonDomParse", "target >= 0.4"},
  });
}
