#include "higgins/arrow/array.h"

#include <gtest/gtest.h>

#include "higgins/arrow/record_batch.h"
#include "arrow/validate.h"

namespace higgins::arrow {
namespace {

Array Int32s(std::initializer_list<std::optional<int32_t>> values) {
  ArrayBuilder b(DataType::Int32());
  for (auto v : values) v ? b.AppendPrimitive<int32_t>(*v) : b.AppendNull();
  return b.Finish();
}

Array Strings(std::initializer_list<std::optional<std::string>> values,
              DataType type = DataType::Utf8()) {
  ArrayBuilder b(type);
  for (const auto& v : values) {
    if (v) {
      EXPECT_TRUE(b.AppendBinary(*v).ok());
    } else {
      b.AppendNull();
    }
  }
  return b.Finish();
}

TEST(ArrayBuilderTest, PrimitiveWithNulls) {
  Array a = Int32s({1, std::nullopt, 3});
  EXPECT_EQ(a.length(), 3);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_TRUE(a.IsValid(0));
  EXPECT_TRUE(a.IsNull(1));
  EXPECT_EQ(a.Value<int32_t>(2), 3);
  EXPECT_EQ(a.Value<int32_t>(1), 0) << "null slots are zeroed";
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ArrayBuilderTest, NoNullsOmitsValidityBitmap) {
  Array a = Int32s({1, 2});
  EXPECT_TRUE(a.data().buffers[0].empty());
  EXPECT_EQ(a.null_count(), 0);
}

TEST(ArrayBuilderTest, StringsAndLargeStrings) {
  for (DataType t : {DataType::Utf8(), DataType::LargeUtf8(), DataType::Binary(),
                     DataType::LargeBinary()}) {
    Array a = Strings({"joe", std::nullopt, "", "mark"}, t);
    EXPECT_EQ(a.BinaryValue(0), "joe");
    EXPECT_TRUE(a.IsNull(1));
    EXPECT_EQ(a.BinaryValue(2), "");
    EXPECT_EQ(a.BinaryValue(3), "mark");
    EXPECT_TRUE(ValidateFull(a).ok()) << t.ToString();
  }
}

TEST(ArrayBuilderTest, BoolsAreBitPacked) {
  ArrayBuilder b(DataType::Bool());
  for (int i = 0; i < 20; ++i) i == 7 ? b.AppendNull() : b.AppendBool(i % 3 == 0);
  Array a = b.Finish();
  EXPECT_EQ(a.data().buffers[1].size(), 3u);
  for (int i = 0; i < 20; ++i) {
    if (i == 7) {
      EXPECT_TRUE(a.IsNull(i));
    } else {
      EXPECT_EQ(a.BoolValue(i), i % 3 == 0) << i;
    }
  }
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ArrayBuilderTest, FixedSizeBinaryChecksWidth) {
  ArrayBuilder b(DataType::FixedSizeBinary(3));
  EXPECT_TRUE(b.AppendBinary("abc").ok());
  Status st = b.AppendBinary("ab");
  EXPECT_EQ(st.message(), "expected 3 bytes for fixed_size_binary[3], got 2");
  b.AppendNull();
  Array a = b.Finish();
  EXPECT_EQ(a.length(), 2);
  EXPECT_EQ(a.BinaryValue(0), "abc");
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ArrayBuilderTest, AppendFromCopiesSlotsOfEveryLayout) {
  Array src = Strings({"a", std::nullopt, "ccc"});
  ArrayBuilder b(DataType::Utf8());
  for (int i = 2; i >= 0; --i) ASSERT_TRUE(b.AppendFrom(src, i).ok());
  Array a = b.Finish();
  EXPECT_TRUE(a.Equals(Strings({"ccc", std::nullopt, "a"})));
  ArrayBuilder wrong(DataType::Int32());
  EXPECT_FALSE(wrong.AppendFrom(src, 0).ok());
}

TEST(ArrayBuilderTest, NullArray) {
  Array a = MakeNullArray(DataType::Null(), 4);
  EXPECT_EQ(a.null_count(), 4);
  EXPECT_TRUE(a.data().buffers.empty());
  EXPECT_TRUE(a.IsNull(3));
  EXPECT_TRUE(ValidateFull(a).ok());
}

TEST(ArraySliceTest, SliceRecountsNullsAndViewsValues) {
  Array a = Int32s({1, std::nullopt, 3, std::nullopt, 5});
  Array s = a.Slice(2, 3);
  EXPECT_EQ(s.length(), 3);
  EXPECT_EQ(s.null_count(), 1);
  EXPECT_EQ(s.Value<int32_t>(0), 3);
  EXPECT_TRUE(s.IsNull(1));
  EXPECT_TRUE(s.Equals(Int32s({3, std::nullopt, 5})));
  EXPECT_TRUE(ValidateFull(s).ok());
  Array strs = Strings({"a", "bb", std::nullopt, "dddd"}).Slice(1, 3);
  EXPECT_EQ(strs.BinaryValue(0), "bb");
  EXPECT_TRUE(strs.Equals(Strings({"bb", std::nullopt, "dddd"})));
}

TEST(ArrayEqualsTest, IgnoresValuesBehindNulls) {
  EXPECT_TRUE(Int32s({1, std::nullopt}).Equals(Int32s({1, std::nullopt})));
  EXPECT_FALSE(Int32s({1, 2}).Equals(Int32s({1, std::nullopt})));
  EXPECT_FALSE(Int32s({1, 2}).Equals(Int32s({1, 3})));
  EXPECT_FALSE(Int32s({1}).Equals(Strings({"1"})));
}

TEST(RecordBatchTest, MakeChecksShape) {
  SchemaPtr schema = MakeSchema({Field("id", DataType::Utf8(), false), Field("n", DataType::Int32())});
  auto ok = RecordBatch::Make(schema, 2, {Strings({"a", "b"}), Int32s({1, std::nullopt})});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->num_rows(), 2);

  auto wrong_len = RecordBatch::Make(schema, 2, {Strings({"a"}), Int32s({1, 2})});
  EXPECT_EQ(wrong_len.status().message(), "column 'id' has 1 rows, expected 2");
  auto wrong_type = RecordBatch::Make(schema, 2, {Int32s({1, 2}), Int32s({1, 2})});
  EXPECT_EQ(wrong_type.status().message(), "column 'id' has type int32 but the schema says utf8");
  auto null_in_required = RecordBatch::Make(schema, 2, {Strings({"a", std::nullopt}), Int32s({1, 2})});
  EXPECT_EQ(null_in_required.status().message(), "column 'id' is not nullable but has 1 nulls");
  auto wrong_count = RecordBatch::Make(schema, 2, {Int32s({1, 2})});
  EXPECT_FALSE(wrong_count.ok());
}

TEST(RecordBatchTest, SliceAndEquals) {
  SchemaPtr schema = MakeSchema({Field("n", DataType::Int32())});
  auto batch = *RecordBatch::Make(schema, 4, {Int32s({1, 2, 3, 4})});
  RecordBatch s = batch.Slice(1, 10);
  EXPECT_EQ(s.num_rows(), 3);
  EXPECT_TRUE(s.Equals(*RecordBatch::Make(schema, 3, {Int32s({2, 3, 4})})));
  EXPECT_FALSE(s.Equals(batch));
}

}  // namespace
}  // namespace higgins::arrow
