#include "config/configuration.h"

#include <gtest/gtest.h>

#include "config/readme_examples.h"

namespace higgins::config {
namespace {

using testing::kJoinExample;
using testing::kMapExample;
using testing::kQuickStart;
using testing::kWindowExample;

Configuration Parse(std::string_view toml) {
  Result<Configuration> config = ParseConfiguration(toml);
  EXPECT_TRUE(config.ok()) << config.status().ToString();
  return config.ok() ? *config : Configuration{};
}

std::string ErrorOf(std::string_view toml) {
  Result<Configuration> config = ParseConfiguration(toml);
  return config.ok() ? "OK" : config.status().ToString();
}

/// A source stream block and the schema it uses, followed by `rest`.
std::string WithAmount(std::string_view rest) {
  return std::string(kQuickStart) + std::string(rest);
}

TEST(ConfigurationTest, QuickStartParses) {
  Configuration config = Parse(kQuickStart);
  ASSERT_EQ(config.storages.size(), 1u);
  EXPECT_EQ(config.storages[0], (StorageDecl{"memory", MemoryStorageSettings{}}));
  EXPECT_EQ(config.storages[0].kind(), StorageKind::kMemory);
  EXPECT_FALSE(config.storages[0].durable());
  EXPECT_FALSE(config.storages[0].syncs());
  ASSERT_EQ(config.schemas.size(), 1u);
  EXPECT_EQ(config.schemas[0].name, "amount");
  ASSERT_EQ(config.schemas[0].schema->num_fields(), 2u);
  EXPECT_EQ(config.schemas[0].schema->field(1), arrow::Field("data", arrow::DataType::Int32()));
  ASSERT_EQ(config.streams.size(), 1u);
  const StreamDecl& amount = config.streams[0];
  EXPECT_EQ(amount.name, "amount");
  EXPECT_EQ(amount.kind, StreamKind::kSource);
  EXPECT_EQ(amount.schema, "amount");
  EXPECT_EQ(amount.partition_key, "id");
  EXPECT_EQ(amount.storage, "");  // resolved by the topography
  EXPECT_EQ(amount.buckets, 0u);  // likewise
}

TEST(ConfigurationTest, ReadmeMapExampleParses) {
  Configuration config = Parse(kMapExample);
  ASSERT_EQ(config.streams.size(), 2u);
  const StreamDecl& result = config.streams[1];
  EXPECT_EQ(result.name, "result");
  EXPECT_EQ(result.kind, StreamKind::kMap);
  EXPECT_EQ(result.base, "amount");
  EXPECT_EQ(result.fn, "double");
}

TEST(ConfigurationTest, ReadmeJoinExampleParsesAsWrittenWithMultiLineMapAndTrailingComma) {
  Configuration config = Parse(kJoinExample);
  ASSERT_EQ(config.streams.size(), 3u);
  const StreamDecl& joined = config.streams[2];
  EXPECT_EQ(joined.name, "customer_address");
  EXPECT_EQ(joined.kind, StreamKind::kJoin);
  EXPECT_EQ(joined.base, "customer");
  EXPECT_EQ(joined.join, (std::vector<std::string>{"address"}));
  // File order, not key order; each value split into participant and field.
  EXPECT_EQ(joined.map, (std::vector<JoinField>{{"customer_id", "customer", "id"},
                                                {"customer_first_name", "customer", "first_name"},
                                                {"age", "customer", "age"},
                                                {"address_line_1", "address", "address_line_1"},
                                                {"city", "address", "city"}}));
}

TEST(ConfigurationTest, ReadmeWindowExampleParses) {
  Configuration config = Parse(kWindowExample);
  ASSERT_EQ(config.streams.size(), 2u);
  EXPECT_EQ(config.streams[1].kind, StreamKind::kWindow);
  EXPECT_EQ(config.streams[1].window, (WindowSpec{WindowSpec::Type::kCount, 5, 0}));
}

TEST(ConfigurationTest, BlocksKeepFileOrder) {
  Configuration config = Parse(R"toml(
[storage.zz]
type = "memory"
[storage.aa]
type = "memory"
[schema.s]
b = "int32"
a = "string"
[streams.zeta]
schema = "s"
partition_key = "a"
[streams.alpha]
schema = "s"
partition_key = "a"
)toml");
  ASSERT_EQ(config.storages.size(), 2u);
  EXPECT_EQ(config.storages[0].name, "zz");
  ASSERT_EQ(config.streams.size(), 2u);
  EXPECT_EQ(config.streams[0].name, "zeta");
  EXPECT_EQ(config.streams[1].name, "alpha");
}

TEST(ConfigurationTest, StreamKeysAllRead) {
  Configuration config = Parse(WithAmount(R"toml(
[streams.by_four]
schema = "amount"
partition_key = "id"
storage = "memory"
buckets = 4
)toml"));
  ASSERT_EQ(config.streams.size(), 2u);
  EXPECT_EQ(config.streams[1].storage, "memory");
  EXPECT_EQ(config.streams[1].buckets, 4u);
}

TEST(ConfigurationTest, FileAndS3StorageOptionsKeptAsText) {
  Configuration config = Parse(R"toml(
[storage.disk]
type = "file"
segment_bytes = 1048576
fsync = false
[storage.s3]
type = "s3"
aws_access_key_id = "AKIA"
aws_secret_access_key = "secret"
aws_region = "eu-west-1"
aws_endpoint = "http://localhost:4568"
bucket = "higgins"
prefix = "data/"
path_style = true
)toml");
  ASSERT_EQ(config.storages.size(), 2u);
  FileStorageSettings file;
  file.segment_bytes = 1048576;
  file.fsync = false;
  EXPECT_EQ(config.storages[0], (StorageDecl{"disk", file}));
  EXPECT_TRUE(config.storages[0].durable());
  EXPECT_FALSE(config.storages[0].syncs());
  S3StorageSettings s3;
  s3.aws_access_key_id = "AKIA";
  s3.aws_secret_access_key = "secret";
  s3.aws_region = "eu-west-1";
  s3.aws_endpoint = "http://localhost:4568";
  s3.bucket = "higgins";
  s3.prefix = "data/";
  s3.path_style = true;
  EXPECT_EQ(config.storages[1], (StorageDecl{"s3", s3}));
  EXPECT_TRUE(config.storages[1].syncs());
}

TEST(ConfigurationTest, EveryS3OptionIsTyped) {
  Configuration config = Parse(R"toml(
[storage.o]
type = "s3"
bucket = "b"
segment_bytes = 65536
segment_max_age_ms = 2500
local_limit_bytes = 1000000
read_cache_bytes = 0
multipart_threshold_bytes = 5242880
ack_after_upload = true
)toml");
  ASSERT_EQ(config.storages.size(), 1u);
  const S3StorageSettings* s3 = config.storages[0].s3();
  ASSERT_NE(s3, nullptr);
  EXPECT_EQ(s3->segment_bytes, 65536u);
  EXPECT_EQ(s3->segment_max_age, std::chrono::milliseconds(2500));
  EXPECT_EQ(s3->local_limit_bytes, 1000000u);
  EXPECT_EQ(s3->read_cache_bytes, 0u);
  EXPECT_EQ(s3->multipart_threshold_bytes, 5242880u);
  EXPECT_EQ(s3->ack_after_upload, true);
  EXPECT_EQ(s3->aws_region, std::nullopt);
  EXPECT_EQ(s3->path_style, std::nullopt);
}

TEST(ConfigurationTest, StorageProblems) {
  EXPECT_EQ(ErrorOf(R"toml(
[storage.a]
type = "disk"
[storage.b]
kind = "memory"
[storage.c]
type = "memory"
fsync = true
[storage.d]
type = "file"
segment_bytes = 4095
fsync = "yes"
compression = "zstd"
[storage.e]
type = "s3"
path_style = "true"
aws_region = 1
)toml"),
            "InvalidArgument: line 3: storage 'a': 'type' must be \"memory\", \"file\" or \"s3\" "
            "(got 'disk')\n"
            "line 4: storage 'b': missing 'type' (\"memory\", \"file\" or \"s3\")\n"
            "line 8: storage 'c': unknown key 'fsync' (a memory storage takes type)\n"
            "line 11: storage 'd': 'segment_bytes' must be an integer from 4096 to 4294967296 "
            "(got 4095)\n"
            "line 12: storage 'd': 'fsync' must be true or false\n"
            "line 13: storage 'd': unknown key 'compression' (a file storage takes type, "
            "segment_bytes, fsync)\n"
            "line 16: storage 'e': 'path_style' must be true or false\n"
            "line 17: storage 'e': 'aws_region' must be a string");
}

TEST(ConfigurationTest, S3OptionsBelowTheirMinimumsAreRefused) {
  EXPECT_EQ(ErrorOf(R"toml(
[storage.o]
type = "s3"
bucket = "b"
segment_bytes = 100
segment_max_age_ms = 0
local_limit_bytes = -1
read_cache_bytes = -5
multipart_threshold_bytes = 1024
ack_after_upload = "yes"
)toml"),
            "InvalidArgument: line 5: storage 'o': 'segment_bytes' must be an integer from 4096 "
            "to 4294967296 (got 100)\n"
            "line 6: storage 'o': 'segment_max_age_ms' must be an integer from 1 to 86400000 "
            "(got 0)\n"
            "line 7: storage 'o': 'local_limit_bytes' must be an integer of at least 1 (got -1)\n"
            "line 8: storage 'o': 'read_cache_bytes' must be an integer of at least 0 (got -5)\n"
            "line 9: storage 'o': 'multipart_threshold_bytes' must be an integer from 5242880 "
            "to 5368709120 (got 1024)\n"
            "line 10: storage 'o': 'ack_after_upload' must be true or false");
}

TEST(ConfigurationTest, StorageOptionsAboveTheirMaximumsAreRefused) {
  // The broker used to find these only when it opened the storage; now the parser does.
  EXPECT_EQ(ErrorOf(R"toml(
[storage.o]
type = "s3"
segment_bytes = 4294967297
segment_max_age_ms = 86400001
multipart_threshold_bytes = 5368709121
[storage.f]
type = "file"
segment_bytes = 4294967297
)toml"),
            "InvalidArgument: line 4: storage 'o': 'segment_bytes' must be an integer from 4096 "
            "to 4294967296 (got 4294967297)\n"
            "line 5: storage 'o': 'segment_max_age_ms' must be an integer from 1 to 86400000 "
            "(got 86400001)\n"
            "line 6: storage 'o': 'multipart_threshold_bytes' must be an integer from 5242880 "
            "to 5368709120 (got 5368709121)\n"
            "line 9: storage 'f': 'segment_bytes' must be an integer from 4096 to 4294967296 "
            "(got 4294967297)");
}

TEST(ConfigurationTest, JoinMapValuesResolveToTheLongestParticipant) {
  Configuration config = Parse(R"toml(
[streams.j]
type = "join"
base = "a"
join = ["a.b", "c"]
schema = "s"
partition_key = "id"
map = { id = "a.id", x = "a.b.x", y = "c.d.e" }
)toml");
  ASSERT_EQ(config.streams.size(), 1u);
  EXPECT_EQ(config.streams[0].map, (std::vector<JoinField>{{"id", "a", "id"},
                                                           {"x", "a.b", "x"},
                                                           {"y", "c", "d.e"}}));
  EXPECT_EQ(config.streams[0].map[1].source(), "a.b.x");
}

TEST(ConfigurationTest, JoinMapValueNamingNoParticipantIsRefused) {
  EXPECT_EQ(ErrorOf(R"toml(
[streams.j]
type = "join"
base = "customer"
join = ["address"]
schema = "s"
partition_key = "id"
map = { id = "customer.id",
        zip = "amount.zip" }
)toml"),
            "InvalidArgument: line 9: streams 'j': map 'zip' = 'amount.zip': 'amount' is not a "
            "participant (the base 'customer' or a join stream: 'address')");
}

TEST(ConfigurationTest, UnknownTypeTagNamesFieldAndListsTags) {
  const std::string tag_error(arrow::ParseTypeTag("int33").status().message());
  EXPECT_EQ(ErrorOf(R"toml([schema.amount]
id = "string"
data = "int33"
)toml"),
            "InvalidArgument: line 3: schema 'amount', field 'data': " + tag_error);
}

TEST(ConfigurationTest, TopographyTableOfSerializedFormIsRejected) {
  EXPECT_EQ(ErrorOf(std::string(kQuickStart) + "[topography]\nnext_stream_id = 2\n"),
            "InvalidArgument: line 9: table 'topography': unknown top-level table (a "
            "configuration holds only [storage.<name>], [schema.<name>] and [streams.<name>] "
            "blocks)");
  EXPECT_EQ(ErrorOf("version = 2\n"),
            "InvalidArgument: line 1: key 'version': unknown top-level key (a configuration "
            "holds only [storage.<name>], [schema.<name>] and [streams.<name>] blocks)");
}

TEST(ConfigurationTest, UnknownStreamKey) {
  EXPECT_EQ(ErrorOf(R"toml([schema.amount]
id = "string"
data = "int32"
[streams.amount]
schema = "amount"
partition_key = "id"
fn2 = "double"
)toml"),
            "InvalidArgument: line 7: streams 'amount': unknown key 'fn2'");
}

TEST(ConfigurationTest, MissingPartitionKeyAndSchema) {
  EXPECT_EQ(ErrorOf("[streams.amount]\nstorage = \"memory\"\n"),
            "InvalidArgument: line 1: streams 'amount': missing 'schema'\n"
            "line 1: streams 'amount': missing 'partition_key'");
}

TEST(ConfigurationTest, KeyValuesOfTheWrongType) {
  EXPECT_EQ(ErrorOf(R"toml([streams.s]
schema = 1
partition_key = ""
buckets = 0
[streams.t]
schema = "s"
partition_key = "id"
buckets = 1025
)toml"),
            "InvalidArgument: line 2: streams 's': 'schema' must be a string\n"
            "line 3: streams 's': 'partition_key' must not be empty\n"
            "line 4: streams 's': 'buckets' must be an integer from 1 to 1024 (got 0)\n"
            "line 8: streams 't': 'buckets' must be an integer from 1 to 1024 (got 1025)");
}

TEST(ConfigurationTest, UnknownStreamType) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.f]
type = "filter"
base = "amount"
schema = "amount"
partition_key = "id"
)toml")),
            "InvalidArgument: line 10: streams 'f': 'type' must be \"map\", \"reduce\", "
            "\"join\" or \"window\" (got 'filter'); a source stream has no 'type'");
}

