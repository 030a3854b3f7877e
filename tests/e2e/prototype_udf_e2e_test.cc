// The prototype's compiled modules (Rust with arrow-rs, in the shared test data folder named by
// HIGGINS_SHARED_DIR) on a real broker: a map and a reduce stream over hundreds of produce
// requests, every derived value checked. They export no `_reset` and keep state that only grows, so
// each call must get a fresh instance (docs/udf-abi.md, "One call").
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "amount_configs.h"
#include "broker_process.h"
#include "higgins/client.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;

const CallOptions kWait{.wait_for_derived = true, .wait_timeout = 20s};

std::vector<uint8_t> PrototypeModule(const std::string& name) {
  const std::string path =
      std::string(HIGGINS_SHARED_DIR) + "/testdata/prototype-udf/" + name + ".wasm";
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string Derived(const std::string& name, const std::string& type, const std::string& fn) {
  return "[streams." + name + "]\nbase = \"amount\"\ntype = \"" + type +
         "\"\npartition_key = \"id\"\nschema = \"amount\"\nfn = \"" + fn + "\"\n";
}

std::string Row(const std::string& id, int32_t data) {
  return R"({"id":")" + id + R"(","data":)" + std::to_string(data) + "}\n";
}

class PrototypeUdfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data");
    broker_->Start();
    ClientOptions options;
    options.port = broker_->port();
    auto client = Client::Connect(options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = *std::move(client);
  }
  void Produce(const std::string& ndjson) {
    auto produced = client_->ProduceJson("amount", ndjson, kWait);
    ASSERT_TRUE(produced.ok()) << produced.status().ToString();
  }
  /// `data` of every record of `key` in `stream` (null as INT64_MIN).
  std::vector<int64_t> Values(const std::string& stream, const std::string& key) {
    auto records = client_->QueryRange(stream, key, 0, UINT64_MAX, kWait);
    EXPECT_TRUE(records.ok()) << stream << "/" << key << ": " << records.status().ToString();
    if (!records.ok()) return {};
    std::vector<int64_t> out;
    const auto& data = records->batch.column(1);
    for (int64_t r = 0; r < records->num_rows(); ++r) {
      out.push_back(data.IsNull(r) ? INT64_MIN : data.Value<int32_t>(r));
    }
    return out;
  }
  /// The first error recorded for `key` in `stream`'s errors stream, or "" when there is none.
  std::string FirstError(const std::string& stream, const std::string& key) {
    auto error = client_->QueryAt(stream + "/errors", key, 0);
    if (!error.ok()) {
      EXPECT_EQ(error.status().code(), StatusCode::kNotFound) << error.status().ToString();
      return "";
    }
    return std::string(error->batch.column(4).BinaryValue(0));
  }

  TempDir tmp_;
  std::unique_ptr<BrokerProcess> broker_;
  std::unique_ptr<Client> client_;
};

TEST_F(PrototypeUdfTest, MapDoublesAndReduceSumsOverHundredsOfRequests) {
  auto map = client_->UploadModule("double", PrototypeModule("basic_map"));
  ASSERT_TRUE(map.ok()) << map.status().ToString();
  auto reduce = client_->UploadModule("sum", PrototypeModule("basic_reduce"));
  ASSERT_TRUE(reduce.ok()) << reduce.status().ToString();
  Status configured =
      client_->UploadConfiguration(std::string(kQuickStart) + Derived("doubled", "map", "double") +
                                   Derived("total", "reduce", "sum"));
  ASSERT_TRUE(configured.ok()) << configured.ToString();

  constexpr int kKeys = 30;
  std::map<std::string, std::vector<int32_t>> sent;
  auto value = [](int i) { return static_cast<int32_t>((i * 7919) % 20001 - 10000); };
  // One record per request, as in the report (a1..a5 on one key, then many keys).
  for (int i = 0; i < 300; ++i) {
    const std::string key = i < 5 ? "a" : "k" + std::to_string(i % kKeys);
    sent[key].push_back(value(i));
    Produce(Row(key, value(i)));
    if (HasFatalFailure()) return;
  }
  // Requests of 2 to 5 records of distinct keys (one call each: the modules trap on batches
  // much larger, as their log lines outgrow 1000 bytes).
  for (int i = 0; i < 40; ++i) {
    std::string ndjson;
    for (int r = 0; r < 2 + i % 4; ++r) {
      const std::string key = "k" + std::to_string((i * 5 + r) % kKeys);
      const int32_t v = value(1000 + i * 10 + r);
      sent[key].push_back(v);
      ndjson += Row(key, v);
    }
    Produce(ndjson);
    if (HasFatalFailure()) return;
  }

  for (const auto& [key, values] : sent) {
    std::vector<int64_t> doubled, totals;
    int64_t total = 0;
    for (int32_t v : values) {
      doubled.push_back(2 * int64_t{v});
      totals.push_back(total += v);
    }
    EXPECT_EQ(Values("doubled", key), doubled) << key;
    EXPECT_EQ(Values("total", key), totals) << key;
    EXPECT_EQ(FirstError("doubled", key), "") << key;
    EXPECT_EQ(FirstError("total", key), "") << key;
  }
}

}  // namespace
}  // namespace higgins::test
