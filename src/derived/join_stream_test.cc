// The join processor's durability pieces: the intent log's codec and file, and the redo of a
// step whose joined records were committed for some partitions only (what kill -9 between two
// bucket appends leaves). Joins end to end: tests/e2e/join_e2e_test.cc.
#include "derived/join_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "derived/derived_lag.h"
#include "derived/join_intent.h"
#include "stream/partitioning.h"

namespace higgins::derived {
namespace {

class TempFolder {
 public:
  TempFolder() {
    char pattern[] = "/tmp/higgins-join-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

JoinIntent Intent(std::initializer_list<uint64_t> from, std::initializer_list<uint64_t> to) {
  JoinIntent intent;
  for (uint64_t s : from) intent.from.emplace_back(s);
  for (uint64_t s : to) intent.to.emplace_back(s);
  return intent;
}

TEST(JoinIntentTest, CodecKeepsTheLastWholeRecord) {
  const JoinIntent a = Intent({0, 0, 0}, {5, 7, 9});
  const JoinIntent b = Intent({5, 7, 9}, {6, 7, 12});
  EXPECT_EQ(LastJoinIntent(""), std::nullopt);
  EXPECT_EQ(LastJoinIntent(EncodeJoinIntent(a)), a);
  const std::string both = EncodeJoinIntent(a) + EncodeJoinIntent(b);
  EXPECT_EQ(LastJoinIntent(both), b);
  // A torn second record, or a corrupt one, leaves the first.
  for (size_t cut = EncodeJoinIntent(a).size(); cut < both.size(); ++cut) {
    EXPECT_EQ(LastJoinIntent(both.substr(0, cut)), a) << cut;
  }
  std::string corrupt = both;
  corrupt.back() ^= 1;
  EXPECT_EQ(LastJoinIntent(corrupt), a);
  // A length that does not fit its count.
  std::string odd = EncodeJoinIntent(a);
  odd[8] = 4;  // count 4 with 3 pairs of values
  EXPECT_EQ(LastJoinIntent(odd), std::nullopt);
}

TEST(JoinIntentTest, LogSurvivesATornTailAndRotates) {
  TempFolder dir;
  const std::string path = dir.path() + "/join-intent.log";
  {
    auto log = JoinIntentLog::Open(path, true);
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    EXPECT_EQ((*log)->last(), std::nullopt);
    ASSERT_TRUE((*log)->Append(Intent({0}, {3})).ok());
    ASSERT_TRUE((*log)->Append(Intent({3}, {8})).ok());
  }
  {
    std::ofstream out(path, std::ios::app | std::ios::binary);
    out << "\x10\x00\x00";  // a torn record
  }
  {
    auto log = JoinIntentLog::Open(path, true);
    ASSERT_TRUE(log.ok());
    EXPECT_EQ((*log)->last(), Intent({3}, {8}));
    ASSERT_TRUE((*log)->Append(Intent({8}, {9})).ok());
  }
  {
    auto log = JoinIntentLog::Open(path, false);  // unsynced: thousands of appends follow
    ASSERT_TRUE(log.ok());
    EXPECT_EQ((*log)->last(), Intent({8}, {9}));
    // Past kRotateBytes the file is replaced by its last intent.
    const size_t record = EncodeJoinIntent(Intent({0}, {0})).size();
    for (uint64_t i = 0; i < JoinIntentLog::kRotateBytes / record + 10; ++i) {
      ASSERT_TRUE((*log)->Append(Intent({i}, {i + 1})).ok());
    }
  }
  EXPECT_LT(std::filesystem::file_size(path), JoinIntentLog::kRotateBytes);
  auto log = JoinIntentLog::Open(path, false);
  ASSERT_TRUE(log.ok());
  const uint64_t n = JoinIntentLog::kRotateBytes / EncodeJoinIntent(Intent({0}, {0})).size() + 10;
  EXPECT_EQ((*log)->last(), Intent({n - 1}, {n}));
}

/// customer (2 buckets) and address (1 bucket) joined into customer_address (2 buckets), all
/// on file storage under one folder.
struct Streams {
  explicit Streams(const std::string& dir) {
    storage = *storage::MakeFileStorage(dir + "/storage", {});
    customer = Open(dir, "customer", 1, {{"id", false}, {"name", true}}, "id", 2);
    address = Open(dir, "address", 2, {{"customer_id", false}, {"city", true}}, "customer_id", 1);
    joined =
        Open(dir, "customer_address", 3, {{"id", false}, {"name", true}, {"city", true}}, "id", 2);
  }
  std::shared_ptr<stream::StreamLog> Open(const std::string& dir, const std::string& name,
                                          uint64_t id,
                                          std::vector<std::pair<std::string, bool>> fields,
                                          const std::string& key, uint32_t buckets) {
    std::vector<arrow::Field> schema;
    for (auto& [field, nullable] : fields) {
      schema.emplace_back(field, arrow::DataType::Utf8(), nullable);
    }
    stream::StreamLog::Options o;
    o.name = name;
    o.id = StreamId(id);
    o.schema = arrow::MakeSchema(std::move(schema));
    o.partition_key = key;
    o.buckets = buckets;
    o.storage = storage.get();
    o.index_dir = dir + "/index/" + std::to_string(id);
    auto log = stream::StreamLog::Open(std::move(o));
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    return std::shared_ptr<stream::StreamLog>(*std::move(log));
  }
  void Produce(stream::StreamLog& log, const std::string& json, int64_t now_ms) {
    auto prepared = log.Prepare(json, stream::PayloadFormat::kJson);
    ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
    ASSERT_TRUE(log.CommitNow(*prepared, now_ms).ok());
  }
  /// The same records, entries and timestamps in every Streams.
  void ProduceInputs() {
    for (int i = 0; i < 12; ++i) {
      std::string customers, addresses;
      for (int k = 0; k < 8; ++k) {
        const std::string key = "k" + std::to_string(k);
        if ((i + k) % 3 != 0) {
          customers += R"({"id":")" + key + R"(","name":"n)" + std::to_string(i) + "\"}\n";
        }
        if ((i + k) % 2 == 0) {
          addresses += R"({"customer_id":")" + key + R"(","city":"c)" + std::to_string(i) + "\"}\n";
        }
      }
      // Equal timestamps across the participants on even rounds (ties go by participant).
      Produce(*customer, customers, 1000 + 10 * i);
      Produce(*address, addresses, 1000 + 10 * i + (i % 2));
    }
  }
  std::unique_ptr<JoinStream> Join(std::unique_ptr<JoinIntentLog> intents) {
    JoinStream::Options o;
    o.participants = {customer, address};
    o.derived = joined;
    o.sources = {{0, 0}, {0, 1}, {1, 1}};
    o.intents = std::move(intents);
    auto join = JoinStream::Start(std::move(o));
    EXPECT_TRUE(join.ok()) << join.status().ToString();
    return *std::move(join);
  }
  void RunToEnd(JoinStream& join) {
    for (int i = 0; i < 100; ++i) {
      auto more = join.Step(nullptr, 16);
      ASSERT_TRUE(more.ok()) << more.status().ToString();
      if (!*more) return;
    }
    FAIL() << "the join did not catch up";
  }

