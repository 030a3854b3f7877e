#include "pushed_records.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arrow/json/json_reader.h"
#include "server/http/stream_tail.h"

namespace higgins::bench {
namespace {

using arrow::DataType;
using arrow::Field;

/// The objects the broker's WebSocket push renders (server::http::RenderEntry) for `rows` of
/// the fan-out bench's records, under partition keys `keys` at offsets `offsets`.
std::vector<std::string> Rendered(const std::string& rows, std::vector<std::string> keys,
                                  std::vector<uint64_t> offsets) {
  const auto schema =
      arrow::MakeSchema({Field("id", DataType::Utf8()), Field("seq", DataType::Int64()),
                         Field("sent_us", DataType::Int64()), Field("payload", DataType::Utf8())});
  auto batch = arrow::json::ReadJson(rows, schema);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  broker::BucketEntry entry;
  entry.batch = std::move(*batch);
  entry.keys = std::move(keys);
  entry.offsets = std::move(offsets);
  entry.timestamp_ms = 1'765'000'000'123;
  std::vector<server::http::TailRecord> tail;
  server::http::RenderEntry("fanout", 0, entry, 0, &tail);
  std::vector<std::string> objects;
  for (const auto& record : tail) objects.push_back(*record.json);
  return objects;
}

std::vector<PushedRecord> ReadAll(PushedRecords& reader) {
  std::vector<PushedRecord> out;
  PushedRecord record;
  while (reader.Next(&record)) out.push_back(record);
  return out;
}

TEST(PushedRecords, OneObjectAsTheBrokerPushesIt) {
  const auto objects =
      Rendered(R"({"id":"k3","seq":42,"sent_us":1234567890123,"payload":"xxxx"})", {"k3"}, {7});
  ASSERT_EQ(objects.size(), 1u);
  PushedRecords reader(objects[0]);
  const auto records = ReadAll(reader);
  EXPECT_FALSE(reader.malformed()) << objects[0];
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].key, "k3");
  EXPECT_EQ(records[0].offset, 7);
  EXPECT_EQ(records[0].seq, 42);
  EXPECT_EQ(records[0].sent_us, 1234567890123);
}

TEST(PushedRecords, AnArrayAsBatchTruePushesIt) {
  const auto objects = Rendered(
      "{\"id\":\"k0\",\"seq\":0,\"sent_us\":10,\"payload\":\"x\"}\n"
      "{\"id\":\"warmup\",\"seq\":-1,\"sent_us\":20,\"payload\":\"\"}\n"
      "{\"id\":\"k1\",\"seq\":2,\"sent_us\":30,\"payload\":\"xyz\"}\n",
      {"k0", "warmup", "k1"}, {0, 5, 1});
  ASSERT_EQ(objects.size(), 3u);
  const std::string array = "[" + objects[0] + "," + objects[1] + "," + objects[2] + "]";
  PushedRecords reader(array);
  const auto records = ReadAll(reader);
  EXPECT_FALSE(reader.malformed());
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].key, "k0");
  EXPECT_EQ(records[1].key, "warmup");
  EXPECT_EQ(records[1].seq, -1);
  EXPECT_EQ(records[1].offset, 5);
  EXPECT_EQ(records[2].key, "k1");
  EXPECT_EQ(records[2].seq, 2);
  EXPECT_EQ(records[2].sent_us, 30);
}

TEST(PushedRecords, AFieldTheBrokerAddsIsSkipped) {
  const std::string text =
      R"({"stream":"s","partition_key":"k1","offset":3,"headers":{"a":"b"},"bucket":0,)"
      R"("commit_time":"2025-12-06T05:46:40.123Z","record":{"id":"k1","seq":9,)"
      R"("sent_us":11,"payload":"x"}})";
  PushedRecords reader(text);
  const auto records = ReadAll(reader);
  EXPECT_FALSE(reader.malformed());
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].offset, 3);
  EXPECT_EQ(records[0].seq, 9);
}

TEST(PushedRecords, EmptyArrayHoldsNoRecord) {
  PushedRecords reader("[]");
  EXPECT_TRUE(ReadAll(reader).empty());
  EXPECT_FALSE(reader.malformed());
}

TEST(PushedRecords, WhatIsNotARecordIsMalformed) {
  const auto objects =
      Rendered(R"({"id":"k3","seq":42,"sent_us":77,"payload":"xxxx"})", {"k3"}, {7});
  ASSERT_EQ(objects.size(), 1u);
  for (const std::string& text :
       {std::string("[") + objects[0],                     // no closing bracket
        objects[0].substr(0, objects[0].find("sent_us")),  // cut short
        std::string(R"({"error":{"code":"bad","message":"no"}})"), std::string(),
        std::string(R"({"stream":"s","partition_key":"k1","offset":"x"})")}) {
    PushedRecords reader(text);
    EXPECT_TRUE(ReadAll(reader).empty()) << text;
    EXPECT_TRUE(reader.malformed()) << text;
  }
}

}  // namespace
}  // namespace higgins::bench
