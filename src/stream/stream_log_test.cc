#include "stream/stream_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "arrow/ipc/dictionary_test_writer.h"
#include "higgins/arrow/ipc/writer.h"
#include "stream/group_committer.h"
#include "stream/partitioning.h"

namespace higgins::stream {
namespace {

arrow::SchemaPtr AmountSchema() {
  return arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                            arrow::Field("data", arrow::DataType::Int32())});
}

class TempFolder {
 public:
  TempFolder() {
    char pattern[] = "/tmp/higgins-stream-log-XXXXXX";
    path_ = ::mkdtemp(pattern);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

StreamLog::Options Options(storage::Storage* storage, uint32_t buckets, std::string index_dir) {
  StreamLog::Options o;
  o.name = "amount";
  o.id = StreamId(1);
  o.schema = AmountSchema();
  o.partition_key = "id";
  o.buckets = buckets;
  o.storage = storage;
  o.index_dir = std::move(index_dir);
  o.max_records_per_request = 100;
  return o;
}

/// Commits one payload synchronously through a committer.
Result<ProduceResult> Commit(GroupCommitter& committer, const std::shared_ptr<StreamLog>& log,
                             std::string_view json) {
  auto prepared = log->Prepare(json, PayloadFormat::kJson);
  if (!prepared.ok()) return prepared.status();
  std::promise<Result<ProduceResult>> promise;
  committer.Submit(log, *std::move(prepared),
                   [&](Result<ProduceResult> r) { promise.set_value(std::move(r)); });
  return promise.get_future().get();
}

int32_t DataOf(const Result<QueryRows>& rows, int64_t row = 0) {
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  if (!rows.ok()) return INT32_MIN;
  return rows->batch.column(1).Value<int32_t>(row);
}

TEST(StreamLogTest, PrepareReportsTheRowAndField) {
  auto storage = storage::MakeMemoryStorage();
  auto log = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  EXPECT_EQ((*log)->Prepare("", PayloadFormat::kAuto).status().message(), "empty payload");
  EXPECT_EQ((*log)->Prepare("[]", PayloadFormat::kAuto).status().message(),
            "the payload holds no records");
  auto wrong = (*log)->Prepare(R"({"id":"a","data":"x"})", PayloadFormat::kAuto);
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("row 0, field 'data'"), std::string::npos)
      << wrong.status().message();
  std::string many = "[";
  for (int i = 0; i < 101; ++i) many += std::string(i ? "," : "") + R"({"id":"a","data":1})";
  many += "]";
  EXPECT_EQ((*log)->Prepare(many, PayloadFormat::kJson).status().code(),
            StatusCode::kResourceExhausted);
}

TEST(StreamLogTest, BucketsSplitRowsAndKeepPerKeyOrder) {
  auto storage = storage::MakeMemoryStorage();
  auto opened = StreamLog::Open(Options(storage.get(), 4, ""));
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<StreamLog> log = *std::move(opened);
  GroupCommitter committer;
  std::string payload;
  for (int i = 0; i < 40; ++i) {
    payload += R"({"id":"k)" + std::to_string(i % 10) + R"(","data":)" + std::to_string(i) + "}\n";
  }
  auto result = Commit(committer, log, payload);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->offsets.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(result->offsets[static_cast<size_t>(i)], uint64_t(i / 10));
  for (int k = 0; k < 10; ++k) {
    const std::string key = "k" + std::to_string(k);
    for (int o = 0; o < 4; ++o)
      EXPECT_EQ(DataOf(log->At(key, static_cast<uint64_t>(o))), o * 10 + k);
    auto range = log->Range(key, 1, 4, 100);
    ASSERT_TRUE(range.ok());
    EXPECT_EQ(range->batch.num_rows(), 3);
    EXPECT_EQ(DataOf(range, 2), 30 + k);
  }
  // Rows went to the bucket Kafka's partitioner picks for their key.
  EXPECT_GT(log->index().NextSequence(BucketOf("k0", 4)), Sequence(0));
}

// Several one-row requests coalesced: one entry, each request its own offsets and partitions.
TEST(StreamLogTest, PrepareJsonCommitsSeveralRequestsAsOneEntryAndSplitResultAnswersEach) {
  auto storage = storage::MakeMemoryStorage();
  auto opened = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<StreamLog> log = *std::move(opened);
  const std::vector<std::string_view> payloads = {
      R"({"id":"a","data":1})", "{\"id\":\"b\",\"data\":2}\n{\"id\":\"a\",\"data\":3}",
      R"([{"id":"c","data":4}])", R"({"id":"a","data":5})"};
  auto prepared = log->PrepareJson(payloads);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  EXPECT_EQ(prepared->request_rows, (std::vector<int64_t>{1, 2, 1, 1}));
  ASSERT_EQ(prepared->batches.size(), 1u);
  const std::vector<int64_t> rows = prepared->request_rows;
  auto result = log->CommitNow(*prepared, 1000);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(log->index().VisibleEntries(BucketId(0), Sequence(0), 100).size(), 1u);
  auto parts = SplitResult(*result, rows);
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 4u);
  EXPECT_EQ((*parts)[0].partitions, (std::vector<std::string>{"a"}));
  EXPECT_EQ((*parts)[0].offsets, (std::vector<uint64_t>{0}));
  EXPECT_EQ((*parts)[1].partitions, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ((*parts)[1].partition_indexes, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ((*parts)[1].offsets, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ((*parts)[2].partitions, (std::vector<std::string>{"c"}));
  EXPECT_EQ((*parts)[2].offsets, (std::vector<uint64_t>{0}));
  EXPECT_EQ((*parts)[3].partitions, (std::vector<std::string>{"a"}));
  EXPECT_EQ((*parts)[3].partition_indexes, (std::vector<uint32_t>{0}));
  EXPECT_EQ((*parts)[3].offsets, (std::vector<uint64_t>{2}));
  for (const auto& part : *parts) EXPECT_EQ(part.timestamp_ms, 1000);
  EXPECT_EQ(DataOf(log->At("a", 2)), 5);
  EXPECT_EQ(DataOf(log->At("b", 0)), 2);
  // Row counts that do not add up are refused, not read past.
  EXPECT_EQ(SplitResult(*result, std::vector<int64_t>{1, 1}).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(StreamLogTest, PrepareJsonRefusesABadPayloadAnywhereInTheRun) {
  auto storage = storage::MakeMemoryStorage();
  auto log = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(log.ok());
  for (const std::vector<std::string_view>& payloads :
       {std::vector<std::string_view>{R"({"id":"a","data":1})", R"({"id":"a","data":"x"})"},
        std::vector<std::string_view>{R"({"id":"a","data":1})", ""},
        std::vector<std::string_view>{"[]", R"({"id":"a","data":1})"},
        std::vector<std::string_view>{R"({"id":"a","data":1})", R"({"data":1})"}}) {
    EXPECT_FALSE((*log)->PrepareJson(payloads).ok()) << payloads[1];
  }
  // Over the limit per request (100 in these options), though the run in total may be larger.
  std::string many;
  for (int i = 0; i < 101; ++i) many += R"({"id":"a","data":1})" "\n";
  EXPECT_EQ((*log)->PrepareJson(std::vector<std::string_view>{R"({"id":"a","data":1})", many})
                .status()
                .code(),
            StatusCode::kResourceExhausted);
}

TEST(StreamLogTest, FileStorageRecoversIndexFromDataWhenIndexFilesAreLost) {
  TempFolder dir;
  std::vector<std::pair<std::string, int32_t>> expected;
  {
    auto storage = storage::MakeFileStorage(dir.path() + "/storage");
    ASSERT_TRUE(storage.ok()) << storage.status().ToString();
    auto opened = StreamLog::Open(Options(storage->get(), 2, dir.path() + "/index"));
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    std::shared_ptr<StreamLog> log = *std::move(opened);
    GroupCommitter committer;
    for (int i = 0; i < 20; ++i) {
      auto r =
          Commit(committer, log,
                 R"({"id":"k)" + std::to_string(i % 3) + R"(","data":)" + std::to_string(i) + "}");
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    // Pass 0 reopens with the index files; pass 1 without them (rebuilt from the segments).
    if (pass == 1) std::filesystem::remove_all(dir.path() + "/index");
    auto storage = storage::MakeFileStorage(dir.path() + "/storage");
    ASSERT_TRUE(storage.ok());
    auto log = StreamLog::Open(Options(storage->get(), 2, dir.path() + "/index"));
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    for (int i = 0; i < 20; ++i) {
      EXPECT_EQ(DataOf((*log)->At("k" + std::to_string(i % 3), static_cast<uint64_t>(i / 3))), i)
          << "pass " << pass << " record " << i;
    }
    EXPECT_EQ(*(*log)->index().Latest("k0"), 6u);
  }
}

TEST(StreamLogTest, TheCommitListenerGetsTheKeysOfEveryCommitOnAnyStorage) {
  TempFolder dir;
  auto memory = storage::MakeMemoryStorage();
  auto file = storage::MakeFileStorage(dir.path() + "/storage");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  // Memory storage keeps no index files; the file stream does; with several buckets too.
  for (auto [storage, buckets, index] : {std::tuple{memory.get(), 1u, std::string()},
                                         std::tuple{file->get(), 3u, dir.path() + "/index"}}) {
    auto log = StreamLog::Open(Options(storage, buckets, index));
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    std::vector<std::string> heard;
    (*log)->SetCommitListener([&](const std::vector<std::string_view>& keys) {
      for (std::string_view k : keys) heard.emplace_back(k);
    });
    auto one = (*log)->Prepare(R"([{"id":"a","data":1},{"id":"b","data":2},{"id":"a","data":3}])",
                               PayloadFormat::kJson);
    ASSERT_TRUE(one.ok());
    ASSERT_TRUE((*log)->CommitNow(*one, 1).ok());
    auto two = (*log)->Prepare(R"({"id":"c","data":4})", PayloadFormat::kJson);
    auto three = (*log)->Prepare(R"({"id":"a","data":5})", PayloadFormat::kJson);
    ASSERT_TRUE(two.ok() && three.ok());
    std::vector<PreparedProduce> both{*std::move(two), *std::move(three)};
    const int64_t timestamps[] = {2, 3};
    ASSERT_TRUE((*log)->CommitNow(both, timestamps).ok());
    std::sort(heard.begin(), heard.end());
    heard.erase(std::unique(heard.begin(), heard.end()), heard.end());
    EXPECT_EQ(heard, (std::vector<std::string>{"a", "b", "c"})) << buckets;
    auto a = (*log)->Range("a", 0, UINT64_MAX, UINT64_MAX);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->timestamps_ms, (std::vector<int64_t>{1, 1, 3}));
  }
}

TEST(StreamLogTest, DeletedStreamRefusesProducesWithNotFound) {
  auto storage = storage::MakeMemoryStorage();
  auto log = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(log.ok());
  auto prepared = (*log)->Prepare(R"({"id":"a","data":1})", PayloadFormat::kJson);
  ASSERT_TRUE(prepared.ok());
  (*log)->MarkDeleted();
  auto result = (*log)->CommitNow(*prepared, 1);
  EXPECT_EQ(result.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(result.status().message(), "stream 'amount' was deleted");
  EXPECT_EQ((*log)->index().Latest("a").status().code(), StatusCode::kNotFound);
}

TEST(StreamLogTest, ADictionaryEncodedArrowPayloadIsStoredAsItsPlainSchema) {
  // As pyarrow writes categoricals: `id` is dictionary<int8, utf8>, and the second batch
  // replaces the dictionary.
  auto storage = storage::MakeMemoryStorage();
  auto log = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(log.ok());
  auto utf8 = [](std::vector<std::string> values) {
    arrow::ArrayBuilder b(arrow::DataType::Utf8());
    for (const auto& v : values) EXPECT_TRUE(b.AppendBinary(v).ok());
    return b.Finish();
  };
  auto ints = [](const arrow::DataType& type, std::vector<int32_t> values) {
    arrow::ArrayBuilder b(type);
    for (int32_t v : values) {
      if (type == arrow::DataType::Int8()) {
        b.AppendPrimitive<int8_t>(static_cast<int8_t>(v));
      } else {
        b.AppendPrimitive<int32_t>(v);
      }
    }
    return b.Finish();
  };
  arrow::ipc::testing::DictionaryIpcWriter writer(
      AmountSchema(), {arrow::ipc::DictionaryField{0, 0, arrow::DataType::Int8()}});
  writer.WriteDictionary(0, utf8({"a", "b"}));
  writer.WriteBatch(
      {ints(arrow::DataType::Int8(), {1, 0}), ints(arrow::DataType::Int32(), {10, 20})});
  writer.WriteDictionary(0, utf8({"c"}));
  writer.WriteBatch({ints(arrow::DataType::Int8(), {0}), ints(arrow::DataType::Int32(), {30})});
  const Buffer payload = writer.Finish();

  auto prepared = (*log)->Prepare(payload.view(), PayloadFormat::kArrowIpc);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  ASSERT_EQ(prepared->batches.size(), 2u);
  EXPECT_EQ(*prepared->batches[0].schema(), *AmountSchema());
  EXPECT_EQ(prepared->batches[0].column(0).BinaryValue(0), "b");
  EXPECT_EQ(prepared->batches[1].column(0).BinaryValue(0), "c");
  EXPECT_EQ(prepared->keys, (std::vector<std::string>{"b", "a", "c"}));
  auto result = (*log)->CommitNow(*prepared, 1);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->offsets.size(), 3u);
}

TEST(StreamLogTest, AnArrowPayloadWithOtherFieldNamesIsRefusedWithTheNamesEscaped) {
  auto storage = storage::MakeMemoryStorage();
  auto log = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(log.ok());
  for (const auto& [name, shown] :
       {std::pair<std::string, std::string>{std::string("i\0d", 3), "'i\\u0000d'"},
        {"", "''"},
        {"i\nd", "'i\\u000ad'"}}) {
    arrow::SchemaPtr schema = arrow::MakeSchema({arrow::Field(name, arrow::DataType::Utf8(), false),
                                                 arrow::Field("data", arrow::DataType::Int32())});
    arrow::ArrayBuilder ids(arrow::DataType::Utf8());
    ASSERT_TRUE(ids.AppendBinary("a").ok());
    arrow::ArrayBuilder data(arrow::DataType::Int32());
    data.AppendPrimitive<int32_t>(1);
    auto batch = arrow::RecordBatch::Make(schema, 1, {ids.Finish(), data.Finish()});
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    auto payload = arrow::ipc::WriteStream(schema, {*batch});
    ASSERT_TRUE(payload.ok()) << payload.status().ToString();
    auto prepared = (*log)->Prepare(payload->view(), PayloadFormat::kArrowIpc);
    ASSERT_FALSE(prepared.ok());
    EXPECT_EQ(prepared.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(prepared.status().message(),
              "the payload's schema differs from the stream's: field 0 is " + shown +
                  ", the stream has 'id'");
  }
}

TEST(StreamLogTest, TimestampsDoNotDecreaseAcrossARestart) {
  TempFolder dir;
  auto commit_at = [&dir](int64_t now_ms) -> int64_t {
    auto storage = storage::MakeFileStorage(dir.path() + "/storage");
    EXPECT_TRUE(storage.ok()) << storage.status().ToString();
    if (!storage.ok()) return -1;
    auto log = StreamLog::Open(Options(storage->get(), 2, dir.path() + "/index"));
    EXPECT_TRUE(log.ok()) << log.status().ToString();
    if (!log.ok()) return -1;
    auto prepared = (*log)->Prepare(R"({"id":"a","data":1})", PayloadFormat::kJson);
    EXPECT_TRUE(prepared.ok());
    if (!prepared.ok()) return -1;
    auto result = (*log)->CommitNow(*prepared, now_ms);
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? result->timestamp_ms : -1;
  };
  EXPECT_EQ(commit_at(5000), 5000);
  EXPECT_EQ(commit_at(1000), 5000);  // reopened, with the clock behind the stored records
  std::filesystem::remove_all(dir.path() + "/index");
  EXPECT_EQ(commit_at(2000), 5000);  // the index rebuilt from the data
}

/// Commits one record per clock reading, each in its own group, and answers their timestamps.
std::vector<int64_t> TimestampsFor(std::vector<int64_t> clock) {
  auto storage = storage::MakeMemoryStorage();
  auto opened = StreamLog::Open(Options(storage.get(), 1, ""));
  EXPECT_TRUE(opened.ok());
  std::shared_ptr<StreamLog> log = *std::move(opened);
  std::atomic<size_t> reads{0};
  GroupCommitter committer([&] { return clock[std::min(reads++, clock.size() - 1)]; });
  std::vector<int64_t> timestamps;
  for (size_t i = 0; i < clock.size(); ++i) {
    auto result = Commit(committer, log, R"({"id":"a","data":1})");
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    timestamps.push_back(result.ok() ? result->timestamp_ms : -1);
  }
  auto stored = log->Range("a", 0, clock.size(), clock.size());
  EXPECT_TRUE(stored.ok());
  if (stored.ok()) {
    EXPECT_EQ(stored->timestamps_ms, timestamps);
  }
  return timestamps;
}

TEST(GroupCommitterTest, AClockBeforeTheUnixEpochGivesTimestampZero) {
  EXPECT_EQ(TimestampsFor({-5000, -1, 7}), (std::vector<int64_t>{0, 0, 7}));
}

TEST(GroupCommitterTest, AClockThatGoesBackwardsGivesTheLatestTimestamp) {
  EXPECT_EQ(TimestampsFor({2000, 1500, 2000, 2500, 10}),
            (std::vector<int64_t>{2000, 2000, 2000, 2500, 2500}));
}

TEST(GroupCommitterTest, ConcurrentProducersShareGroups) {
  auto storage = storage::MakeMemoryStorage();
  auto opened = StreamLog::Open(Options(storage.get(), 1, ""));
  ASSERT_TRUE(opened.ok());
  std::shared_ptr<StreamLog> log = *std::move(opened);
  // The first group's clock call waits until every request is queued, so the other 499 must
  // share the second group.
  std::promise<void> all_queued;
  std::shared_future<void> queued = all_queued.get_future().share();
  std::atomic<int> clock_calls{0};
  GroupCommitter committer([&] {
    if (clock_calls++ == 0) queued.wait();
    return int64_t{1000};
  });
  constexpr int kRequests = 500;
  std::vector<std::promise<Result<ProduceResult>>> promises(kRequests);
  for (int i = 0; i < kRequests; ++i) {
    auto prepared =
        log->Prepare(R"({"id":"a","data":)" + std::to_string(i) + "}", PayloadFormat::kJson);
    ASSERT_TRUE(prepared.ok());
    committer.Submit(log, *std::move(prepared), [&promises, i](Result<ProduceResult> r) {
      promises[static_cast<size_t>(i)].set_value(std::move(r));
    });
  }
  all_queued.set_value();
  for (int i = 0; i < kRequests; ++i) {
    auto r = promises[static_cast<size_t>(i)].get_future().get();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->offsets[0], static_cast<uint64_t>(i)) << "commit order is submission order";
    EXPECT_EQ(r->timestamp_ms, 1000);
  }
  EXPECT_EQ(committer.stats().requests, static_cast<uint64_t>(kRequests));
  EXPECT_LE(committer.stats().groups, 2u);  // 1 if all were queued before the first wake-up
}

}  // namespace
}  // namespace higgins::stream