  std::unique_ptr<storage::Storage> storage;
  std::shared_ptr<stream::StreamLog> customer, address, joined;
};

/// "name city" of the first `n` joined records of `key` ("null" for a null).
std::vector<std::string> NameAndCity(const stream::StreamLog& joined, const std::string& key,
                                     uint64_t n) {
  auto rows = joined.Range(key, 0, n, n);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  std::vector<std::string> out;
  if (!rows.ok()) return out;
  auto text = [&](int c, int64_t r) {
    const arrow::Array& column = rows->batch.column(c);
    return column.IsNull(r) ? std::string("null") : std::string(column.BinaryValue(r));
  };
  for (int64_t r = 0; r < rows->batch.num_rows(); ++r) out.push_back(text(1, r) + " " + text(2, r));
  return out;
}

TEST(JoinStreamTest, RedoesAHalfCommittedStepExactly) {
  TempFolder a_dir, b_dir;
  // A: the join runs over all the input in one step (its intent: from 0 to the end).
  Streams a(a_dir.path());
  a.ProduceInputs();
  auto a_intents = JoinIntentLog::Open(a_dir.path() + "/intent.log", true);
  ASSERT_TRUE(a_intents.ok());
  auto a_join = a.Join(*std::move(a_intents));
  a.RunToEnd(*a_join);
  // B: the same input; the same intent; the joined records of the partitions in joined bucket
  // 0 were committed, those of bucket 1 were not (kill -9 between the two appends).
  Streams b(b_dir.path());
  b.ProduceInputs();
  std::filesystem::copy_file(a_dir.path() + "/intent.log", b_dir.path() + "/intent.log");
  int committed = 0, missing = 0;
  for (int k = 0; k < 8; ++k) {
    const std::string key = "k" + std::to_string(k);
    if (stream::BucketOf(key, 2) != BucketId(0)) {
      ++missing;
      continue;
    }
    auto rows = a.joined->Range(key, 0, UINT64_MAX, 1000);
    ASSERT_TRUE(rows.ok());
    stream::PreparedProduce prepared;
    prepared.batches = {rows->batch};
    prepared.keys = {key};
    prepared.key_indexes.assign(static_cast<size_t>(rows->batch.num_rows()), 0);
    prepared.rows = rows->batch.num_rows();
    ASSERT_TRUE(b.joined->CommitNow(prepared, rows->timestamps_ms.back()).ok());
    ++committed;
  }
  ASSERT_GT(committed, 0);
  ASSERT_GT(missing, 0);
  auto b_intents = JoinIntentLog::Open(b_dir.path() + "/intent.log", true);
  ASSERT_TRUE(b_intents.ok());
  auto b_join = b.Join(*std::move(b_intents));
  b.RunToEnd(*b_join);
  for (int k = 0; k < 8; ++k) {
    const std::string key = "k" + std::to_string(k);
    auto want = a.joined->Range(key, 0, UINT64_MAX, 1000);
    auto got = b.joined->Range(key, 0, UINT64_MAX, 1000);
    ASSERT_TRUE(want.ok() && got.ok());
    EXPECT_EQ(want->batch.num_rows(),
              static_cast<int64_t>(a.customer->index().Count(key) + a.address->index().Count(key)));
    EXPECT_TRUE(got->batch.Equals(want->batch)) << key;
    EXPECT_EQ(b_join->Processed(0, key), b.customer->index().Count(key));
    EXPECT_EQ(b_join->Processed(1, key), b.address->index().Count(key));
  }
  // k0 has no customer record in round 0 ((0 + 0) % 3 == 0): its first event is the address
  // at t=1000. k1 at round 0: customer n0 (t=1000) and no address ((0 + 1) % 2 != 0); round 1:
  // customer n1 at 1010 and address c1 at 1011: customer first. k2 at round 0: customer n0 and
  // address c0, both at t=1000: a tie goes by participant order.
  EXPECT_EQ(NameAndCity(*a.joined, "k0", 1), (std::vector<std::string>{"null c0"}));
  EXPECT_EQ(NameAndCity(*a.joined, "k1", 3),
            (std::vector<std::string>{"n0 null", "n1 null", "n1 c1"}));
  EXPECT_EQ(NameAndCity(*a.joined, "k2", 2), (std::vector<std::string>{"n0 null", "n0 c0"}));
}

TEST(JoinStreamTest, TimestampsNeverDecreaseAndCountsAddUp) {
  TempFolder dir;
  Streams s(dir.path());
  s.ProduceInputs();
  auto join = s.Join(nullptr);
  s.RunToEnd(*join);
  uint64_t total = 0;
  for (int k = 0; k < 8; ++k) {
    const std::string key = "k" + std::to_string(k);
    auto rows = s.joined->Range(key, 0, UINT64_MAX, 1000);
    ASSERT_TRUE(rows.ok());
    total += static_cast<uint64_t>(rows->batch.num_rows());
    for (size_t i = 1; i < rows->timestamps_ms.size(); ++i) {
      EXPECT_LE(rows->timestamps_ms[i - 1], rows->timestamps_ms[i]) << key << " " << i;
    }
  }
  EXPECT_EQ(total, join->processed());
}

TEST(JoinStreamTest, LagCountsInputRecordsNotYetJoined) {
  TempFolder dir;
  Streams s(dir.path());
  const std::vector<const stream::StreamLog*> inputs = {s.customer.get(), s.address.get()};
  EXPECT_EQ(DerivedLag(*s.joined, inputs), 0u);
  s.ProduceInputs();  // 64 customer and 48 address records
  EXPECT_EQ(DerivedLag(*s.joined, inputs), 112u);
  auto join = s.Join(nullptr);
  EXPECT_EQ(DerivedLag(*s.joined, inputs), 112u);  // started, not stepped
  s.RunToEnd(*join);
  EXPECT_EQ(join->processed(), 112u);
  EXPECT_EQ(DerivedLag(*s.joined, inputs), 0u);
  s.Produce(*s.customer,
            R"({"id":"k1","name":"x"})"
            "\n"
            R"({"id":"k9","name":"y"})",
            2000);
  EXPECT_EQ(DerivedLag(*s.joined, inputs), 2u);
  s.RunToEnd(*join);
  EXPECT_EQ(DerivedLag(*s.joined, inputs), 0u);
  // One input only (a map or reduce's base): its records against the derived stream's.
  const std::vector<const stream::StreamLog*> address_only = {s.address.get()};
  EXPECT_EQ(DerivedLag(*s.address, address_only), 0u);
  EXPECT_EQ(DerivedLag(*s.customer, address_only), 0u);  // more derived than input: never below 0
}

}  // namespace
}  // namespace higgins::derived
