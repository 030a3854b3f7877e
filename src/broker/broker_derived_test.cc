// Map and reduce streams kept in sync by the broker, with the fake UDF engine (udf/fake_engine.h):
// what is derived, at which keys and offsets, after restarts, and when the UDF fails. The same
// behaviour with real WebAssembly modules is tested end to end in tests/e2e/udf_e2e_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <random>
#include <thread>

#include "broker/broker.h"
#include "derived/derived_stream.h"
#include "udf/testing/fake_engine.h"

namespace higgins::broker {
namespace {

using namespace std::chrono_literals;
using arrow::RecordBatch;

/// amount: {id string, data int32} as in the product README.
constexpr std::string_view kAmount = R"toml(
[storage.disk]
type = "file"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
)toml";

constexpr std::string_view kDoubled = R"toml(
[streams.doubled]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double"
)toml";

constexpr std::string_view kTotal = R"toml(
[streams.total]
base = "amount"
type = "reduce"
partition_key = "id"
schema = "amount"
fn = "sum"
)toml";

/// A map of the reduce: doubles the running totals.
constexpr std::string_view kDoubledTotal = R"toml(
[streams.doubled_total]
base = "total"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double"
)toml";

/// `data` of `batch` with `fn` applied, other columns as they are.
Result<RecordBatch> WithData(const RecordBatch& batch,
                             const std::function<int32_t(int64_t row, int32_t value)>& fn) {
  std::vector<arrow::Array> columns = batch.columns();
  const int data = static_cast<int>(*batch.schema()->FieldIndex("data"));
  arrow::ArrayBuilder builder(arrow::DataType::Int32());
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    const arrow::Array& in = batch.column(data);
    if (in.IsNull(r)) {
      builder.AppendNull();
    } else {
      builder.AppendPrimitive<int32_t>(fn(r, in.Value<int32_t>(r)));
    }
  }
  columns[static_cast<size_t>(data)] = builder.Finish();
  return RecordBatch::Make(batch.schema(), batch.num_rows(), std::move(columns));
}

class DerivedStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("higgins-derived-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    engine_ = std::make_shared<udf::FakeEngine>();
    engine_->Register("double", udf::RunKind::kMap, [this](std::span<const RecordBatch> in) {
      ++double_calls_;
      if (fail_value_ != 0) {
        const arrow::Array& data = in[0].column(1);
        for (int64_t r = 0; r < in[0].num_rows(); ++r) {
          if (!data.IsNull(r) && data.Value<int32_t>(r) == fail_value_) {
            return Result<RecordBatch>(Status::InvalidArgument("the module trapped: unreachable"));
          }
        }
      }
      return WithData(in[0], [](int64_t, int32_t v) { return v * 2; });
    });
    engine_->Register("sum", udf::RunKind::kReduce, [this](std::span<const RecordBatch> in) {
      const arrow::Array& cur = in[1].column(1);
      if (fail_sum_value_ != 0) {
        for (int64_t r = 0; r < in[1].num_rows(); ++r) {
          if (!cur.IsNull(r) && cur.Value<int32_t>(r) == fail_sum_value_) {
            return Result<RecordBatch>(Status::InvalidArgument("the module trapped: unreachable"));
          }
        }
      }
      return WithData(in[0], [&](int64_t r, int32_t v) { return v + cur.Value<int32_t>(r); });
    });
    Open();
  }
  void TearDown() override {
    broker_.reset();
    std::filesystem::remove_all(dir_);
  }

  void Open() {
    BrokerOptions options;
    options.dir = dir_.string();
    options.engine = engine_;
    options.clock = clock_;
    auto broker = Broker::Open(options);
    ASSERT_TRUE(broker.ok()) << broker.status().ToString();
    broker_ = *std::move(broker);
  }
  void Configure(std::string_view toml) {
    auto outcome = broker_->CreateConfiguration(toml);
    ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  }
  void Upload() {
    ASSERT_TRUE(broker_->UploadModule("double", "fake:double").ok());
    ASSERT_TRUE(broker_->UploadModule("sum", "fake:sum").ok());
  }
  Result<stream::ProduceResult> Produce(std::string_view json) {
    std::promise<Result<stream::ProduceResult>> done;
    broker_->Produce("amount", json, stream::PayloadFormat::kJson,
                     [&](Result<stream::ProduceResult> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
  }
  /// Produces and waits for every derived stream (read-your-writes).
  void ProduceAndWait(std::string_view json) {
    auto produced = Produce(json);
    ASSERT_TRUE(produced.ok()) << produced.status().ToString();
    std::promise<Status> caught_up;
    broker_->WaitForDerived("amount", *produced, 10s,
                            [&](Status s) { caught_up.set_value(std::move(s)); });
    Status s = caught_up.get_future().get();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  /// `data` of every record of `key` in `stream`, in offset order (-1 for null).
  std::vector<int32_t> Values(std::string_view stream, std::string_view key) {
    auto log = broker_->FindStream(stream);
    EXPECT_TRUE(log.ok());
    if (!log.ok()) return {};
    auto rows = (*log)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    if (!rows.ok()) return {};
    EXPECT_EQ(rows->first_offset, 0u);
    std::vector<int32_t> out;
    const arrow::Array& data = rows->batch.column(1);
    for (int64_t r = 0; r < rows->batch.num_rows(); ++r) {
      out.push_back(data.IsNull(r) ? -1 : data.Value<int32_t>(r));
    }
    return out;
  }

  std::filesystem::path dir_;
  std::shared_ptr<udf::FakeEngine> engine_;
  std::unique_ptr<Broker> broker_;
  std::atomic<int> double_calls_{0};
  std::atomic<int32_t> fail_value_{0};      // double fails on a batch holding it
  std::atomic<int32_t> fail_sum_value_{0};  // sum fails on a batch whose cur holds it
  stream::GroupCommitter::Clock clock_;     // null: the system clock
};

TEST_F(DerivedStreamTest, MapDoublesAtTheSameKeysAndOffsets) {
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled));
  ProduceAndWait(R"({"id":"1","data":1})");
  ProduceAndWait(R"([{"id":"1","data":2},{"id":"2","data":5},{"id":"1","data":3}])");
  EXPECT_EQ(Values("doubled", "1"), (std::vector<int32_t>{2, 4, 6}));
  EXPECT_EQ(Values("doubled", "2"), (std::vector<int32_t>{10}));
  // One call per produce: the batch is passed whole.
  EXPECT_EQ(double_calls_, 2);
}

TEST_F(DerivedStreamTest, ReduceKeepsARunningSumSeededByTheFirstRecord) {
  Upload();
  Configure(std::string(kAmount) + std::string(kTotal));
  ProduceAndWait(R"({"id":"1","data":1})");
  ProduceAndWait(R"({"id":"1","data":2})");
  ProduceAndWait(R"([{"id":"1","data":3},{"id":"2","data":7},{"id":"2","data":1}])");
  EXPECT_EQ(Values("total", "1"), (std::vector<int32_t>{1, 3, 6}));
  EXPECT_EQ(Values("total", "2"), (std::vector<int32_t>{7, 8}));
}

TEST_F(DerivedStreamTest, AMapOfAReduceFollowsTheChain) {
  Upload();
  Configure(std::string(kAmount) + std::string(kTotal) + std::string(kDoubledTotal));
  ProduceAndWait(R"([{"id":"a","data":1},{"id":"a","data":2},{"id":"a","data":3}])");
  EXPECT_EQ(Values("total", "a"), (std::vector<int32_t>{1, 3, 6}));
  EXPECT_EQ(Values("doubled_total", "a"), (std::vector<int32_t>{2, 6, 12}));
}

