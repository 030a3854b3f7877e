#include "config/schema_config.h"

#include <gtest/gtest.h>

#include "higgins/arrow/ipc/options.h"
#include "config/toml_limits.h"

namespace higgins::config {
namespace {

constexpr std::string_view kExample = R"toml(
[storage.memory]
type = "memory"
[schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
)toml";

std::vector<std::string> FieldNames(const arrow::Schema& schema) {
  std::vector<std::string> names;
  for (const arrow::Field& field : schema.fields()) names.push_back(field.name);
  return names;
}

std::string ErrorOf(std::string_view toml) {
  Result<std::vector<NamedSchema>> schemas = ParseSchemas(toml);
  return schemas.ok() ? "OK" : schemas.status().message();
}

TEST(SchemaConfigTest, ExampleParsesWithOtherTablesIgnored) {
  Result<std::vector<NamedSchema>> schemas = ParseSchemas(kExample);
  ASSERT_TRUE(schemas.ok()) << schemas.status().ToString();
  ASSERT_EQ(schemas->size(), 1u);
  EXPECT_EQ((*schemas)[0].name, "amount");
  const arrow::Schema& schema = *(*schemas)[0].schema;
  ASSERT_EQ(schema.num_fields(), 2u);
  EXPECT_EQ(schema.field(0), arrow::Field("id", arrow::DataType::Utf8()));
  EXPECT_EQ(schema.field(1), arrow::Field("data", arrow::DataType::Int32()));
}

TEST(SchemaConfigTest, FieldsKeepFileOrderNotKeyOrder) {
  Result<arrow::SchemaPtr> schema = LoadSchema(R"toml(
[schema.z]
zeta = "int8"
alpha = "int16"
mid = { type = "int32" }
beta = "int64"
)toml",
                                               "z");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(FieldNames(**schema), (std::vector<std::string>{"zeta", "alpha", "mid", "beta"}));
}

TEST(SchemaConfigTest, SchemasKeepFileOrder) {
  Result<std::vector<NamedSchema>> schemas = ParseSchemas(R"toml(
[schema.second]
a = "bool"
[schema.first]
b = "bool"
)toml");
  ASSERT_TRUE(schemas.ok());
  ASSERT_EQ(schemas->size(), 2u);
  EXPECT_EQ((*schemas)[0].name, "second");
  EXPECT_EQ((*schemas)[1].name, "first");
}

TEST(SchemaConfigTest, MultiLineInlineTableToml11) {
  Result<arrow::SchemaPtr> schema = LoadSchema(R"toml(
[schema.customer_address]
customer_id = "string"
age = { type = "int32",
        nullable = false }
)toml",
                                               "customer_address");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  ASSERT_EQ((*schema)->num_fields(), 2u);
  EXPECT_EQ((*schema)->field(0), arrow::Field("customer_id", arrow::DataType::Utf8()));
  EXPECT_EQ((*schema)->field(1), arrow::Field("age", arrow::DataType::Int32(), false));
}

TEST(SchemaConfigTest, FieldTableWithNullableAndMetadata) {
  Result<arrow::SchemaPtr> schema = LoadSchema(R"toml(
[schema.events]
at = { type = "timestamp(us, UTC)", nullable = true, metadata = { unit = "us", source = "gps" } }
amount = { type = "decimal(12, 2)", nullable = false }
raw = "bytes"
)toml",
                                               "events");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const arrow::Schema& s = **schema;
  EXPECT_EQ(s.field(0),
            arrow::Field("at", arrow::DataType::Timestamp(arrow::TimeUnit::kMicro, "UTC"), true,
                         {{"unit", "us"}, {"source", "gps"}}));
  EXPECT_EQ(s.field(1), arrow::Field("amount", arrow::DataType::Decimal128(12, 2), false));
  EXPECT_EQ(s.field(2), arrow::Field("raw", arrow::DataType::Binary()));
}