TEST(ConfigurationTest, DerivedStreamsNeedTheirKeys) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.m]
type = "map"
schema = "amount"
partition_key = "id"
[streams.r]
type = "reduce"
base = "amount"
schema = "amount"
partition_key = "id"
[streams.j]
type = "join"
base = "amount"
schema = "amount"
partition_key = "id"
[streams.w]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
)toml")),
            "InvalidArgument: line 9: streams 'm': a map stream needs 'base'\n"
            "line 9: streams 'm': a map stream needs 'fn'\n"
            "line 13: streams 'r': a reduce stream needs 'fn'\n"
            "line 18: streams 'j': a join stream needs 'join'\n"
            "line 18: streams 'j': a join stream needs 'map'\n"
            "line 23: streams 'w': a window stream needs 'window'");
}

TEST(ConfigurationTest, KeysOfOtherStreamKindsAreRejected) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.s]
schema = "amount"
partition_key = "id"
fn = "double"
base = "amount"
[streams.m]
type = "map"
base = "amount"
fn = "double"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = 5 }
join = ["amount"]
)toml")),
            "InvalidArgument: line 12: streams 's': 'fn' does not apply to a source stream (it "
            "is for map and reduce streams)\n"
            "line 13: streams 's': 'base' does not apply to a source stream (it is for derived "
            "streams: map, reduce, join and window)\n"
            "line 20: streams 'm': 'window' does not apply to a map stream (it is for window "
            "streams)\n"
            "line 21: streams 'm': 'join' does not apply to a map stream (it is for join "
            "streams)");
}