TEST_F(DerivedStreamTest, ManyKeysInOneRequestAndAcrossRequests) {
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled) + std::string(kTotal));
  std::map<std::string, std::vector<int32_t>> sent;
  std::mt19937 random(7);
  for (int request = 0; request < 20; ++request) {
    std::string json = "[";
    for (int i = 0; i < 500; ++i) {
      const std::string key = "k" + std::to_string(random() % 1000);
      const int32_t value = static_cast<int32_t>(random() % 100);
      sent[key].push_back(value);
      json += (i ? "," : "") + std::string(R"({"id":")") + key + R"(","data":)" +
              std::to_string(value) + "}";
    }
    ProduceAndWait(json + "]");
  }
  for (const auto& [key, values] : sent) {
    std::vector<int32_t> doubled, totals;
    int32_t total = 0;
    for (int32_t v : values) {
      doubled.push_back(2 * v);
      totals.push_back(total += v);
    }
    ASSERT_EQ(Values("doubled", key), doubled) << key;
    ASSERT_EQ(Values("total", key), totals) << key;
  }
}

TEST_F(DerivedStreamTest, RecordsProducedBeforeTheDerivedStreamExistAreDerivedToo) {
  Upload();
  Configure(kAmount);
  ASSERT_TRUE(Produce(R"([{"id":"1","data":1},{"id":"1","data":2}])").ok());
  Configure(kTotal);
  ProduceAndWait(R"({"id":"1","data":3})");
  EXPECT_EQ(Values("total", "1"), (std::vector<int32_t>{1, 3, 6}));
}

/// The lag the metadata shows for `stream` (-1 when it cannot be read).
int64_t LagOf(const Broker& broker, std::string_view stream) {
  auto metadata = broker.Metadata(stream);
  EXPECT_TRUE(metadata.ok()) << metadata.status().ToString();
  if (!metadata.ok() || metadata->size() != 1) return -1;
  return static_cast<int64_t>((*metadata)[0].lag);
}

TEST_F(DerivedStreamTest, ANewDerivedStreamReportsItsCatchUpAndItsLagShrinksToZero) {
  // `gated` passes its input through once the gate opens: until then the catch-up stays whole.
  std::atomic<bool> open{false};
  engine_->Register("gated", udf::RunKind::kMap, [&open](std::span<const RecordBatch> in) {
    while (!open.load()) std::this_thread::sleep_for(1ms);
    return Result<RecordBatch>(in[0]);
  });
  struct OpenAtExit {  // a failed assertion must not leave a worker stuck at the gate
    std::atomic<bool>* gate;
    ~OpenAtExit() { *gate = true; }
  } open_at_exit{&open};
  ASSERT_TRUE(broker_->UploadModule("gated", "fake:gated").ok());
  Upload();
  auto first = broker_->CreateConfiguration(kAmount);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->catch_ups.empty());  // a source stream has none
  ASSERT_TRUE(Produce(R"([{"id":"a","data":1},{"id":"b","data":2},{"id":"a","data":3}])").ok());
  ASSERT_TRUE(Produce(R"([{"id":"c","data":4},{"id":"a","data":5}])").ok());

  auto added = broker_->CreateConfiguration(std::string(kTotal) + R"toml(
[streams.passed]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "gated"
[streams.doubled_total]
base = "total"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double"
)toml");
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  std::vector<CatchUp> catch_ups = added->catch_ups;
  std::sort(catch_ups.begin(), catch_ups.end(),
            [](const CatchUp& a, const CatchUp& b) { return a.stream < b.stream; });
  // doubled_total's base is new too: it starts with nothing to catch up on.
  EXPECT_EQ(catch_ups, (std::vector<CatchUp>{{"doubled_total", 0}, {"passed", 5}, {"total", 5}}));
  EXPECT_EQ(LagOf(*broker_, "passed"), 5);  // its one call waits at the gate
  EXPECT_EQ(LagOf(*broker_, "amount"), 0);  // a source stream has no lag
  EXPECT_EQ(LagOf(*broker_, "passed/errors"), 0);

  // The same declarations again add nothing, so nothing catches up.
  auto again = broker_->CreateConfiguration(kTotal);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->catch_ups.empty());

  open = true;
  ProduceAndWait(R"([{"id":"a","data":6},{"id":"b","data":7},{"id":"c","data":8}])");
  EXPECT_EQ(LagOf(*broker_, "passed"), 0);
  EXPECT_EQ(LagOf(*broker_, "total"), 0);
  EXPECT_EQ(LagOf(*broker_, "doubled_total"), 0);
  EXPECT_EQ(Values("total", "a"), (std::vector<int32_t>{1, 4, 9, 15}));
}