TEST(SchemaConfigTest, EveryTagParses) {
  Result<arrow::SchemaPtr> schema = LoadSchema(R"toml(
[schema.all]
a = "string"
b = "large_string"
c = "bytes"
d = "large_bytes"
e = "bool"
f = "int8"
g = "uint64"
h = "float16"
i = "date32"
j = "date64"
k = "decimal"
l = "timestamp"
m = "time32(ms)"
n = "time64(ns)"
o = "duration(s)"
p = "fixed_size_binary(16)"
q = "null"
r = "decimal128(5,1)"
)toml",
                                               "all");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ((*schema)->field(10).type, arrow::DataType::Decimal128(38, 10));
  EXPECT_EQ((*schema)->field(11).type, arrow::DataType::Timestamp(arrow::TimeUnit::kMilli));
  EXPECT_EQ((*schema)->field(15).type, arrow::DataType::FixedSizeBinary(16));
}

TEST(SchemaConfigTest, BadTagsAreAllReportedWithLines) {
  const std::string error = ErrorOf(R"toml(
[schema.amount]
id = "string"
x = "int33"
[schema.other]
y = { type = "decimal(40,2)" }
z = "int8"
)toml");
  const std::string valid =
      "valid tags: string, large_string, bytes, large_bytes, bool, int8, int16, int32, int64, "
      "uint8, uint16, uint32, uint64, float16, float32, float64, date32, date64, decimal, "
      "decimal(P,S), timestamp, timestamp(UNIT[,TZ]), time32(s|ms), time64(us|ns), "
      "duration(UNIT), fixed_size_binary(N), null";
  EXPECT_EQ(error,
            "line 4: schema 'amount', field 'x': unknown type tag 'int33' (did you mean int32?); " +
                valid + "\n" +
                "line 6: schema 'other', field 'y': unknown type tag 'decimal(40,2)' (decimal128 "
                "precision must be 1..38, got 40); " +
                valid);
}

TEST(SchemaConfigTest, FieldTableProblems) {
  EXPECT_EQ(ErrorOf("[schema.s]\na = { nullable = false }\n"),
            "line 2: schema 's', field 'a': field table has no 'type'");
  EXPECT_EQ(ErrorOf("[schema.s]\na = { type = 5 }\n"),
            "line 2: schema 's', field 'a': 'type' must be a type tag string");
  EXPECT_EQ(ErrorOf("[schema.s]\na = { type = \"int8\", nullable = \"no\", size = 1 }\n"),
            "line 2: schema 's', field 'a': 'nullable' must be true or false\n"
            "line 2: schema 's', field 'a': unknown key 'size' (a field table takes type, "
            "nullable, metadata)");
  EXPECT_EQ(ErrorOf("[schema.s]\na = { type = \"int8\", metadata = { k = 1 } }\n"),
            "line 2: schema 's', field 'a': metadata value 'k' must be a string");
  EXPECT_EQ(ErrorOf("[schema.s]\na = 7\n"),
            "line 2: schema 's', field 'a': expected a type tag string or a table { type = "
            "\"...\", nullable = ..., metadata = { ... } }");
  EXPECT_EQ(ErrorOf("schema = 1\n"), "line 1: schema: must be a table of [schema.<name>] blocks");
  EXPECT_EQ(ErrorOf("[schema]\ns = \"int8\"\n"),
            "line 2: schema 's': must be a table of fields ([schema.s])");
  EXPECT_EQ(ErrorOf("[schema.s]\n"), "line 1: schema 's': has no fields");
}

TEST(SchemaConfigTest, EmptyFieldNamesAndControlCharactersAreRefused) {
  EXPECT_EQ(ErrorOf(R"toml([schema.s]
"" = "int32"
"a\u0000b" = "string"
"tab\there" = { type = "int8" }
"del\u007F" = "bool"
ok = "int64"
)toml"),
            "line 2: schema 's': a field name must not be empty\n"
            "line 3: schema 's': field name \"a\\u0000b\" holds the control character U+0000 "
            "(field names must not hold U+0000 to U+001F or U+007F)\n"
            "line 4: schema 's': field name \"tab\\there\" holds the control character U+0009 "
            "(field names must not hold U+0000 to U+001F or U+007F)\n"
            "line 5: schema 's': field name \"del\\u007f\" holds the control character U+007F "
            "(field names must not hold U+0000 to U+001F or U+007F)");
  // Other characters, blanks and non-ASCII UTF-8 included, are allowed.
  Result<std::vector<NamedSchema>> schemas = ParseSchemas(R"toml([schema.s]
"first name" = "string"
"caf\u00e9" = "int32"
)toml");
  ASSERT_TRUE(schemas.ok()) << schemas.status().ToString();
  EXPECT_EQ(FieldNames(*(*schemas)[0].schema), (std::vector<std::string>{"first name", "café"}));
}