TEST(ConfigurationTest, JoinAndMapShapes) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.j]
type = "join"
base = "amount"
schema = "amount"
partition_key = "id"
join = ["a", "a", 3]
map = { id = "amount", data = 4, x = "amount.data" }
[streams.k]
type = "join"
base = "amount"
schema = "amount"
partition_key = "id"
join = []
map = {}
)toml")),
            "InvalidArgument: line 14: streams 'j': 'join' names 'a' twice\n"
            "line 14: streams 'j': 'join' must be an array of stream names\n"
            "line 15: streams 'j': map 'id' = 'amount' is not of the form \"stream.field\"\n"
            "line 15: streams 'j': map 'data' must be a string \"stream.field\"\n"
            "line 21: streams 'k': 'join' must name at least one stream\n"
            "line 22: streams 'k': 'map' must map at least one field");
}

TEST(ConfigurationTest, CountWindowIntervalIsAnIntegerOrAStringOfDigits) {
  for (std::string_view window :
       {"{ type = \"count\", interval = \"5\" }", "{ type = \"count\", interval = 5 }"}) {
    Configuration config = Parse(WithAmount(R"toml([streams.w]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = )toml" + std::string(window) + "\n"));
    ASSERT_EQ(config.streams.size(), 2u) << window;
    EXPECT_EQ(config.streams[1].window, (WindowSpec{WindowSpec::Type::kCount, 5, 0}));
  }
}

