// Join streams end to end: a real broker process keeps the product README's customer/address
// join (and a three-way join) in sync; read-your-writes waits; kill -9 in the middle of a
// backlog on file storage.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "broker_process.h"
#include "config/readme_examples.h"
#include "higgins/client.h"

namespace higgins::test {
namespace {

using namespace std::chrono_literals;

const CallOptions kWait{.wait_for_derived = true, .wait_timeout = 20s};

/// One joined record of customer_address, nullopt for null fields.
struct Joined {
  std::optional<std::string> customer_id, first_name;
  std::optional<int32_t> age;
  std::optional<std::string> address_line_1, city;
  friend bool operator==(const Joined&, const Joined&) = default;
};
std::ostream& operator<<(std::ostream& out, const Joined& j) {
  auto s = [](const std::optional<std::string>& v) { return v ? "'" + *v + "'" : "null"; };
  return out << "{" << s(j.customer_id) << ", " << s(j.first_name) << ", "
             << (j.age ? std::to_string(*j.age) : "null") << ", " << s(j.address_line_1) << ", "
             << s(j.city) << "}";
}

std::optional<std::string> Text(const arrow::Array& a, int64_t r) {
  if (a.IsNull(r)) return std::nullopt;
  return std::string(a.BinaryValue(r));
}

class JoinTest : public ::testing::Test {
 protected:
  void Start(const std::string& storage) {
    broker_ = std::make_unique<BrokerProcess>(tmp_.path() + "/data");
    broker_->Start();
    Connect();
    storage_ = storage;
  }
  void Connect() {
    ClientOptions options;
    options.port = broker_->port();
    auto client = Client::Connect(options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = *std::move(client);
  }
  void Configure(const std::string& toml) {
    const std::string storage = storage_ == "memory" ? "[storage.memory]\ntype = \"memory\"\n"
                                                     : "[storage.disk]\ntype = \"file\"\n";
    Status s = client_->UploadConfiguration(storage + toml);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  void Produce(const std::string& stream, const std::string& json) {
    auto produced = client_->ProduceJson(stream, json, kWait);
    ASSERT_TRUE(produced.ok()) << stream << ": " << produced.status().ToString();
  }
  /// Every record of `key` in customer_address, after waiting for the join to catch up.
  std::vector<Joined> All(const std::string& key) {
    auto records = client_->QueryRange("customer_address", key, 0, UINT64_MAX, kWait);
    EXPECT_TRUE(records.ok()) << key << ": " << records.status().ToString();
    std::vector<Joined> out;
    if (!records.ok()) return out;
    const arrow::RecordBatch& b = records->batch;
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      Joined j{Text(b.column(0), r), Text(b.column(1), r), std::nullopt, Text(b.column(3), r),
               Text(b.column(4), r)};
      if (!b.column(2).IsNull(r)) j.age = b.column(2).Value<int32_t>(r);
      out.push_back(j);
    }
    return out;
  }

  TempDir tmp_;
  std::string storage_;
  std::unique_ptr<BrokerProcess> broker_;
  std::unique_ptr<Client> client_;
};

const std::string kJohn = R"({"id": "1", "first_name": "John", "age": 30, "last_name": "Doe"})";
const std::string kJohnsAddress =
    R"({"customer_id": "1", "address_line_1": "1 John Road", "city": "John City", "province": "Province"})";

TEST_F(JoinTest, ReferenceExampleCustomerFirst) {
  Start("memory");
  Configure(std::string(config::testing::kJoinExample));
  Produce("customer", kJohn);
  EXPECT_EQ(All("1"), (std::vector<Joined>{{"1", "John", 30, std::nullopt, std::nullopt}}));
  Produce("address", kJohnsAddress);
  EXPECT_EQ(All("1"), (std::vector<Joined>{{"1", "John", 30, std::nullopt, std::nullopt},
                                           {"1", "John", 30, "1 John Road", "John City"}}));
  auto latest = client_->QueryLatest("customer_address", "1", kWait);
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest->offset, 1u);
  // Another key is a partition of its own.
  EXPECT_EQ(client_->QueryLatest("customer_address", "2").status().code(), StatusCode::kNotFound);
}

TEST_F(JoinTest, ReferenceExampleAddressFirst) {
  Start("memory");
  Configure(std::string(config::testing::kJoinExample));
  Produce("address", kJohnsAddress);
  // The key comes from the record joined, whichever participant it is on.
  EXPECT_EQ(All("1"), (std::vector<Joined>{{"1", std::nullopt, std::nullopt, "1 John Road",
                                            "John City"}}));
  Produce("customer", kJohn);
  EXPECT_EQ(All("1"), (std::vector<Joined>{
                          {"1", std::nullopt, std::nullopt, "1 John Road", "John City"},
                          {"1", "John", 30, "1 John Road", "John City"}}));
}

TEST_F(JoinTest, UpdatesCarryTheOtherSideForward) {
  Start("memory");
  Configure(std::string(config::testing::kJoinExample));
  Produce("customer", kJohn);
  Produce("address", kJohnsAddress);
  Produce("customer", R"({"id": "1", "first_name": "John", "age": 31})");
  Produce("address", R"({"customer_id": "1", "address_line_1": "2 Jane Street", "city": "Jane Town"})");
  Produce("customer", R"({"id": "1", "first_name": "Johnny", "age": null})");
  EXPECT_EQ(All("1"), (std::vector<Joined>{
                          {"1", "John", 30, std::nullopt, std::nullopt},
                          {"1", "John", 30, "1 John Road", "John City"},
                          {"1", "John", 31, "1 John Road", "John City"},
                          {"1", "John", 31, "2 Jane Street", "Jane Town"},
                          {"1", "Johnny", std::nullopt, "2 Jane Street", "Jane Town"}}));
}

TEST_F(JoinTest, ThreeParticipantsAndTheBaseListedAgain) {
  Start("memory");
  Configure(R"toml([schema.customer]
id = "string"
name = "string"
[schema.address]
customer_id = "string"
city = "string"
[schema.orders]
customer = "string"
total = "int64"
[schema.profile]
id = "string"
name = "string"
city = "string"
last_total = "int64"
[streams.customer]
schema = "customer"
partition_key = "id"
[streams.address]
schema = "address"
partition_key = "customer_id"
[streams.orders]
schema = "orders"
partition_key = "customer"
[streams.profile]
type = "join"
base = "customer"
join = ["address", "orders", "customer"]
schema = "profile"
partition_key = "id"
map = { id = "customer.id", name = "customer.name", city = "address.city", last_total = "orders.total" }
)toml");
  Produce("orders", R"({"customer": "7", "total": 100})");
  Produce("address", R"({"customer_id": "7", "city": "Oslo"})");
  Produce("orders", R"([{"customer": "7", "total": 250}, {"customer": "8", "total": 5}])");
  Produce("customer", R"({"id": "7", "name": "Ada"})");
  auto records = client_->QueryRange("profile", "7", 0, UINT64_MAX, kWait);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  const arrow::RecordBatch& b = records->batch;
  ASSERT_EQ(b.num_rows(), 4);
  std::vector<std::string> rows;
  for (int64_t r = 0; r < b.num_rows(); ++r) {
    auto s = [&](int c) { return b.column(c).IsNull(r) ? "null" : std::string(b.column(c).BinaryValue(r)); };
    rows.push_back(s(0) + "," + s(1) + "," + s(2) + "," +
                   (b.column(3).IsNull(r) ? "null" : std::to_string(b.column(3).Value<int64_t>(r))));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"7,null,null,100", "7,null,Oslo,100",
                                            "7,null,Oslo,250", "7,Ada,Oslo,250"}));
  auto eight = client_->QueryRange("profile", "8", 0, UINT64_MAX, kWait);
  ASSERT_TRUE(eight.ok()) << eight.status().ToString();
  ASSERT_EQ(eight->num_rows(), 1);
  EXPECT_EQ(eight->batch.column(0).BinaryValue(0), "8");
  EXPECT_TRUE(eight->batch.column(1).IsNull(0));
  EXPECT_EQ(eight->batch.column(3).Value<int64_t>(0), 5);
}

