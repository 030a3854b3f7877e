// A real broker with the sync fault shim preloaded: killed with SIGKILL while the group commit
// is inside a slow fdatasync, restarted, and put through a simulated power cut (every segment
// and index file cut back to what was last synced). Map stream `m` doubles `data` of `kv`.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "broker_process.h"
#include "higgins/client.h"
#include "sync_fault.h"
#include "wire_client.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;

constexpr char kConfig[] = R"([storage.disk]
type = "file"
[schema.kv]
id = "string"
data = "int32"
[streams.kv]
schema = "kv"
partition_key = "id"
[streams.m]
base = "kv"
type = "map"
partition_key = "id"
schema = "kv"
fn = "double"
)";

const CallOptions kWait{.wait_for_derived = true, .wait_timeout = 20s};

class PowerCutE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(StartBroker());
    auto version = client_->UploadModule("double", ModuleBytes());
    ASSERT_TRUE(version.ok()) << version.status().ToString();
    Status configured = client_->UploadConfiguration(kConfig);
    ASSERT_TRUE(configured.ok()) << configured.ToString();
    auto acked = client_->ProduceJson("kv", R"({"id":"a","data":1})", kWait);
    ASSERT_TRUE(acked.ok()) << acked.status().ToString();
  }

  static std::vector<uint8_t> ModuleBytes() {
    const std::string bytes = ReadExampleModule("double");
    return {bytes.begin(), bytes.end()};
  }

  void StartBroker() {
    if (broker_ == nullptr) {
      broker_ = std::make_unique<BrokerProcess>(data_);
      broker_->SetEnvironment(fault_.Environment());
    }
    ASSERT_TRUE(broker_->StartOrExit()) << "the broker did not start; log:\n" << broker_->Log();
    ClientOptions options;
    options.port = broker_->port();
    auto client = Client::Connect(options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = *std::move(client);
  }

  /// Produces {"id":"r","data":5} and kills the broker while its group commit is held in the
  /// fdatasync of the kv segment: the record is written, never synced, never acknowledged.
  void Kill9DuringTheSyncOfR() {
    client_.reset();
    WireClient wire(broker_->port());
    fault_.SetSlow(true);
    wire.Send(wire.Produce("kv", R"({"id":"r","data":5})"));
    ASSERT_TRUE(fault_.WaitUntilHeld("/storage/", 20s)) << "no sync of the data was held";
    broker_->Kill9();
    fault_.SetSlow(false);
    EXPECT_FALSE(wire.Receive().has_value()) << "the produce was acknowledged";
  }

  /// The machine loses power (after the broker died): unsynced bytes are gone.
  void PowerCut() {
    ASSERT_FALSE(broker_->running());
    cut_ = fault_.CutToSynced(data_, {".segment", ".index"});
  }

  /// `data` of the latest record of `key` in `stream`, nullopt when it has none.
  std::optional<int32_t> Latest(const std::string& stream, const std::string& key,
                                const CallOptions& options = {}) {
    auto records = client_->QueryLatest(stream, key, options);
    if (!records.ok()) {
      EXPECT_TRUE(records.status().code() == StatusCode::kNotFound) << records.status().ToString();
      return std::nullopt;
    }
    return records->batch.column(1).Value<int32_t>(0);
  }

  /// Base and derived agree on `key`; returns whether the base holds it.
  bool BaseAndDerivedAgree(const std::string& key, int32_t value) {
    // Derived first, without waiting: a derived record must never exist without its base.
    const bool derived_now = Latest("m", key).has_value();
    const std::optional<int32_t> base = Latest("kv", key);
    EXPECT_TRUE(!derived_now || base.has_value()) << "m holds '" << key << "' but kv does not";
    const std::optional<int32_t> derived = Latest("m", key, kWait);
    if (base.has_value()) {
      EXPECT_EQ(*base, value) << key;
      EXPECT_EQ(derived, std::optional<int32_t>(2 * value)) << key;
    } else {
      EXPECT_EQ(derived, std::nullopt) << key;
    }
    return base.has_value();
  }

  TempDir tmp_;
  const std::string data_ = tmp_.path() + "/data";
  SyncFault fault_{tmp_.path() + "/fault"};
  std::unique_ptr<BrokerProcess> broker_;
  std::unique_ptr<Client> client_;
  std::vector<std::string> cut_;  // what the last power cut took, for failure messages
};

TEST_F(PowerCutE2eTest, Kill9DuringASlowFsyncThenRIsDurableInBaseAndDerivedOrAbsent) {
  ASSERT_NO_FATAL_FAILURE(Kill9DuringTheSyncOfR());
  ASSERT_NO_FATAL_FAILURE(StartBroker());
  ASSERT_TRUE(BaseAndDerivedAgree("a", 1));
  const bool served = BaseAndDerivedAgree("r", 5);
  // What the restarted broker served must survive a power cut now.
  broker_->Kill9();
  PowerCut();
  ASSERT_NO_FATAL_FAILURE(StartBroker()) << "cut: " << ::testing::PrintToString(cut_);
  EXPECT_TRUE(BaseAndDerivedAgree("a", 1)) << "an acknowledged record was lost";
  EXPECT_EQ(BaseAndDerivedAgree("r", 5), served)
      << "served before the power cut: " << served << "; cut: " << ::testing::PrintToString(cut_);
}

TEST_F(PowerCutE2eTest, PowerCutRightAfterAKill9DuringASlowFsyncKeepsTheAcknowledgedRecords) {
  ASSERT_NO_FATAL_FAILURE(Kill9DuringTheSyncOfR());
  PowerCut();
  ASSERT_NO_FATAL_FAILURE(StartBroker());
  EXPECT_TRUE(BaseAndDerivedAgree("a", 1)) << "an acknowledged record was lost";
  EXPECT_FALSE(BaseAndDerivedAgree("r", 5)) << "r was never synced, yet survived the power cut";
  auto next = client_->ProduceJson("kv", R"({"id":"r","data":6})", kWait);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  EXPECT_TRUE(BaseAndDerivedAgree("r", 6));
  // And the new record is durable: it survives another kill -9 and power cut.
  broker_->Kill9();
  PowerCut();
  ASSERT_NO_FATAL_FAILURE(StartBroker()) << "cut: " << ::testing::PrintToString(cut_);
  EXPECT_TRUE(BaseAndDerivedAgree("r", 6)) << ::testing::PrintToString(cut_);
}

}  // namespace
}  // namespace higgins::test
