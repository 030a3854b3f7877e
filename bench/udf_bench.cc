// What a map UDF costs against the same transform in native C++ (docs/performance.md, "UDFs (map
// and reduce)"). Input: batches {id: utf8 not null, data: int32} of 1 and 1000 rows; the
// transform is the SDK example `double` (sdk/examples/double.c): data * 2 (overflow fails, nulls
// stay null), id carried over.
//
//   BM_NativeMap        the baseline: a native map operator reading the batch and building the
//                       output RecordBatch: one tight loop into a fresh Buffer, the id column
//                       (and the validity bitmap) reused as they are.
//   BM_UdfMap           the UDF path of the issue: EncodeBatch, Sandbox::Call on V8 (_reset,
//                       _malloc + copy, run, result copied out), DecodeResult (full validation,
//                       schema check).
//   BM_UdfMapBroker     BM_UdfMap plus the rest of what the broker does with a result
//                       (DerivedStream::Call): the row count and every partition key compared
//                       with the input's.
//   BM_UdfCallOnly      Sandbox::Call alone on bytes encoded once.
//   BM_KeyCheck         the broker's partition-key check alone (the key buffers compared).
//   BM_KeyCheckRowByRow the same check row by row (when the module rebuilt its key column).
//   BM_EncodeBatch, BM_DecodeResult
//                       the host's two halves alone, to show where BM_UdfMap's time goes.
//
// Ratios printed at the end are of time per batch, UDF / native (the target: at most 2
// for 1000 rows), and the share of each part of BM_UdfMapBroker.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"
#include "ratio_reporter.h"
#include "stream/partitioning.h"
#include "udf/abi.h"
#include "udf/engine.h"

namespace arrow = higgins::arrow;
namespace udf = higgins::udf;

namespace {

[[noreturn]] void Die(const std::string& why) {
  std::fprintf(stderr, "udf_bench: %s\n", why.c_str());
  std::exit(1);
}

arrow::SchemaPtr Schema() {
  // A map stream's non-key fields must be nullable (docs/udf-abi.md, "Failures").
  static const arrow::SchemaPtr schema =
      arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                         arrow::Field("data", arrow::DataType::Int32(), true)});
  return schema;
}

// Row i: {"id": "id-<i>", "data": i * 7 - 3000}, no nulls (as produced records usually are).
arrow::RecordBatch Input(int64_t rows) {
  arrow::ArrayBuilder id(arrow::DataType::Utf8()), data(arrow::DataType::Int32());
  id.Reserve(rows, rows * 8);
  data.Reserve(rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (!id.AppendBinary("id-" + std::to_string(i)).ok()) Die("append failed");
    data.AppendPrimitive<int32_t>(static_cast<int32_t>(i * 7 - 3000));
  }
  auto batch = arrow::RecordBatch::Make(Schema(), rows, {id.Finish(), data.Finish()});
  if (!batch.ok()) Die(batch.status().ToString());
  return *std::move(batch);
}

// ---- The native map operator ------------------------------------------------------------------