/// Every joined record of a key differs from the one before by one participant's next record:
/// customer record i carries age i, address record i city "c<i>". So the records walk (age,
/// city index) from (none, none) one step at a time to the last of each: no gap, no duplicate.
void CheckWalk(const std::vector<Joined>& joined, int customers, int addresses,
               const std::string& key) {
  int age = -1, city = -1;
  for (size_t o = 0; o < joined.size(); ++o) {
    const int next_age = joined[o].age ? *joined[o].age : -1;
    const int next_city = joined[o].city ? std::stoi(joined[o].city->substr(1)) : -1;
    const bool one_step = (next_age == age + 1 && next_city == city) ||
                          (next_age == age && next_city == city + 1);
    ASSERT_TRUE(one_step) << "key " << key << " offset " << o << ": " << joined[o]
                          << " after age " << age << ", city " << city;
    ASSERT_EQ(joined[o].customer_id, key);
    age = next_age;
    city = next_city;
  }
  EXPECT_EQ(age, customers - 1) << key;
  EXPECT_EQ(city, addresses - 1) << key;
}

TEST_F(JoinTest, ResumesAfterKill9WithNoGapAndNoDuplicate) {
  Start("file");
  Configure(std::string(config::testing::kJoinExample));
  constexpr int kKeys = 50;
  constexpr int kRounds = 100;
  std::map<std::string, std::pair<int, int>> counts;  // key -> customers, addresses
  // Many small produces, not waiting for the join: it is behind when the broker dies.
  std::vector<Pending<ProduceResult>> pending;
  for (int round = 0; round < kRounds; ++round) {
    std::string customers, addresses;
    for (int k = 0; k < kKeys; ++k) {
      const std::string key = std::to_string(k);
      auto& [c, a] = counts[key];
      if ((round + k) % 3 != 0) {
        customers += R"({"id": ")" + key + R"(", "first_name": "n", "age": )" +
                     std::to_string(c++) + "}\n";
      }
      if ((round + k) % 2 == 0) {
        addresses += R"({"customer_id": ")" + key + R"(", "city": "c)" + std::to_string(a++) +
                     "\"}\n";
      }
    }
    pending.push_back(client_->ProduceJsonAsync("customer", customers));
    pending.push_back(client_->ProduceJsonAsync("address", addresses));
  }
  for (auto& p : pending) ASSERT_TRUE(p.Get().ok());
  auto info = client_->Metadata("customer_address");
  ASSERT_TRUE(info.ok());
  uint64_t produced = 0;
  for (const auto& [key, c] : counts) produced += static_cast<uint64_t>(c.first + c.second);
  // Usually behind here; the exact redo of a half-committed step is also tested deterministically
  // in src/broker/join_stream_test.cc.
  std::cout << "joined " << info->front().record_count << " of " << produced
            << " records when killed\n";
  broker_->Kill9();
  broker_->Start();
  Connect();
  for (int k = 0; k < kKeys; ++k) {
    const std::string key = std::to_string(k);
    const std::vector<Joined> joined = All(key);
    ASSERT_EQ(joined.size(), static_cast<size_t>(counts[key].first + counts[key].second)) << key;
    CheckWalk(joined, counts[key].first, counts[key].second, key);
  }
  // And it keeps going after the restart.
  Produce("address", R"({"customer_id": "0", "city": "c)" + std::to_string(counts["0"].second) +
                         "\"}");
  const std::vector<Joined> zero = All("0");
  CheckWalk(zero, counts["0"].first, counts["0"].second + 1, "0");
}

TEST_F(JoinTest, AWaitingProduceSeesItsJoinedRecord) {
  // A produce that waits returns only once the join holds the joined record: no sleep, no
  // polling, and the latest record is the complete one right after the acknowledgement.
  Start("file");
  Configure(std::string(config::testing::kJoinExample));
  for (int i = 0; i < 20; ++i) {
    const std::string key = "k" + std::to_string(i);
    Produce("customer", R"({"id": ")" + key + R"(", "first_name": "F", "age": )" +
                            std::to_string(i) + "}");
    Produce("address", R"({"customer_id": ")" + key + R"(", "city": "C"})");
    auto latest = client_->QueryLatest("customer_address", key);  // no wait on the query
    ASSERT_TRUE(latest.ok()) << latest.status().ToString();
    EXPECT_EQ(latest->offset, 1u);
    EXPECT_EQ(latest->batch.column(2).Value<int32_t>(0), i);
    EXPECT_EQ(latest->batch.column(4).BinaryValue(0), "C");
  }
}

}  // namespace
}  // namespace higgins::test