TEST_F(DerivedStreamTest, ABacklogOfSmallEntriesIsDerivedInFewCallsKeepingTimestamps) {
  // Commit timestamps 1000, 1001, ... one per produce request.
  std::atomic<int64_t> now{1000};
  broker_.reset();
  clock_ = [&now] { return now++; };
  Open();
  Upload();
  Configure(kAmount);
  std::map<std::string, std::vector<int32_t>> sent;
  for (int i = 0; i < 300; ++i) {
    const std::string key = "k" + std::to_string(i % 7);
    sent[key].push_back(i);
    ASSERT_TRUE(Produce(R"({"id":")" + key + R"(","data":)" + std::to_string(i) + "}").ok());
  }
  // The processors start with 300 one-record entries behind them: they are gathered into
  // calls of up to max_entries_per_call (256) entries, each committed with one sync.
  Configure(std::string(kDoubled) + std::string(kTotal));
  ProduceAndWait(R"({"id":"k0","data":1})");
  sent["k0"].push_back(1);
  EXPECT_LE(double_calls_, 3);
  auto base = broker_->FindStream("amount");
  auto doubled = broker_->FindStream("doubled");
  auto total = broker_->FindStream("total");
  ASSERT_TRUE(base.ok() && doubled.ok() && total.ok());
  for (const auto& [key, values] : sent) {
    std::vector<int32_t> expect_doubled, expect_totals;
    int32_t sum = 0;
    for (int32_t v : values) {
      expect_doubled.push_back(2 * v);
      expect_totals.push_back(sum += v);
    }
    EXPECT_EQ(Values("doubled", key), expect_doubled) << key;
    EXPECT_EQ(Values("total", key), expect_totals) << key;
    // Each derived record keeps the commit timestamp of its base record.
    auto b = (*base)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    auto d = (*doubled)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    auto t = (*total)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    ASSERT_TRUE(b.ok() && d.ok() && t.ok());
    EXPECT_EQ(d->timestamps_ms, b->timestamps_ms) << key;
    EXPECT_EQ(t->timestamps_ms, b->timestamps_ms) << key;
    EXPECT_EQ(b->timestamps_ms.size(), values.size());
  }
}

TEST_F(DerivedStreamTest, FailuresInABacklogAcrossBucketsFailOnlyTheirOwnRecords) {
  std::atomic<int64_t> now{1000};
  broker_.reset();
  clock_ = [&now] { return now++; };
  Open();
  Upload();
  std::string four_buckets(kAmount);
  const std::string key_line = "partition_key = \"id\"";
  four_buckets.replace(four_buckets.find(key_line), key_line.size(), key_line + "\nbuckets = 4");
  Configure(four_buckets);
  // 256 one-record entries over 4 buckets; every 16th carries the value the modules fail on.
  fail_value_ = 13;
  fail_sum_value_ = 13;
  std::map<std::string, std::vector<int32_t>> sent;
  for (int i = 0; i < 256; ++i) {
    const std::string key = "k" + std::to_string(i % 8);
    const int32_t value = i % 16 == 0 ? 13 : 100 + i;
    sent[key].push_back(value);
    ASSERT_TRUE(Produce(R"({"id":")" + key + R"(","data":)" + std::to_string(value) + "}").ok());
  }
  Configure(std::string(kDoubled) + std::string(kTotal));
  ProduceAndWait(R"({"id":"k1","data":1})");
  sent["k1"].push_back(1);
  auto base = broker_->FindStream("amount");
  auto doubled = broker_->FindStream("doubled");
  auto total = broker_->FindStream("total");
  ASSERT_TRUE(base.ok() && doubled.ok() && total.ok());
  size_t failed = 0;
  for (const auto& [key, values] : sent) {
    // map: only the failing records are holes; reduce: a failing record contributes nothing
    // (the first record of a partition is the seed, not a call, so it never fails).
    std::vector<int32_t> expect_doubled, expect_totals;
    int32_t sum = 0;
    for (size_t o = 0; o < values.size(); ++o) {
      const int32_t v = values[o];
      expect_doubled.push_back(v == 13 ? -1 : 2 * v);
      failed += v == 13 ? (o == 0 ? 1 : 2) : 0;
      if (o == 0 || v != 13) sum += v;
      expect_totals.push_back(sum);
    }
    EXPECT_EQ(Values("doubled", key), expect_doubled) << key;
    EXPECT_EQ(Values("total", key), expect_totals) << key;
    auto b = (*base)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    auto d = (*doubled)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    auto t = (*total)->Range(key, 0, UINT64_MAX, UINT64_MAX);
    ASSERT_TRUE(b.ok() && d.ok() && t.ok());
    EXPECT_EQ(d->timestamps_ms, b->timestamps_ms) << key;
    EXPECT_EQ(t->timestamps_ms, b->timestamps_ms) << key;
  }
  // One errors record per failed record, each at its own base offset.
  uint64_t errors = 0;
  for (const char* stream : {"doubled/errors", "total/errors"}) {
    auto log = broker_->FindStream(stream);
    ASSERT_TRUE(log.ok());
    for (const auto& [key, values] : sent) {
      auto rows = (*log)->Range(key, 0, UINT64_MAX, UINT64_MAX);
      if (!rows.ok()) continue;
      errors += static_cast<uint64_t>(rows->batch.num_rows());
      for (int64_t r = 0; r < rows->batch.num_rows(); ++r) {
        const uint64_t offset = rows->batch.column(1).Value<uint64_t>(r);
        ASSERT_LT(offset, values.size());
        EXPECT_EQ(values[offset], 13) << stream << " " << key << " " << offset;
      }
    }
  }
  EXPECT_EQ(errors, failed);
}