WindowSpec WindowOf(std::string_view window) {
  Configuration config = Parse(WithAmount(R"toml([streams.w]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = )toml" + std::string(window) + "\n"));
  return config.streams.size() == 2 && config.streams[1].window ? *config.streams[1].window
                                                                : WindowSpec{};
}

TEST(ConfigurationTest, TimeWindowDurationsInMilliseconds) {
  using Type = WindowSpec::Type;
  EXPECT_EQ(WindowOf("{ type = \"time\", interval = \"500ms\" }"),
            (WindowSpec{Type::kTime, 500, 0}));
  EXPECT_EQ(WindowOf("{ type = \"time\", interval = \"10s\", slide = \"5s\" }"),
            (WindowSpec{Type::kTime, 10'000, 5'000}));
  EXPECT_EQ(WindowOf("{ type = \"time\", interval = \"5m\" }"),
            (WindowSpec{Type::kTime, 300'000, 0}));
  EXPECT_EQ(WindowOf("{ type = \"time\", interval = \"1h\", slide = \"15m\" }"),
            (WindowSpec{Type::kTime, 3'600'000, 900'000}));
}

TEST(ConfigurationTest, SlideEqualToIntervalIsTheTumblingWindow) {
  EXPECT_EQ(WindowOf("{ type = \"count\", interval = 5, slide = \"5\" }"),
            (WindowSpec{WindowSpec::Type::kCount, 5, 0}));
  EXPECT_EQ(WindowOf("{ type = \"count\", interval = 5, slide = 2 }"),
            (WindowSpec{WindowSpec::Type::kCount, 5, 2}));
}

TEST(ConfigurationTest, BadWindows) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.a]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = "5s" }
[streams.b]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "10", size = 3 }
[streams.c]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "session", interval = "10s" }
[streams.d]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = 0 }
[streams.e]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = 5, slide = 6 }
[streams.f]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { interval = 5 }
[streams.g]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = "5"
)toml")),
            "InvalidArgument: line 14: streams 'a': window 'interval' must be a positive "
            "number of records (at most 9223372036854775807), as an integer or a string of "
            "digits (got '5s')\n"
            "line 20: streams 'b': unknown key 'size' in 'window' (it takes type, interval, "
            "slide)\n"
            "line 20: streams 'b': window 'interval' must be a positive duration such as "
            "\"500ms\", \"10s\", \"5m\" or \"1h\" (got '10')\n"
            "line 26: streams 'c': window 'type' must be \"count\" or \"time\" (got "
            "'session')\n"
            "line 32: streams 'd': window 'interval' must be a positive number of records (at "
            "most 9223372036854775807), as an integer or a string of digits (got 0)\n"
            "line 38: streams 'e': window 'slide' must not exceed its 'interval'\n"
            "line 44: streams 'f': 'window' has no 'type' (\"count\" or \"time\")\n"
            "line 50: streams 'g': 'window' must be a table { type = \"count\" or \"time\", "
            "interval = ..., slide = ... }");
}