// data * 2 into a new values buffer; id and the validity bitmap shared with the input.
higgins::Result<arrow::RecordBatch> NativeDouble(const arrow::RecordBatch& in) {
  const arrow::Array& data = in.column(1);
  const arrow::ArrayData& d = data.data();
  const int64_t n = in.num_rows();
  const int32_t* src = reinterpret_cast<const int32_t*>(d.buffers[1].data()) + d.offset;
  higgins::BufferBuilder values;
  int32_t* dst = reinterpret_cast<int32_t*>(values.AppendUninitialized(static_cast<size_t>(n) * 4));
  bool overflow = false;
  if (d.null_count == 0) {
    for (int64_t i = 0; i < n; ++i) overflow |= __builtin_mul_overflow(src[i], 2, &dst[i]);
  } else {  // a null slot may hold anything: check valid slots only
    for (int64_t i = 0; i < n; ++i) {
      int32_t v;
      const bool o = __builtin_mul_overflow(src[i], 2, &v);
      const bool valid = data.IsValid(i);
      overflow |= o && valid;
      dst[i] = valid ? v : 0;
    }
  }
  if (overflow) return higgins::Status::InvalidArgument("data * 2 overflows int32");
  // The validity bitmap, if any, is shared as it is; with a sliced input it is kept at the
  // input's bit offset by copying it bit by bit (not the case here: offset 0).
  higgins::Buffer validity;
  if (d.null_count > 0) {
    if (d.offset == 0) {
      validity = d.buffers[0];
    } else {
      higgins::BufferBuilder bits;
      bits.Resize((static_cast<size_t>(n) + 7) / 8);
      for (int64_t i = 0; i < n; ++i) {
        if (data.IsValid(i)) bits.data()[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      }
      validity = bits.Finish();
    }
  }
  auto out = std::make_shared<arrow::ArrayData>();
  out->type = d.type;
  out->length = n;
  out->null_count = d.null_count;
  out->buffers = {std::move(validity), values.Finish()};
  return arrow::RecordBatch::Make(in.schema(), n, {in.column(0), arrow::Array(std::move(out))});
}

// ---- The UDF --------------------------------------------------------------------------------

struct Udf {
  std::unique_ptr<udf::Engine> engine;
  std::shared_ptr<const udf::CompiledModule> module;
  std::unique_ptr<udf::Sandbox> sandbox;  // bound to the main thread, where benchmarks run
  udf::CallLimits limits;                 // the broker's defaults
};

Udf& TheUdf() {
  static Udf* udf = [] {
    auto* u = new Udf;
    // UDF_BENCH_MODULE=<file.wasm> measures another build of the module (A/B comparisons).
    const char* env = std::getenv("UDF_BENCH_MODULE");
    const std::string path = env != nullptr && *env != '\0' ? env : HIGGINS_DOUBLE_WASM;
    std::ifstream file(path, std::ios::binary);
    if (!file) Die("cannot read " + path);
    const std::string wasm((std::istreambuf_iterator<char>(file)), {});
    auto engine = udf::MakeV8Engine(udf::EngineOptions{});
    if (!engine.ok()) Die(engine.status().ToString());
    u->engine = *std::move(engine);
    if (auto info = u->engine->Inspect(wasm); !info.ok()) Die(info.status().ToString());
    auto module = u->engine->Compile(wasm);
    if (!module.ok()) Die(module.status().ToString());
    u->module = *std::move(module);
    auto sandbox = u->engine->NewSandbox();
    if (!sandbox.ok()) Die(sandbox.status().ToString());
    u->sandbox = *std::move(sandbox);
    return u;
  }();
  return *udf;
}

// EncodeBatch, Sandbox::Call, DecodeResult (the path of DerivedStream::Call).
higgins::Result<arrow::RecordBatch> UdfDouble(const arrow::RecordBatch& in) {
  Udf& u = TheUdf();
  HIGGINS_ASSIGN_OR_RETURN(std::string bytes, udf::EncodeBatch(in));
  const std::string_view views[1] = {bytes};
  HIGGINS_ASSIGN_OR_RETURN(std::string result, u.sandbox->Call(*u.module, views, u.limits));
  return udf::DecodeResult(result, Schema());
}

// What DerivedStream::Call checks after DecodeResult: the row count, and every partition key
// against the input's (`keys`: the broker extracts them before the call, as here).
higgins::Status CheckKeys(const arrow::RecordBatch& in, const arrow::RecordBatch& out,
                          const std::vector<const std::string*>& keys) {
  if (out.num_rows() != in.num_rows()) return higgins::Status::InvalidArgument("row count");
  // As DerivedStream::Call: the buffers compared at once, row by row only when they differ.
  if (higgins::stream::SameKeyColumn(out.column(0), in.column(0))) return higgins::Status::OK();
  return higgins::stream::CheckSameKeys(out.column(0), keys, "id");
}

// The partition keys of `batch`, and pointers to them (as DerivedStream::Call gets them).
struct Keys {
  explicit Keys(const arrow::RecordBatch& batch) : text(static_cast<size_t>(batch.num_rows())) {
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      if (!higgins::stream::PartitionKeyOf(batch.column(0), r, &text[static_cast<size_t>(r)])
               .ok()) {
        Die("bad key");
      }
    }
    for (const auto& k : text) pointers.push_back(&k);
  }
  std::vector<std::string> text;
  std::vector<const std::string*> pointers;
};

// Both implementations must compute the same batch, or the comparison means nothing.
void CheckSameResult(const arrow::RecordBatch& in) {
  auto native = NativeDouble(in);
  auto wasm = UdfDouble(in);
  if (!native.ok()) Die("native: " + native.status().ToString());
  if (!wasm.ok()) Die("udf: " + wasm.status().ToString());
  if (!CheckKeys(in, *wasm, Keys(in).pointers).ok()) Die("the UDF changed a key");
  if (!native->Equals(*wasm)) Die("the UDF and the native map disagree");
  for (int64_t r = 0; r < in.num_rows(); ++r) {
    if (native->column(1).Value<int32_t>(r) != in.column(1).Value<int32_t>(r) * 2) {
      Die("wrong result");
    }
  }
}