TEST_F(DerivedStreamTest, RestartResumesWithNoGapAndNoDuplicate) {
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled) + std::string(kTotal));
  ProduceAndWait(R"([{"id":"1","data":1},{"id":"2","data":2}])");
  // Records committed while the processors are busy or before they run: a restart in the
  // middle. The broker is closed right after the produce, without waiting.
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(Produce(R"({"id":"1","data":1})").ok());
  }
  broker_.reset();
  Open();
  ProduceAndWait(R"({"id":"1","data":1})");
  std::vector<int32_t> doubled(52, 2), totals;
  for (int i = 1; i <= 52; ++i) totals.push_back(i);
  EXPECT_EQ(Values("doubled", "1"), doubled);
  EXPECT_EQ(Values("total", "1"), totals);
  EXPECT_EQ(Values("total", "2"), (std::vector<int32_t>{2}));
}

TEST_F(DerivedStreamTest, AFailingRecordIsRecordedAndTheOthersFlow) {
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled) + std::string(kTotal));
  fail_value_ = 13;
  ProduceAndWait(R"([{"id":"1","data":1},{"id":"1","data":13},{"id":"2","data":4}])");
  ProduceAndWait(R"({"id":"1","data":5})");
  // map: the failed record's slot holds the key and nulls; offsets stay aligned.
  EXPECT_EQ(Values("doubled", "1"), (std::vector<int32_t>{2, -1, 10}));
  EXPECT_EQ(Values("doubled", "2"), (std::vector<int32_t>{8}));
  // reduce (the fake sum never fails): 1, 14, 19.
  EXPECT_EQ(Values("total", "1"), (std::vector<int32_t>{1, 14, 19}));
  auto errors = broker_->FindStream("doubled/errors");
  ASSERT_TRUE(errors.ok());
  auto error = (*errors)->Latest("1");
  ASSERT_TRUE(error.ok()) << error.status().ToString();
  ASSERT_EQ(error->batch.num_rows(), 1);
  EXPECT_EQ(error->batch.column(1).Value<uint64_t>(0), 1u);  // the base offset
  EXPECT_EQ(error->batch.column(2).BinaryValue(0), "double");
  EXPECT_EQ(error->batch.column(3).Value<uint64_t>(0), 1u);  // module version
  EXPECT_EQ(error->batch.column(4).BinaryValue(0),
            "InvalidArgument: the module trapped: unreachable");
  EXPECT_FALSE((*errors)->Latest("2").ok());
}