TEST(SchemaConfigTest, TomlSyntaxErrorsGiveLineAndColumn) {
  const std::string error = ErrorOf("[schema.s]\na = \"int8\"\na = \"int16\"\n");
  EXPECT_EQ(error,
            "TOML syntax error at line 3, column 5: Error while parsing key-value pair: cannot "
            "redefine existing string 'a'");
  const std::string unclosed = ErrorOf("[schema.s]\na = \"int8\n");
  EXPECT_EQ(unclosed.substr(0, 29), "TOML syntax error at line 2, ") << unclosed;
}

std::string DottedPath(int segments) {
  std::string path = "a";
  for (int i = 1; i < segments; ++i) path += ".a";
  return path;
}

TEST(SchemaConfigTest, DeepKeysAreRejectedBeforeTheyReachTheTomlParser) {
  // Both shapes overflowed the stack inside toml++.
  const std::string header = "[" + DottedPath(150'000) + ".b]\nv = \"int8\"\n";
  EXPECT_EQ(ErrorOf(header),
            "line 1: table header nested more than 64 levels deep (counting the segments of the "
            "table header, of enclosing inline-table keys and of the dotted key)");
  const std::string dotted = "[schema.x]\n" + DottedPath(150'000) + ".b = \"int8\"\n";
  Result<std::vector<NamedSchema>> schemas = ParseSchemas(dotted);
  ASSERT_FALSE(schemas.ok());
  EXPECT_EQ(schemas.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(schemas.status().message(),
            "line 2: key nested more than 64 levels deep (counting the segments of the table "
            "header, of enclosing inline-table keys and of the dotted key)");
}

TEST(SchemaConfigTest, ConfigurationOverOneMebibyteIsResourceExhausted) {
  std::string toml = "[schema.s]\nv = { type = \"int8\", metadata = { k = \"";
  toml += std::string(kMaxConfigBytes, 'x') + "\" } }\n";
  Result<arrow::SchemaPtr> schema = LoadSchema(toml, "s");
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(schema.status().message(), "configuration is " + std::to_string(toml.size()) +
                                           " bytes, more than the limit of 1048576 (1 MiB)");
}

std::string WideSchema(size_t fields) {
  std::string toml = "[schema.w]\n";
  for (size_t i = 0; i < fields; ++i) toml += "f" + std::to_string(i) + " = \"null\"\n";
  return toml;
}

TEST(SchemaConfigTest, MoreFieldsThanTheIpcReaderAcceptsIsAnError) {
  EXPECT_EQ(kMaxSchemaFields, static_cast<size_t>(arrow::ipc::IpcLimits{}.max_fields));
  EXPECT_EQ(ErrorOf(WideSchema(kMaxSchemaFields + 1)),
            "line 1: schema 'w': has 10001 fields, more than the limit of 10000 (that of the "
            "Arrow IPC reader)");
  Result<arrow::SchemaPtr> widest = LoadSchema(WideSchema(kMaxSchemaFields), "w");
  ASSERT_TRUE(widest.ok()) << widest.status().ToString();
  EXPECT_EQ((*widest)->num_fields(), kMaxSchemaFields);
}

TEST(SchemaConfigTest, MissingSchemaListsAvailableNames) {
  Result<arrow::SchemaPtr> missing = LoadSchema(kExample, "amounts");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "schema 'amounts' not found (declared: amount)");
  Result<arrow::SchemaPtr> none = LoadSchema("[storage.m]\ntype = \"memory\"\n", "x");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "schema 'x' not found (no schemas are declared)");
}

}  // namespace
}  // namespace higgins::config