TEST(ConfigurationTest, ZeroNegativeAndOversizedWindowSizesAreRejected) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.a]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = -5 }
[streams.b]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = "0" }
[streams.c]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "0s" }
[streams.d]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "-5s" }
[streams.e]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = 5, slide = 0 }
[streams.f]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "10s", slide = "-1s" }
[streams.g]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = "9223372036854775808" }
)toml")),
            "InvalidArgument: line 14: streams 'a': window 'interval' must be a positive "
            "number of records (at most 9223372036854775807), as an integer or a string of "
            "digits (got -5)\n"
            "line 20: streams 'b': window 'interval' must be a positive number of records (at "
            "most 9223372036854775807), as an integer or a string of digits (got '0')\n"
            "line 26: streams 'c': window 'interval' must be a positive duration such as "
            "\"500ms\", \"10s\", \"5m\" or \"1h\" (got '0s')\n"
            "line 32: streams 'd': window 'interval' must be a positive duration such as "
            "\"500ms\", \"10s\", \"5m\" or \"1h\" (got '-5s')\n"
            "line 38: streams 'e': window 'slide' must be a positive number of records (at "
            "most 9223372036854775807), as an integer or a string of digits (got 0)\n"
            "line 44: streams 'f': window 'slide' must be a positive duration such as "
            "\"500ms\", \"10s\", \"5m\" or \"1h\" (got '-1s')\n"
            "line 50: streams 'g': window 'interval' must be a positive number of records (at "
            "most 9223372036854775807), as an integer or a string of digits (got "
            "'9223372036854775808')");
}

