#include "higgins/arrow/record_batch.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace higgins::arrow {
namespace {

SchemaPtr IdAndData() {
  return MakeSchema({Field("id", DataType::Utf8(), false), Field("data", DataType::Int32())});
}

RecordBatch Rows(const SchemaPtr& schema,
                 std::initializer_list<std::pair<std::string, std::optional<int32_t>>> rows) {
  ArrayBuilder ids(DataType::Utf8());
  ArrayBuilder data(DataType::Int32());
  for (const auto& [id, value] : rows) {
    EXPECT_TRUE(ids.AppendBinary(id).ok());
    value ? data.AppendPrimitive<int32_t>(*value) : data.AppendNull();
  }
  auto batch =
      RecordBatch::Make(schema, static_cast<int64_t>(rows.size()), {ids.Finish(), data.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

TEST(ConcatenateBatchesTest, AppendsRowsInOrderKeepingNulls) {
  SchemaPtr schema = IdAndData();
  std::vector<RecordBatch> batches = {Rows(schema, {{"a", 1}, {"b", std::nullopt}}),
                                      Rows(schema, {}), Rows(schema, {{"c", 3}})};
  auto joined = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_TRUE(joined->Equals(Rows(schema, {{"a", 1}, {"b", std::nullopt}, {"c", 3}})));
  EXPECT_EQ(joined->column(1).null_count(), 1);
}

TEST(ConcatenateBatchesTest, SlicedInputsStartAtTheirOffset) {
  SchemaPtr schema = IdAndData();
  RecordBatch all = Rows(schema, {{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}});
  std::vector<RecordBatch> batches = {all.Slice(1, 1), all.Slice(3, 1)};
  auto joined = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_TRUE(joined->Equals(Rows(schema, {{"b", 2}, {"d", 4}})));
}

TEST(ConcatenateBatchesTest, SingleBatchIsSharedNotCopied) {
  SchemaPtr schema = IdAndData();
  std::vector<RecordBatch> batches = {Rows(schema, {{"a", 1}})};
  auto joined = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(joined.ok());
  EXPECT_EQ(joined->column(0).data_ptr(), batches[0].column(0).data_ptr());
}

TEST(ConcatenateBatchesTest, NoBatchesGiveAnEmptyBatchOfTheSchema) {
  SchemaPtr schema = IdAndData();
  auto joined = ConcatenateBatches(schema, {});
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  EXPECT_EQ(joined->num_rows(), 0);
  EXPECT_EQ(joined->num_columns(), 2);
  EXPECT_EQ(*joined->schema(), *schema);
}

TEST(ConcatenateBatchesTest, SchemaMismatchNamesTheBatch) {
  SchemaPtr schema = IdAndData();
  SchemaPtr other =
      MakeSchema({Field("id", DataType::Utf8(), false), Field("n", DataType::Int32())});
  std::vector<RecordBatch> batches = {Rows(schema, {{"a", 1}}), Rows(other, {{"b", 2}})};
  auto joined = ConcatenateBatches(schema, batches);
  ASSERT_FALSE(joined.ok());
  EXPECT_EQ(joined.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(joined.status().message().rfind("batch 1 has the fields", 0), 0u)
      << joined.status().message();
  EXPECT_FALSE(ConcatenateBatches(nullptr, batches).ok());
}

}  // namespace
}  // namespace higgins::arrow