TEST_F(DerivedStreamTest, OneBadRecordInABigBatchIsFoundByBisection) {
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled));
  fail_value_ = 13;
  std::string json = "[";
  for (int i = 0; i < 1000; ++i) {
    json += (i ? "," : "") + std::string(R"({"id":"k","data":)") + (i == 700 ? "13" : "1") + "}";
  }
  ProduceAndWait(json + "]");
  std::vector<int32_t> expected(1000, 2);
  expected[700] = -1;
  EXPECT_EQ(Values("doubled", "k"), expected);
  // 1 call for the batch, then 2 per level of halving down to the bad record: not 1000.
  EXPECT_LE(double_calls_, 1 + 2 * 10);
  auto errors = broker_->FindStream("doubled/errors");
  ASSERT_TRUE(errors.ok());
  auto error = (*errors)->Latest("k");
  ASSERT_TRUE(error.ok());
  EXPECT_EQ(error->first_offset, 0u);  // exactly one error
  EXPECT_EQ(error->batch.column(1).Value<uint64_t>(0), 700u);
}

TEST_F(DerivedStreamTest, ManyBadRecordsSpreadThroughABatchFailOnlyThemselves) {
  // 22 bad records among 500 in 25 partitions (one request): isolating them takes far more
  // calls than a fixed budget of 64 would allow, and the good records must not fail with them.
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled) + std::string(kTotal));
  fail_value_ = 13;
  fail_sum_value_ = 13;
  constexpr int kKeys = 25;
  std::vector<std::vector<int32_t>> doubled(kKeys), totals(kKeys);
  std::vector<std::vector<uint64_t>> map_failed(kKeys), reduce_failed(kKeys);
  std::string json = "[";
  for (int i = 0; i < 500; ++i) {
    const int k = i % kKeys;
    const bool bad = i % 23 == 5;
    json += (i ? "," : "") + std::string(R"({"id":"k)") + std::to_string(k) + R"(","data":)" +
            (bad ? "13" : "1") + "}";
    const uint64_t offset = doubled[k].size();
    if (bad) map_failed[k].push_back(offset);
    doubled[k].push_back(bad ? -1 : 2);
    if (offset == 0) {  // a reduce's seed is its first base record, with no call
      totals[k].push_back(bad ? 13 : 1);
    } else {
      if (bad) reduce_failed[k].push_back(offset);
      totals[k].push_back(totals[k].back() + (bad ? 0 : 1));
    }
  }
  ProduceAndWait(json + "]");
  for (int k = 0; k < kKeys; ++k) {
    const std::string key = "k" + std::to_string(k);
    EXPECT_EQ(Values("doubled", key), doubled[k]) << key;
    EXPECT_EQ(Values("total", key), totals[k]) << key;
    for (const auto& [errors_stream, failed] :
         {std::pair{"doubled/errors", &map_failed}, std::pair{"total/errors", &reduce_failed}}) {
      auto errors = broker_->FindStream(errors_stream);
      ASSERT_TRUE(errors.ok());
      std::vector<uint64_t> offsets;
      if (auto rows = (*errors)->Range(key, 0, UINT64_MAX, UINT64_MAX); rows.ok()) {
        for (int64_t r = 0; r < rows->batch.num_rows(); ++r) {
          offsets.push_back(rows->batch.column(1).Value<uint64_t>(r));
        }
      }
      EXPECT_EQ(offsets, (*failed)[k]) << errors_stream << " " << key;
    }
  }
}