TEST(ConfigurationTest, TimeWindowsUpToTheLargestInt64OfMillisecondsAreAccepted) {
  using Type = WindowSpec::Type;
  const uint64_t max = 9223372036854775807u;
  EXPECT_EQ(WindowOf("{ type = \"time\", interval = \"9223372036854775807ms\" }"),
            (WindowSpec{Type::kTime, max, 0}));
  EXPECT_EQ(WindowOf("{ type = \"time\", interval = \"2562047788015h\" }"),
            (WindowSpec{Type::kTime, 2562047788015u * 3'600'000, 0}));
}

TEST(ConfigurationTest, TimeWindowsBeyondTheLargestInt64OfMillisecondsAreRefused) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.a]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "2562047788016h" }
[streams.b]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "9223372036854775808ms" }
[streams.c]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "1h", slide = "99999999999999999999999s" }
)toml")),
            "InvalidArgument: line 14: streams 'a': window 'interval' must be at most "
            "9223372036854775807ms (2^63 - 1 ms, about 292 million years) (got "
            "'2562047788016h')\n"
            "line 20: streams 'b': window 'interval' must be at most 9223372036854775807ms (2^63 "
            "- 1 ms, about 292 million years) (got '9223372036854775808ms')\n"
            "line 26: streams 'c': window 'slide' must be at most 9223372036854775807ms (2^63 - 1 "
            "ms, about 292 million years) (got '99999999999999999999999s')");
}

