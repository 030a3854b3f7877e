// Map and reduce streams end to end: a real broker process running the SDK's example modules
// (sdk/examples, compiled to WebAssembly by clang) in V8, driven through the client library.
// Hostile modules come from src/udf/testdata and tests/e2e/testdata (WebAssembly text).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "amount_configs.h"
#include "broker_process.h"
#include "higgins/client.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;

std::vector<uint8_t> ReadModule(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
std::vector<uint8_t> Example(const std::string& name) {
  const std::string bytes = ReadExampleModule(name);
  return {bytes.begin(), bytes.end()};
}
std::vector<uint8_t> Hostile(const std::string& name) {
  return ReadModule(std::string(HIGGINS_UDF_TESTDATA_DIR) + "/" + name + ".wasm");
}

std::string Derived(const std::string& name, const std::string& type, const std::string& base,
                    const std::string& fn, const std::string& schema = "amount") {
  return "[streams." + name + "]\nbase = \"" + base + "\"\ntype = \"" + type +
         "\"\npartition_key = \"id\"\nschema = \"" + schema + "\"\nfn = \"" + fn + "\"\n";
}

std::string Row(const std::string& id, int32_t data) {
  return R"({"id":")" + id + R"(","data":)" + std::to_string(data) + "}";
}

const CallOptions kWait{.wait_for_derived = true, .wait_timeout = 20s};

class UdfTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(); }
  void Start() {
    // A small engine heap, so that table_hog passes it (HostileModules...).
    broker_ = std::make_unique<BrokerProcess>(
        tmp_.path() + "/data",
        std::vector<std::string>{"--udf-timeout-ms", "200", "--udf-max-heap-mb", "16"});
    broker_->Start();
    Connect();
  }
  void Connect() {
    ClientOptions options;
    options.port = broker_->port();
    auto client = Client::Connect(options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = *std::move(client);
  }
  void Upload(const std::string& name, const std::vector<uint8_t>& wasm) {
    auto version = client_->UploadModule(name, wasm);
    ASSERT_TRUE(version.ok()) << name << ": " << version.status().ToString();
  }
  void Configure(const std::string& toml) {
    Status s = client_->UploadConfiguration(toml);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  /// `data` of every record of `key` (offsets 0..), after waiting for derived streams.
  std::vector<int64_t> Values(const std::string& stream, const std::string& key) {
    auto records = client_->QueryRange(stream, key, 0, UINT64_MAX, kWait);
    EXPECT_TRUE(records.ok()) << stream << "/" << key << ": " << records.status().ToString();
    if (!records.ok()) return {};
    EXPECT_EQ(records->offset, 0u);
    std::vector<int64_t> out;
    const auto& data = records->batch.column(1);
    for (int64_t r = 0; r < records->num_rows(); ++r) {
      out.push_back(data.IsNull(r) ? INT64_MIN : data.Value<int32_t>(r));
    }
    return out;
  }
  std::string Key(const std::string& stream, const std::string& key, uint64_t offset) {
    auto records = client_->QueryAt(stream, key, offset, kWait);
    EXPECT_TRUE(records.ok()) << records.status().ToString();
    return records.ok() ? std::string(records->batch.column(0).BinaryValue(0)) : "";
  }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
  std::unique_ptr<Client> client_;
};

TEST_F(UdfTest, ReferenceMapDoublesAtTheSameKeysAndOffsets) {
  Upload("double", Example("double"));
  Configure(std::string(kQuickStart) + Derived("result", "map", "amount", "double"));
  auto produced = client_->ProduceJson(
      "amount", Row("1", 1) + "\n" + Row("2", 2) + "\n" + Row("1", 3) + "\n" + Row("3", 3), kWait);
  ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  EXPECT_EQ(Values("result", "1"), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(Values("result", "2"), (std::vector<int64_t>{4}));
  EXPECT_EQ(Values("result", "3"), (std::vector<int64_t>{6}));
  EXPECT_EQ(Key("result", "1", 1), "1");
  // The reference's example record, at the next offset of key 1. The wait is answered by the
  // derived commit itself, not by the end of its 10 s timeout (generous bound: it takes ms).
  const auto sent = std::chrono::steady_clock::now();
  ASSERT_TRUE(client_->ProduceJson("amount", R"({"id":"1","data":1})", kWait).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - sent, std::chrono::seconds(5));
  auto latest = client_->QueryLatest("result", "1");
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(latest->offset, 2u);
  EXPECT_EQ(latest->batch.column(1).Value<int32_t>(0), 2);
}

TEST_F(UdfTest, ReferenceReduceKeepsARunningSum) {
  Upload("sum", Example("sum"));
  Configure(std::string(kQuickStart) + Derived("result", "reduce", "amount", "sum"));
  for (int v : {1, 2, 3}) ASSERT_TRUE(client_->ProduceJson("amount", Row("1", v)).ok());
  EXPECT_EQ(Values("result", "1"), (std::vector<int64_t>{1, 3, 6}));
}

TEST_F(UdfTest, AMapOfAReduceAndAComputedColumn) {
  Upload("double", Example("double"));
  Upload("sum", Example("sum"));
  Upload("computed", Example("computed"));
  Configure(std::string(kQuickStart) + "[schema.squared]\nid = \"string\"\ndata = \"int32\"\n" +
            "data_squared = \"float64\"\n" + Derived("total", "reduce", "amount", "sum") +
            Derived("doubled_total", "map", "total", "double") +
            Derived("squared", "map", "amount", "computed", "squared"));
  ASSERT_TRUE(
      client_->ProduceJson("amount", Row("a", 1) + "\n" + Row("a", 2) + "\n" + Row("a", 3), kWait)
          .ok());
  EXPECT_EQ(Values("total", "a"), (std::vector<int64_t>{1, 3, 6}));
  EXPECT_EQ(Values("doubled_total", "a"), (std::vector<int64_t>{2, 6, 12}));
  auto squared = client_->QueryRange("squared", "a", 0, 3, kWait);
  ASSERT_TRUE(squared.ok()) << squared.status().ToString();
  ASSERT_EQ(squared->num_rows(), 3);
  EXPECT_EQ(squared->batch.schema()->field(2).name, "data_squared");
  EXPECT_EQ(squared->batch.column(2).Value<double>(2), 9.0);
}

TEST_F(UdfTest, ManyKeysMatchARecomputation) {
  Upload("double", Example("double"));
  Upload("sum", Example("sum"));
  Configure(std::string(kQuickStart) + Derived("doubled", "map", "amount", "double") +
            Derived("total", "reduce", "amount", "sum"));
  std::map<std::string, std::vector<int32_t>> sent;
  std::mt19937 random(11);
  std::vector<Pending<ProduceResult>> pending;
  for (int request = 0; request < 40; ++request) {
    std::string ndjson;
    for (int i = 0; i < 250; ++i) {
      const std::string key = "key-" + std::to_string(random() % 2000);
      const int32_t value = static_cast<int32_t>(random() % 1000);
      sent[key].push_back(value);
      ndjson += Row(key, value) + "\n";
    }
    pending.push_back(client_->ProduceJsonAsync("amount", ndjson, kWait));
  }
  for (auto& p : pending) ASSERT_TRUE(p.Get().ok());
  for (const auto& [key, values] : sent) {
    std::vector<int64_t> doubled, totals;
    int64_t total = 0;
    for (int32_t v : values) {
      doubled.push_back(2 * v);
      totals.push_back(total += v);
    }
    ASSERT_EQ(Values("doubled", key), doubled) << key;
    ASSERT_EQ(Values("total", key), totals) << key;
  }
}

TEST_F(UdfTest, Kill9MidStreamThenEveryDerivedValueEqualsARecomputation) {
  Upload("double", Example("double"));
  Upload("sum", Example("sum"));
  Configure(std::string(kFileConfig) + Derived("doubled", "map", "amount", "double") +
            Derived("total", "reduce", "amount", "sum"));
  std::atomic<bool> stop{false};
  std::thread producer([&] {
    std::mt19937 random(3);
    while (!stop) {
      std::string ndjson;
      for (int i = 0; i < 50; ++i) {
        ndjson += Row("k" + std::to_string(random() % 20), static_cast<int32_t>(random() % 100)) +
                  "\n";
      }
      if (!client_->ProduceJson("amount", ndjson).ok()) break;  // the broker died
    }
  });
  std::this_thread::sleep_for(700ms);
  broker_->Kill9();
  stop = true;
  producer.join();
  Start();
  for (int k = 0; k < 20; ++k) {
    const std::string key = "k" + std::to_string(k);
    auto base = client_->QueryRange("amount", key, 0, UINT64_MAX);
    if (!base.ok()) continue;  // no record for this key
    ASSERT_LT(base->num_rows(), 10'000);
    std::vector<int64_t> doubled, totals;
    int64_t total = 0;
    for (int64_t r = 0; r < base->num_rows(); ++r) {
      const int32_t v = base->batch.column(1).Value<int32_t>(r);
      doubled.push_back(2 * v);
      totals.push_back(total += v);
    }
    EXPECT_EQ(Values("doubled", key), doubled) << key;
    EXPECT_EQ(Values("total", key), totals) << key;
  }
}

struct HostileCase {
  const char* module;
  const char* expected;  // fragment of the recorded error
};

TEST_F(UdfTest, HostileModulesFailTheirRecordsWhileEverythingElseKeepsWorking) {
  Upload("double", Example("double"));
  const HostileCase cases[] = {
      {"loop", "DeadlineExceeded"},
      {"oob_store", "the module trapped"},
      {"grow_bomb", ""},
      {"recursion", "the module trapped"},
      {"huge_length", ""},
      {"run_zero", "'run' returned 0 (no result: the module failed)"},
      {"garbage_map", "not a valid Arrow IPC stream"},
      {"echo_map", "schema differs"},
      {"table_hog", "ResourceExhausted: the module used more than 16 MiB of engine heap"},
  };
  std::string config = std::string(kQuickStart) + "[schema.wide]\nid = \"string\"\ndata = " +
                       "\"int32\"\nextra = \"string\"\n" + Derived("doubled", "map", "amount", "double");
  for (const auto& c : cases) {
    const std::string dir = std::string(c.module) == "garbage_map" ? HIGGINS_E2E_TESTDATA_DIR
                                                                   : HIGGINS_UDF_TESTDATA_DIR;
    Upload(c.module, ReadModule(dir + "/" + c.module + ".wasm"));
    // echo_map returns its input: a result of the base's schema, not the derived one.
    config += Derived(std::string("h_") + c.module, "map", "amount", c.module,
                      std::string(c.module) == "echo_map" ? "wide" : "amount");
  }
  Configure(config);
  auto produced = client_->ProduceJson("amount", Row("1", 21) + "\n" + Row("2", 4), kWait);
  ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  for (const auto& c : cases) {
    const std::string stream = std::string("h_") + c.module;
    SCOPED_TRACE(stream);
    // The slot is filled (key, nulls) so offsets stay aligned.
    auto hole = client_->QueryAt(stream, "1", 0, kWait);
    ASSERT_TRUE(hole.ok()) << hole.status().ToString();
    EXPECT_EQ(hole->batch.column(0).BinaryValue(0), "1");
    EXPECT_TRUE(hole->batch.column(1).IsNull(0));
    auto error = client_->QueryAt(stream + "/errors", "1", 0);
    ASSERT_TRUE(error.ok()) << error.status().ToString();
    const std::string text(error->batch.column(4).BinaryValue(0));
    EXPECT_NE(text.find(c.expected), std::string::npos) << text;
    EXPECT_EQ(error->batch.column(2).BinaryValue(0), c.module);
    EXPECT_EQ(error->batch.column(1).Value<uint64_t>(0), 0u);
  }
  // The healthy stream and the broker are unaffected.
  EXPECT_EQ(Values("doubled", "1"), (std::vector<int64_t>{42}));
  EXPECT_EQ(Values("doubled", "2"), (std::vector<int64_t>{8}));
  EXPECT_TRUE(client_->Ping().ok());
  ASSERT_TRUE(client_->ProduceJson("amount", Row("1", 5), kWait).ok());
  EXPECT_EQ(Values("doubled", "1"), (std::vector<int64_t>{42, 10}));
}

TEST_F(UdfTest, UploadsThatBreakTheAbiAreRefusedWithEveryProblem) {
  auto imports = client_->UploadModule("imports", Hostile("imports"));
  ASSERT_FALSE(imports.ok());
  EXPECT_EQ(imports.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(imports.status().message().find("import"), std::string::npos)
      << imports.status().ToString();
  auto missing = client_->UploadModule("missing", Hostile("missing_exports"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'run'"), std::string::npos)
      << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("'_malloc'"), std::string::npos)
      << missing.status().ToString();
  auto garbage = client_->UploadModule("garbage", std::vector<uint8_t>{'n', 'o', 't', 'w'});
  EXPECT_EQ(garbage.status().code(), StatusCode::kInvalidArgument);
  // A reduce module cannot serve a map stream.
  Upload("sum", Example("sum"));
  Status wrong = client_->UploadConfiguration(std::string(kQuickStart) +
                                              Derived("m", "map", "amount", "sum"));
  EXPECT_EQ(wrong.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.message().find("is a reduce module"), std::string::npos) << wrong.ToString();
}

TEST_F(UdfTest, AReuploadTakesOverAndSurvivesARestart) {
  Upload("f", Example("double"));
  Configure(std::string(kFileConfig) + Derived("result", "map", "amount", "f"));
  ASSERT_TRUE(client_->ProduceJson("amount", Row("1", 3), kWait).ok());
  auto version = client_->UploadModule("f", Example("computed"));
  ASSERT_TRUE(version.ok()) << version.status().ToString();
  EXPECT_EQ(*version, 2u);
  auto v3 = client_->UploadModule("f", Example("double"));
  ASSERT_TRUE(v3.ok());
  EXPECT_EQ(*v3, 3u);
  ASSERT_EQ(broker_->Terminate(), 0);
  Start();
  ASSERT_TRUE(client_->ProduceJson("amount", Row("1", 4), kWait).ok());
  EXPECT_EQ(Values("result", "1"), (std::vector<int64_t>{6, 8}));
}

}  // namespace
}  // namespace higgins::test