TEST_F(DerivedStreamTest, AReduceCarriesThePreviousValueOverAFailure) {
  engine_->Register("flaky_sum", udf::RunKind::kReduce, [](std::span<const RecordBatch> in) {
    const arrow::Array& cur = in[1].column(1);
    for (int64_t r = 0; r < cur.length(); ++r) {
      if (cur.Value<int32_t>(r) < 0) return Result<RecordBatch>(Status::DeadlineExceeded("slow"));
    }
    return WithData(in[0], [&](int64_t r, int32_t v) { return v + cur.Value<int32_t>(r); });
  });
  ASSERT_TRUE(broker_->UploadModule("flaky_sum", "fake:flaky_sum").ok());
  Configure(std::string(kAmount) + R"toml(
[streams.total]
base = "amount"
type = "reduce"
partition_key = "id"
schema = "amount"
fn = "flaky_sum"
)toml");
  ProduceAndWait(R"([{"id":"1","data":1},{"id":"1","data":-5},{"id":"1","data":2}])");
  EXPECT_EQ(Values("total", "1"), (std::vector<int32_t>{1, 1, 3}));
}

TEST_F(DerivedStreamTest, AReuploadIsUsedForRecordsProcessedAfterIt) {
  Upload();
  Configure(std::string(kAmount) + std::string(kDoubled));
  ProduceAndWait(R"({"id":"1","data":1})");
  engine_->Register("triple", udf::RunKind::kMap, [](std::span<const RecordBatch> in) {
    return WithData(in[0], [](int64_t, int32_t v) { return v * 3; });
  });
  auto version = broker_->UploadModule("double", "fake:triple");
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(*version, 2u);
  ProduceAndWait(R"({"id":"1","data":1})");
  EXPECT_EQ(Values("doubled", "1"), (std::vector<int32_t>{2, 3}));
  // The new version is the one loaded after a restart.
  broker_.reset();
  Open();
  ProduceAndWait(R"({"id":"1","data":2})");
  EXPECT_EQ(Values("doubled", "1"), (std::vector<int32_t>{2, 3, 6}));
}

TEST_F(DerivedStreamTest, ConfigurationChecksTheModuleKindAndTheSchemas) {
  Upload();
  Configure(kAmount);
  auto wrong_kind = broker_->CreateConfiguration(R"toml(
[streams.m]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "sum"
)toml");
  ASSERT_FALSE(wrong_kind.ok());
  EXPECT_NE(wrong_kind.status().message().find(
                "module 'sum' is a reduce module (its run takes 2 arguments); a map stream "
                "needs a map module"),
            std::string::npos)
      << wrong_kind.status().ToString();
  auto strict = broker_->CreateConfiguration(R"toml(
[schema.strict]
id = "string"
data = { type = "int32", nullable = false }
[streams.m]
base = "amount"
type = "map"
partition_key = "id"
schema = "strict"
fn = "double"
)toml");
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("field 'data' of schema 'strict' must be nullable"),
            std::string::npos)
      << strict.status().ToString();
  // Once a map stream uses a name, a reduce module cannot take the name over.
  Configure(kDoubled);
  auto swapped = broker_->UploadModule("double", "fake:sum");
  EXPECT_EQ(swapped.status().ToString(),
            "InvalidArgument: module 'double' is a reduce module, but map stream 'doubled' uses "
            "that name");
}

TEST_F(DerivedStreamTest, WaitingTimesOutWhenAProcessorCannotKeepUp) {
  engine_->Register("stall", udf::RunKind::kMap, [](std::span<const RecordBatch> in) {
    std::this_thread::sleep_for(300ms);
    return Result<RecordBatch>(in[0]);
  });
  ASSERT_TRUE(broker_->UploadModule("stall", "fake:stall").ok());
  Configure(std::string(kAmount) + R"toml(
[streams.slow]
base = "amount"
type = "map"
partition_key = "id"
schema = "amount"
fn = "stall"
)toml");
  auto produced = Produce(R"({"id":"1","data":1})");
  ASSERT_TRUE(produced.ok());
  std::promise<Status> waited;
  broker_->WaitForDerived("amount", *produced, 50ms, [&](Status s) { waited.set_value(s); });
  Status s = waited.get_future().get();
  EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded) << s.ToString();
  EXPECT_NE(s.message().find("'slow' partition '1' has 0 of 1 records"), std::string::npos)
      << s.ToString();
  std::promise<Status> later;
  broker_->WaitForDerived("amount", *produced, 5s, [&](Status s) { later.set_value(s); });
  EXPECT_TRUE(later.get_future().get().ok());
}

}  // namespace
}  // namespace higgins::broker