TEST(ConfigurationTest, PartitionKeysWithControlCharactersAreRefused) {
  EXPECT_EQ(ErrorOf(R"toml([storage.memory]
type = "memory"
[schema.s]
"" = "string"
"i\u0000d" = "string"
[streams.a]
schema = "s"
partition_key = ""
[streams.b]
schema = "s"
partition_key = "i\u0000d"
)toml"),
            "InvalidArgument: line 4: schema 's': a field name must not be empty\n"
            "line 5: schema 's': field name \"i\\u0000d\" holds the control character U+0000 "
            "(field names must not hold U+0000 to U+001F or U+007F)\n"
            "line 8: streams 'a': 'partition_key' must not be empty\n"
            "line 11: streams 'b': 'partition_key' must not hold control characters (U+0000 to "
            "U+001F, U+007F) (got \"i\\u0000d\")");
}

TEST(ConfigurationTest, WindowSizesAllowBlanksAroundTheirTokens) {
  using Type = WindowSpec::Type;
  for (std::string_view interval :
       {"\" 5s\"", "\"5s \"", "\"5 s\"", "\"\\t5\\ts\\t\"", "\" 5000 ms \""}) {
    EXPECT_EQ(WindowOf("{ type = \"time\", interval = " + std::string(interval) + " }"),
              (WindowSpec{Type::kTime, 5000, 0}))
        << interval;
  }
  EXPECT_EQ(WindowOf("{ type = \"count\", interval = \" 5 \", slide = \"\\t2\" }"),
            (WindowSpec{Type::kCount, 5, 2}));
}

TEST(ConfigurationTest, WindowSizesRefuseBlanksInsideTokensAndOtherWhiteSpace) {
  EXPECT_EQ(ErrorOf(WithAmount(R"toml([streams.a]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "1 0s" }
[streams.b]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "10m s" }
[streams.d]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = "1 0" }
[streams.e]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "count", interval = " " }
)toml")),
            "InvalidArgument: line 14: streams 'a': window 'interval' must be a positive "
            "duration such as \"500ms\", \"10s\", \"5m\" or \"1h\" (got '1 0s')\n"
            "line 20: streams 'b': window 'interval' must be a positive duration such as "
            "\"500ms\", \"10s\", \"5m\" or \"1h\" (got '10m s')\n"
            "line 26: streams 'd': window 'interval' must be a positive number of records (at "
            "most 9223372036854775807), as an integer or a string of digits (got '1 0')\n"
            "line 32: streams 'e': window 'interval' must be a positive number of records (at "
            "most 9223372036854775807), as an integer or a string of digits (got ' ')");
}

TEST(ConfigurationTest, InvalidNames) {
  EXPECT_EQ(ErrorOf(R"toml(
[storage."my storage"]
type = "memory"
[schema."a/b"]
x = "int32"
[streams."amount!"]
schema = "amount"
partition_key = "id"
)toml"),
            "InvalidArgument: line 2: storage 'my storage': invalid name (1 to 255 bytes of A-Z "
            "a-z 0-9 _ . -)\n"
            "line 4: schema 'a/b': invalid name (1 to 255 bytes of A-Z a-z 0-9 _ . -)\n"
            "line 6: streams 'amount!': invalid name (1 to 255 bytes of A-Z a-z 0-9 _ . -)");
}

TEST(ConfigurationTest, DottedNamesAreQuotedKeys) {
  Configuration config = Parse(R"toml(
[schema."v1.amount"]
id = "string"
[streams."v1.amount"]
schema = "v1.amount"
partition_key = "id"
)toml");
  ASSERT_EQ(config.streams.size(), 1u);
  EXPECT_EQ(config.streams[0].name, "v1.amount");
}