void BM_NativeMap(benchmark::State& state) {
  const arrow::RecordBatch in = Input(state.range(0));
  for (auto _ : state) {
    auto out = NativeDouble(in);
    if (!out.ok()) Die(out.status().ToString());
    benchmark::DoNotOptimize(out->column(1).data().buffers[1].data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_UdfMap(benchmark::State& state) {
  const arrow::RecordBatch in = Input(state.range(0));
  CheckSameResult(in);
  for (auto _ : state) {
    auto out = UdfDouble(in);
    if (!out.ok()) Die(out.status().ToString());
    benchmark::DoNotOptimize(out->column(1).data().buffers[1].data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_UdfMapBroker(benchmark::State& state) {
  const arrow::RecordBatch in = Input(state.range(0));
  CheckSameResult(in);
  const Keys keys(in);
  for (auto _ : state) {
    auto out = UdfDouble(in);
    if (!out.ok()) Die(out.status().ToString());
    if (!CheckKeys(in, *out, keys.pointers).ok()) Die("key check failed");
    benchmark::DoNotOptimize(out->column(1).data().buffers[1].data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

// The broker's key check (buffers first), or with `row_by_row` the row-by-row check alone.
void KeyCheck(benchmark::State& state, bool row_by_row) {
  const arrow::RecordBatch in = Input(state.range(0));
  auto out = UdfDouble(in);
  if (!out.ok()) Die(out.status().ToString());
  const Keys keys(in);
  for (auto _ : state) {
    const higgins::Status s = row_by_row
                                  ? higgins::stream::CheckSameKeys(out->column(0), keys.pointers, "id")
                                  : CheckKeys(in, *out, keys.pointers);
    if (!s.ok()) Die("key check failed");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_KeyCheck(benchmark::State& state) { KeyCheck(state, false); }
void BM_KeyCheckRowByRow(benchmark::State& state) { KeyCheck(state, true); }

void BM_UdfCallOnly(benchmark::State& state) {
  Udf& u = TheUdf();
  auto bytes = udf::EncodeBatch(Input(state.range(0)));
  if (!bytes.ok()) Die(bytes.status().ToString());
  const std::string_view views[1] = {*bytes};
  for (auto _ : state) {
    auto result = u.sandbox->Call(*u.module, views, u.limits);
    if (!result.ok()) Die(result.status().ToString());
    benchmark::DoNotOptimize(result->data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_EncodeBatch(benchmark::State& state) {
  const arrow::RecordBatch in = Input(state.range(0));
  for (auto _ : state) {
    auto bytes = udf::EncodeBatch(in);
    if (!bytes.ok()) Die(bytes.status().ToString());
    benchmark::DoNotOptimize(bytes->data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_DecodeResult(benchmark::State& state) {
  Udf& u = TheUdf();
  auto bytes = udf::EncodeBatch(Input(state.range(0)));
  if (!bytes.ok()) Die(bytes.status().ToString());
  const std::string_view views[1] = {*bytes};
  auto result = u.sandbox->Call(*u.module, views, u.limits);
  if (!result.ok()) Die(result.status().ToString());
  for (auto _ : state) {
    auto batch = udf::DecodeResult(*result, Schema());
    if (!batch.ok()) Die(batch.status().ToString());
    benchmark::DoNotOptimize(batch->num_rows());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_NativeMap)->Arg(1)->Arg(1000);
BENCHMARK(BM_UdfMap)->Arg(1)->Arg(1000);
BENCHMARK(BM_UdfMapBroker)->Arg(1)->Arg(1000);
BENCHMARK(BM_UdfCallOnly)->Arg(1)->Arg(1000);
BENCHMARK(BM_EncodeBatch)->Arg(1)->Arg(1000);
BENCHMARK(BM_DecodeResult)->Arg(1)->Arg(1000);
BENCHMARK(BM_KeyCheck)->Arg(1)->Arg(1000);
BENCHMARK(BM_KeyCheckRowByRow)->Arg(1)->Arg(1000);

// V8 runs a module's functions first as baseline (Liftoff) code and compiles the hot ones
// again, optimised, in the background (dynamic tiering): without this warm-up the first UDF
// benchmark would measure partly baseline code.
void WarmUp() {
  const arrow::RecordBatch small = Input(1), large = Input(1000);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (std::chrono::steady_clock::now() < until) {
    for (const auto* in : {&small, &large}) {
      if (auto out = UdfDouble(*in); !out.ok()) Die(out.status().ToString());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  TheUdf();  // V8 start-up and compilation, outside every measurement
  WarmUp();
  return higgins::bench::RunWithRatios({
      {"BM_UdfMap/1", "BM_NativeMap/1", "time UDF / native, 1 row", true},
      {"BM_UdfMap/1000", "BM_NativeMap/1000", "time UDF / native, 1000 rows; target <= 2", true},
      {"BM_UdfMapBroker/1", "BM_NativeMap/1", "time UDF + key check / native, 1 row", true},
      {"BM_UdfMapBroker/1000", "BM_NativeMap/1000", "time UDF + key check / native, 1000 rows",
       true},
      {"BM_UdfCallOnly/1", "BM_NativeMap/1", "time Call alone / native, 1 row", true},
      {"BM_UdfCallOnly/1000", "BM_NativeMap/1000", "time Call alone / native, 1000 rows", true},
      {"BM_EncodeBatch/1000", "BM_UdfMapBroker/1000", "share of EncodeBatch, 1000 rows", true},
      {"BM_UdfCallOnly/1000", "BM_UdfMapBroker/1000", "share of Call, 1000 rows", true},
      {"BM_DecodeResult/1000", "BM_UdfMapBroker/1000", "share of DecodeResult, 1000 rows", true},
      {"BM_KeyCheck/1000", "BM_UdfMapBroker/1000", "share of the key check, 1000 rows", true},
  });
}