TEST(ConfigurationTest, EveryProblemReportedOnePerLineInFileOrder) {
  EXPECT_EQ(ErrorOf(R"toml([streams.amount]
schema = "amount"
partition_key = "id"
fn2 = "double"
[schema.amount]
id = "strin"
[storage.memory]
type = "memory"
size = 3
)toml"),
            "InvalidArgument: line 4: streams 'amount': unknown key 'fn2'\n"
            "line 6: schema 'amount', field 'id': " +
                std::string(arrow::ParseTypeTag("strin").status().message()) +
                "\n"
                "line 9: storage 'memory': unknown key 'size' (a memory storage takes type)");
}

TEST(ConfigurationTest, ErrorExampleOfTheDocs) {
  // docs/configuration.md, "Errors".
  EXPECT_EQ(ErrorOf(R"toml([storage.a]
type = "disk"

[schema.amount]
id = "strin"
data = "int32"

[streams.amount]
schema = "amount"
fn2 = "double"

[streams.total]
schema = "amount"
partition_key = "id"
fn = "sum"

[streams.w]
type = "window"
base = "amount"
schema = "amount"
partition_key = "id"
window = { type = "time", interval = "10" }

[topography]
next_stream_id = 1
)toml"),
            "InvalidArgument: line 2: storage 'a': 'type' must be \"memory\", \"file\" or \"s3\" "
            "(got 'disk')\n"
            "line 5: schema 'amount', field 'id': " +
                std::string(arrow::ParseTypeTag("strin").status().message()) +
                "\n"
                "line 8: streams 'amount': missing 'partition_key'\n"
                "line 10: streams 'amount': unknown key 'fn2'\n"
                "line 15: streams 'total': 'fn' does not apply to a source stream (it is for map "
                "and reduce streams)\n"
                "line 22: streams 'w': window 'interval' must be a positive duration such as "
                "\"500ms\", \"10s\", \"5m\" or \"1h\" (got '10')\n"
                "line 24: table 'topography': unknown top-level table (a configuration holds "
                "only [storage.<name>], [schema.<name>] and [streams.<name>] blocks)");
}

TEST(ConfigurationTest, SectionsThatAreNotTablesOfBlocks) {
  EXPECT_EQ(ErrorOf("storage = \"memory\"\nstreams = 3\n"),
            "InvalidArgument: line 1: storage: must be a table of [storage.<name>] blocks\n"
            "line 2: streams: must be a table of [streams.<name>] blocks");
  EXPECT_EQ(ErrorOf("[streams]\namount = 1\n"),
            "InvalidArgument: line 2: streams 'amount': must be a table ([streams.amount])");
}

TEST(ConfigurationTest, SyntaxErrorGivesLineAndColumn) {
  std::string error = ErrorOf("[streams.amount]\nschema = \n");
  EXPECT_EQ(error.rfind("InvalidArgument: TOML syntax error at line 2, column", 0), 0u) << error;
}

TEST(ConfigurationTest, EmptyConfigurationIsValid) {
  Configuration config = Parse("# nothing yet\n");
  EXPECT_TRUE(config.storages.empty());
  EXPECT_TRUE(config.schemas.empty());
  EXPECT_TRUE(config.streams.empty());
}

TEST(ConfigurationTest, SchemaDeclEqualityComparesSchemasNotPointers) {
  Configuration a = Parse(kQuickStart);
  Configuration b = Parse(kQuickStart);
  ASSERT_EQ(a.schemas.size(), 1u);
  ASSERT_EQ(b.schemas.size(), 1u);
  EXPECT_NE(a.schemas[0].schema.get(), b.schemas[0].schema.get());
  EXPECT_EQ(a.schemas[0], b.schemas[0]);
}

}  // namespace
}  // namespace higgins::config
