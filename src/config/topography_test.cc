#include "config/topography.h"

#include <gtest/gtest.h>

#include <set>

#include "config/readme_examples.h"

namespace higgins::config {
namespace {

using testing::kJoinExample;
using testing::kMapExample;
using testing::kQuickStart;
using testing::kReduceExample;
using testing::kWindowExample;

/// The modules uploaded so far, for module_exists.
class Modules {
 public:
  explicit Modules(std::set<std::string, std::less<>> names = {}) : names_(std::move(names)) {}
  ModuleCheck Exists() const {
    return [this](std::string_view name, StreamKind) {
      return names_.count(name) > 0 ? std::string()
                                    : "module '" + std::string(name) +
                                          "' has not been uploaded (upload it before the "
                                          "configuration that uses it)";
    };
  }

 private:
  std::set<std::string, std::less<>> names_;
};

const Modules kNoModules;
const Modules kAllModules({"double", "sum"});

Configuration Parse(std::string_view toml) {
  Result<Configuration> config = ParseConfiguration(toml);
  EXPECT_TRUE(config.ok()) << config.status().ToString();
  return config.ok() ? *config : Configuration{};
}

/// Merges the configuration `toml` into `topography`; "OK" or the error.
std::string MergeText(Topography* topography, std::string_view toml,
                      const Modules& modules = kAllModules) {
  Result<Configuration> config = ParseConfiguration(toml);
  if (!config.ok()) return "parse: " + config.status().ToString();
  Result<MergeOutcome> outcome = topography->Merge(*config, modules.Exists());
  return outcome.ok() ? "OK" : outcome.status().ToString();
}

/// The error of merging `toml` into a topography holding the quick start.
std::string ErrorAfterQuickStart(std::string_view toml, const Modules& modules = kAllModules) {
  Topography topography;
  EXPECT_EQ(MergeText(&topography, kQuickStart), "OK");
  return MergeText(&topography, toml, modules);
}

/// The declarations of a topography without its ids: what ToToml round-trips.
void ExpectSameDeclarations(const Topography& a, const Topography& b) {
  EXPECT_EQ(a.storages(), b.storages());
  EXPECT_EQ(a.schemas(), b.schemas());
  EXPECT_EQ(a.streams(), b.streams());
}

/// ParseConfiguration(ToToml()) merged into an empty topography gives the same declarations.
void ExpectRoundTrip(const Topography& topography) {
  const std::string toml = topography.ToToml();
  Topography again;
  ASSERT_EQ(MergeText(&again, toml), "OK") << toml;
  ExpectSameDeclarations(again, topography);
  EXPECT_EQ(again.ToToml(), toml);
}

TEST(TopographyTest, QuickStartGetsItsStorageBucketsAndId) {
  Topography topography;
  Result<MergeOutcome> outcome = topography.Merge(Parse(kQuickStart), kNoModules.Exists());
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  EXPECT_EQ(outcome->added_storages, (std::vector<std::string>{"memory"}));
  EXPECT_EQ(outcome->added_schemas, (std::vector<std::string>{"amount"}));
  EXPECT_EQ(outcome->added_streams, (std::vector<std::string>{"amount"}));
  const StreamDecl* amount = topography.FindStream("amount");
  ASSERT_NE(amount, nullptr);
  EXPECT_EQ(amount->storage, "memory");
  EXPECT_EQ(amount->buckets, kDefaultBuckets);
  EXPECT_EQ(topography.IdOf("amount"), StreamId(1));
  EXPECT_EQ(topography.IdOf("missing"), StreamId(0));
  ASSERT_NE(topography.FindSchema("amount"), nullptr);
  ASSERT_NE(topography.FindStorage("memory"), nullptr);
  EXPECT_EQ(topography.FindStorage("disk"), nullptr);
}

TEST(TopographyTest, IdenticalRedeclarationIsANoOp) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kMapExample), "OK");
  const Topography before = topography;
  Result<MergeOutcome> outcome = topography.Merge(Parse(kMapExample), kAllModules.Exists());
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  EXPECT_TRUE(outcome->added_storages.empty());
  EXPECT_TRUE(outcome->added_schemas.empty());
  EXPECT_TRUE(outcome->added_streams.empty());
  EXPECT_EQ(topography, before);
}

TEST(TopographyTest, RedeclarationWithoutStorageKeepsTheStorageAfterMoreAreDeclared) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, "[storage.disk]\ntype = \"file\"\n"), "OK");
  const Topography before = topography;
  EXPECT_EQ(MergeText(&topography, kQuickStart), "OK");
  EXPECT_EQ(topography, before);
  EXPECT_EQ(
      MergeText(&topography, "[streams.other]\nschema = \"amount\"\npartition_key = \"id\"\n"),
      "InvalidArgument: streams 'other': no 'storage' given and several storages are "
      "declared; name one of 'disk', 'memory'");
}

TEST(TopographyTest, RedeclarationWithDefaultsWrittenOutIsIdentical) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  const Topography before = topography;
  EXPECT_EQ(MergeText(&topography, R"toml([streams.amount]
schema = "amount"
partition_key = "id"
storage = "memory"
buckets = 1
)toml"),
            "OK");
  EXPECT_EQ(topography, before);
}

TEST(TopographyTest, ConflictingRedeclarationNamesWhatDiffers) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kMapExample), "OK");
  const Topography before = topography;
  EXPECT_EQ(MergeText(&topography, R"toml([storage.memory]
type = "file"
fsync = false
[schema.amount]
id = "string"
data = { type = "int64", nullable = false }
[streams.amount]
schema = "amount"
partition_key = "id"
buckets = 4
[streams.result]
base = "amount"
type = "reduce"
partition_key = "id"
schema = "amount"
fn = "sum"
)toml"),
            "AlreadyExists: storage 'memory' conflicts with the declaration already in the "
            "topography: type 'file' instead of 'memory'; 'fsync' false instead of absent\n"
            "schema 'amount' conflicts with the declaration already in the topography: field "
            "'data' type int64 instead of int32; field 'data' nullable false instead of true\n"
            "streams 'amount' conflicts with the declaration already in the topography: buckets "
            "4 instead of 1\n"
            "streams 'result' conflicts with the declaration already in the topography: type "
            "'reduce' instead of 'map'; fn 'sum' instead of 'double'");
  EXPECT_EQ(topography, before);
}

TEST(TopographyTest, ConflictingSchemaFieldsAndWindows) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, kWindowExample), "OK");
  EXPECT_EQ(MergeText(&topography, R"toml([schema.amount]
id = "string"
[streams.value_windowed]
base = "value"
type = "window"
partition_key = "id"
schema = "value"
window = { type = "time", interval = "10s" }
)toml"),
            "AlreadyExists: schema 'amount' conflicts with the declaration already in the "
            "topography: fields (id) instead of (id, data)\n"
            "streams 'value_windowed' conflicts with the declaration already in the "
            "topography: window { type = \"time\", interval = \"10s\" } instead of { type = "
            "\"count\", interval = 5 }");
}

TEST(TopographyTest, ConflictBesideAnotherProblemIsInvalidArgument) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  EXPECT_EQ(MergeText(&topography, R"toml([schema.amount]
id = "string"
[streams.other]
schema = "nope"
partition_key = "id"
)toml"),
            "InvalidArgument: schema 'amount' conflicts with the declaration already in the "
            "topography: fields (id) instead of (id, data)\n"
            "streams 'other': unknown schema 'nope'");
}

TEST(TopographyTest, UnknownSchema) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.other]
schema = "amounts"
partition_key = "id"
)toml"),
            "InvalidArgument: streams 'other': unknown schema 'amounts'");
}

TEST(TopographyTest, UnknownStorage) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.other]
schema = "amount"
partition_key = "id"
storage = "disk"
)toml"),
            "InvalidArgument: streams 'other': unknown storage 'disk'");
}

TEST(TopographyTest, AmbiguousStorageAsksToNameOne) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([storage.disk]
type = "file"
[streams.other]
schema = "amount"
partition_key = "id"
)toml"),
            "InvalidArgument: streams 'other': no 'storage' given and several storages are "
            "declared; name one of 'disk', 'memory'");
}

TEST(TopographyTest, NoStorageDeclared) {
  Topography topography;
  EXPECT_EQ(MergeText(&topography, R"toml([schema.amount]
id = "string"
[streams.amount]
schema = "amount"
partition_key = "id"
)toml"),
            "InvalidArgument: streams 'amount': no 'storage' given and no storage is declared "
            "(add a [storage.<name>] block)");
}

TEST(TopographyTest, MissingPartitionKeyField) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.other]
schema = "amount"
partition_key = "key"
)toml"),
            "InvalidArgument: streams 'other': partition key 'key' is not a field of schema "
            "'amount'");
}

TEST(TopographyTest, PartitionKeyMustBeStringOrInteger) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([schema.reading]
sensor = "float64"
at = "timestamp"
[streams.readings]
schema = "reading"
partition_key = "sensor"
[streams.by_time]
schema = "reading"
partition_key = "at"
)toml"),
            "InvalidArgument: streams 'readings': partition key 'sensor' has type float64; it "
            "must be string, large_string or an integer type\n"
            "streams 'by_time': partition key 'at' has type timestamp(ms); it must be string, "
            "large_string or an integer type");
  for (std::string_view tag : {"large_string", "int8", "uint64", "int64"}) {
    Topography topography;
    EXPECT_EQ(
        MergeText(&topography, std::string(kQuickStart) + "[schema.k]\nid = \"" + std::string(tag) +
                                   "\"\n[streams.k]\nschema = \"k\"\npartition_key = "
                                   "\"id\"\n"),
        "OK")
        << tag;
  }
}

TEST(TopographyTest, UnknownBase) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.result]
base = "amounts"
type = "map"
partition_key = "id"
schema = "amount"
fn = "double"
)toml"),
            "InvalidArgument: streams 'result': unknown base stream 'amounts'");
}

TEST(TopographyTest, MissingModule) {
  EXPECT_EQ(ErrorAfterQuickStart(kReduceExample, Modules({"double"})),
            "InvalidArgument: streams 'result': module 'sum' has not been uploaded (upload it "
            "before the configuration that uses it)");
}

TEST(TopographyTest, ModulesAreCheckedOnlyForNewStreams) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kMapExample, Modules({"double"})), "OK");
  EXPECT_EQ(MergeText(&topography, kMapExample, kNoModules), "OK");
}

std::string JoinWith(std::string_view join, std::string_view map) {
  return std::string(kJoinExample.substr(0, kJoinExample.find("[streams.customer_address]"))) +
         "[streams.customer_address]\ntype = \"join\"\nschema = \"customer_address\"\n"
         "partition_key = \"customer_id\"\nbase = \"customer\"\njoin = " +
         std::string(join) + "\nmap = " + std::string(map) + "\n";
}

/// The product README's join map, with `field` (when not empty) taken from `source` instead.
std::string FullJoinMap(std::string_view field, std::string_view source = "") {
  const std::vector<std::pair<std::string_view, std::string_view>> map = {
      {"customer_id", "customer.id"},
      {"customer_first_name", "customer.first_name"},
      {"age", "customer.age"},
      {"address_line_1", "address.address_line_1"},
      {"city", "address.city"}};
  std::string out = "{ ";
  for (const auto& [out_field, from] : map) {
    if (out.size() > 2) out += ", ";
    out +=
        std::string(out_field) + " = \"" + std::string(out_field == field ? source : from) + "\"";
  }
  return out + " }";
}

TEST(TopographyTest, JoinMapMustCoverEveryFieldAndTakeTheKeyFromAKey) {
  EXPECT_EQ(
      ErrorAfterQuickStart(JoinWith(R"(["address"])", FullJoinMap("customer_id", "address.city"))),
      "InvalidArgument: streams 'customer_address': the join's partition key "
      "'customer_id' must be mapped from a participant's partition key (got "
      "'address.city')");
  EXPECT_EQ(ErrorAfterQuickStart(JoinWith(
                R"(["address"])", R"({ customer_id = "address.customer_id", age = "customer.age",
customer_first_name = "customer.first_name", city = "address.city" })")),
            "InvalidArgument: streams 'customer_address': field 'address_line_1' of schema "
            "'customer_address' is not in the join's map: map every output field to "
            "\"participant.field\"");
}

TEST(TopographyTest, JoinParticipantsShareTheKeyTypeAndOutputFieldsAreNullable) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([schema.numbered]
n = "int64"
label = "string"
[schema.out]
id = { type = "string", nullable = false }
label = { type = "string", nullable = false }
[streams.numbered]
schema = "numbered"
partition_key = "n"
[streams.j]
type = "join"
base = "amount"
join = ["numbered"]
schema = "out"
partition_key = "id"
map = { id = "amount.id", label = "numbered.label" }
)toml"),
            "InvalidArgument: streams 'j': field 'label' of schema 'out' must be nullable: it is "
            "null while its participant has no record for the key\n"
            "streams 'j': participant 'numbered' has partition key 'n' of type int64, not the "
            "join's string: records are matched by key value, so the types must be equal");
}

TEST(TopographyTest, UnknownJoinStream) {
  EXPECT_EQ(ErrorAfterQuickStart(JoinWith(R"(["address", "addresses"])", FullJoinMap(""))),
            "InvalidArgument: streams 'customer_address': unknown join stream 'addresses'");
}

TEST(TopographyTest, UnknownJoinField) {
  EXPECT_EQ(ErrorAfterQuickStart(JoinWith(R"(["address"])", FullJoinMap("city", "address.town"))),
            "InvalidArgument: streams 'customer_address': map 'city' = 'address.town': stream "
            "'address' (schema 'address') has no field 'town'");
}

TEST(TopographyTest, JoinMapNamesAParticipantAndAnOutputField) {
  // Naming a non-participant is the parser's error (ConfigurationTest); the rest are the
  // topography's.
  EXPECT_EQ(ErrorAfterQuickStart(JoinWith(
                R"(["address"])", R"({ customer_id = "address.city", zip = "address.city" })")),
            "InvalidArgument: streams 'customer_address': map 'zip': schema 'customer_address' "
            "has no field 'zip'\n"
            "streams 'customer_address': the join's partition key 'customer_id' must be mapped "
            "from a participant's partition key (got 'address.city')\n"
            "streams 'customer_address': field 'customer_first_name' of schema "
            "'customer_address' is not in the join's map: map every output field to "
            "\"participant.field\"\n"
            "streams 'customer_address': field 'age' of schema 'customer_address' is not in the "
            "join's map: map every output field to \"participant.field\"\n"
            "streams 'customer_address': field 'address_line_1' of schema 'customer_address' is "
            "not in the join's map: map every output field to \"participant.field\"\n"
            "streams 'customer_address': field 'city' of schema 'customer_address' is not in the "
            "join's map: map every output field to \"participant.field\"");
}

TEST(TopographyTest, HandBuiltJoinMapNamingNoParticipantIsRefused) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  Configuration config;
  StreamDecl join;
  join.name = "j";
  join.kind = StreamKind::kJoin;
  join.schema = "amount";
  join.partition_key = "id";
  join.base = "amount";
  join.join = {"amount2"};
  join.map = {{"id", "amount", "id"}, {"data", "elsewhere", "data"}};
  config.streams.push_back(join);
  Result<MergeOutcome> outcome = topography.Merge(config, kAllModules.Exists());
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find(
                "streams 'j': map 'data' = 'elsewhere.data': 'elsewhere' is not a participant "
                "(the base 'amount' or a join stream: 'amount2')"),
            std::string::npos)
      << outcome.status().message();
}

TEST(TopographyTest, TypeMismatchInJoinMap) {
  EXPECT_EQ(
      ErrorAfterQuickStart(JoinWith(R"(["address"])", FullJoinMap("age", "customer.first_name"))),
      "InvalidArgument: streams 'customer_address': map 'age' = 'customer.first_name': "
      "type string of 'customer.first_name' differs from type int32 of field 'age' in "
      "schema 'customer_address'");
}

TEST(TopographyTest, JoinParticipantsMayHaveDottedNames) {
  Topography topography;
  EXPECT_EQ(MergeText(&topography, std::string(kQuickStart) + R"toml(
[schema.addr]
customer_id = "string"
city = "string"
[streams."v1.addr"]
schema = "addr"
partition_key = "customer_id"
[streams.joined]
type = "join"
base = "amount"
join = ["v1.addr"]
schema = "addr"
partition_key = "customer_id"
map = { customer_id = "amount.id", city = "v1.addr.city" }
)toml"),
            "OK");
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, WindowStreamHasItsBasesSchema) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([schema.other]
id = "string"
[streams.w]
base = "amount"
type = "window"
partition_key = "id"
schema = "other"
window = { type = "count", interval = 5 }
)toml"),
            "InvalidArgument: streams 'w': a window stream has the schema of its base: 'amount' "
            "(of stream 'amount'), not 'other'");
}

TEST(TopographyTest, WindowStreamHasItsBasesPartitionKey) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.w]
base = "amount"
type = "window"
partition_key = "data"
schema = "amount"
window = { type = "count", interval = 5 }
)toml"),
            "InvalidArgument: streams 'w': a window stream has the partition key of its base: "
            "'id' (of stream 'amount'), not 'data'");
}

TEST(TopographyTest, AWindowFeedsNoOtherDerivedStream) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.w]
base = "amount"
type = "window"
partition_key = "id"
schema = "amount"
window = { type = "count", interval = 5 }
[streams.ww]
base = "w"
type = "window"
partition_key = "id"
schema = "amount"
window = { type = "count", interval = 2 }
[streams.j]
type = "join"
base = "amount"
join = ["w"]
schema = "amount"
partition_key = "id"
map = { id = "amount.id", data = "w.data" }
)toml"),
            "InvalidArgument: streams 'ww': base 'w' is a window stream; windows are views "
            "computed at query time and cannot feed another derived stream\n"
            "streams 'j': participant 'w' is a window stream; windows are views computed at "
            "query time and cannot feed a join");
}

TEST(TopographyTest, CycleThroughBaseAndJoinIsRejected) {
  EXPECT_EQ(ErrorAfterQuickStart(R"toml([streams.a]
type = "map"
base = "b"
fn = "double"
schema = "amount"
partition_key = "id"
[streams.b]
type = "join"
base = "amount"
join = ["a"]
schema = "amount"
partition_key = "id"
map = { id = "amount.id", data = "a.data" }
[streams.self]
type = "map"
base = "self"
fn = "double"
schema = "amount"
partition_key = "id"
)toml"),
            "InvalidArgument: cycle: a -> b -> a\ncycle: self -> self");
}

TEST(TopographyTest, EveryProblemListedAndNothingChanges) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  const Topography before = topography;
  EXPECT_EQ(MergeText(&topography, R"toml([schema.fine]
id = "string"
[streams.fine]
schema = "fine"
partition_key = "id"
[streams.x]
schema = "nope"
partition_key = "id"
storage = "nope"
[streams.y]
type = "map"
base = "nope"
fn = "nope"
schema = "amount"
partition_key = "data2"
)toml",
                      kNoModules),
            "InvalidArgument: streams 'x': unknown schema 'nope'\n"
            "streams 'x': unknown storage 'nope'\n"
            "streams 'y': partition key 'data2' is not a field of schema 'amount'\n"
            "streams 'y': unknown base stream 'nope'\n"
            "streams 'y': module 'nope' has not been uploaded (upload it before the "
            "configuration that uses it)");
  EXPECT_EQ(topography, before);
  EXPECT_EQ(topography.FindSchema("fine"), nullptr);
}

TEST(TopographyTest, DeleteWithDependentsNamesThem) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kMapExample), "OK");
  EXPECT_EQ(topography.Delete("amount").ToString(),
            "InvalidArgument: cannot delete streams 'amount': used by streams 'result'");
  EXPECT_EQ(topography.Delete("schema.amount").ToString(),
            "InvalidArgument: cannot delete schema 'amount': used by streams 'amount', 'result'");
  EXPECT_EQ(topography.Delete("storage.memory").ToString(),
            "InvalidArgument: cannot delete storage 'memory': used by streams 'amount', "
            "'result'");
  EXPECT_EQ(topography.Delete("streams.nope").ToString(),
            "NotFound: streams 'nope' is not in the topography");
  EXPECT_EQ(topography.Delete("schema.nope").ToString(),
            "NotFound: schema 'nope' is not in the topography");
  ASSERT_TRUE(topography.Delete("streams.result").ok());
  ASSERT_TRUE(topography.Delete("amount").ok());
  ASSERT_TRUE(topography.Delete("schema.amount").ok());
  ASSERT_TRUE(topography.Delete("storage.memory").ok());
  EXPECT_TRUE(topography.streams().empty());
  EXPECT_TRUE(topography.schemas().empty());
  EXPECT_TRUE(topography.storages().empty());
}

TEST(TopographyTest, JoinParticipantCannotBeDeleted) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, kJoinExample), "OK");
  EXPECT_EQ(topography.Delete("address").ToString(),
            "InvalidArgument: cannot delete streams 'address': used by streams "
            "'customer_address'");
}

TEST(TopographyTest, StreamDeclaredAgainAfterDeleteGetsANewId) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  EXPECT_EQ(topography.IdOf("amount"), StreamId(1));
  ASSERT_TRUE(topography.Delete("amount").ok());
  EXPECT_EQ(topography.IdOf("amount"), StreamId(0));
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  EXPECT_EQ(topography.IdOf("amount"), StreamId(2));
}

TEST(TopographyTest, ReadmeQuickStartRoundTrips) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  EXPECT_EQ(topography.ToToml(), R"toml([storage.memory]
type = "memory"

[schema.amount]
id = "string"
data = "int32"

[streams.amount]
schema = "amount"
partition_key = "id"
storage = "memory"
buckets = 1
)toml");
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, ReadmeMapExampleRoundTrips) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kMapExample), "OK");
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, ReadmeReduceExampleRoundTrips) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, kReduceExample), "OK");
  EXPECT_EQ(topography.FindStream("result")->kind, StreamKind::kReduce);
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, ReadmeJoinExampleRoundTrips) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, kJoinExample), "OK");
  const std::string toml = topography.ToToml();
  EXPECT_NE(toml.find("map = { customer_id = \"customer.id\", customer_first_name = "
                      "\"customer.first_name\", age = \"customer.age\", address_line_1 = "
                      "\"address.address_line_1\", city = \"address.city\" }\n"),
            std::string::npos)
      << toml;
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, ReadmeWindowExampleRoundTrips) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, kWindowExample), "OK");
  EXPECT_NE(topography.ToToml().find("window = { type = \"count\", interval = 5 }\n"),
            std::string::npos);
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, FieldTablesStoragesAndQuotedNamesRoundTrip) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, R"toml(
[storage.disk]
type = "file"
segment_bytes = 65536
fsync = false
[storage.s3]
type = "s3"
bucket = "higgins"
prefix = "a \"quoted\" prefix\\"
path_style = true
[schema."v1.event"]
id = { type = "int64", nullable = false }
"odd name" = { type = "timestamp(us, Europe/Paris)", metadata = { unit = "us", "x y" = "z" } }
price = "decimal"
small = "decimal(5, 2)"
tag = "fixed_size_binary(4)"
[streams."v1.event"]
schema = "v1.event"
partition_key = "id"
storage = "disk"
buckets = 16
[streams.slow]
type = "window"
base = "v1.event"
schema = "v1.event"
partition_key = "id"
storage = "s3"
window = { type = "time", interval = "1h", slide = "90s" }
[streams.quick]
type = "window"
base = "v1.event"
schema = "v1.event"
partition_key = "id"
storage = "s3"
window = { type = "time", interval = "1500ms" }
)toml"),
            "OK");
  const std::string toml = topography.ToToml();
  EXPECT_NE(toml.find("[schema.\"v1.event\"]\nid = { type = \"int64\", nullable = false }\n"
                      "\"odd name\" = { type = \"timestamp(us,Europe/Paris)\", metadata = { "
                      "unit = \"us\", \"x y\" = \"z\" } }\n"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("window = { type = \"time\", interval = \"1h\", slide = \"90s\" }"),
            std::string::npos);
  EXPECT_NE(toml.find("window = { type = \"time\", interval = \"1500ms\" }"), std::string::npos);
  EXPECT_NE(toml.find("segment_bytes = 65536\n"), std::string::npos);
  ExpectRoundTrip(topography);
}

TEST(TopographyTest, SerializeDeserializeRestoresIdsExactly) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  ASSERT_EQ(MergeText(&topography, kJoinExample), "OK");
  ASSERT_EQ(MergeText(&topography, kWindowExample), "OK");
  ASSERT_TRUE(topography.Delete("value_windowed").ok());
  const std::string text = topography.Serialize();
  EXPECT_NE(text.find("[topography]\nnext_stream_id = 7\n\n[topography.stream_ids]\naddress = "
                      "3\namount = 1\n"),
            std::string::npos)
      << text;
  Result<Topography> restored = Topography::Deserialize(text);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(*restored, topography);
  EXPECT_EQ(restored->IdOf("value"), StreamId(5));
  // The next stream declared gets a fresh id, not one of a deleted stream.
  ASSERT_EQ(MergeText(&*restored, kWindowExample), "OK");
  EXPECT_EQ(restored->IdOf("value_windowed"), StreamId(7));
}

TEST(TopographyTest, EmptyTopographySerializes) {
  Result<Topography> restored = Topography::Deserialize(Topography().Serialize());
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(*restored, Topography());
}

TEST(TopographyTest, SerializedFormIsNotAUserConfiguration) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  Result<Configuration> config = ParseConfiguration(topography.Serialize());
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("table 'topography': unknown top-level table"),
            std::string::npos);
}

TEST(TopographyTest, DeserializeRejectsMissingOrMalformedTopographyTable) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  const std::string toml = topography.ToToml();
  auto error = [](std::string_view text) {
    Result<Topography> restored = Topography::Deserialize(text);
    return restored.ok() ? "OK" : restored.status().ToString();
  };
  EXPECT_EQ(error(toml), "Corruption: serialized topography: no [topography] table");
  EXPECT_EQ(error(toml + "[topography]\nnext_stream_id = 0\n[topography.stream_ids]\n"),
            "Corruption: serialized topography: 'next_stream_id' must be a positive integer");
  EXPECT_EQ(error(toml + "[topography]\nnext_stream_id = 2\n"),
            "Corruption: serialized topography: no [topography.stream_ids] table");
  EXPECT_EQ(error(toml + "[topography]\nnext_stream_id = 2\n[topography.stream_ids]\n"),
            "Corruption: serialized topography: stream 'amount' has no id");
  EXPECT_EQ(
      error(toml + "[topography]\nnext_stream_id = 2\n[topography.stream_ids]\namount = 2\n"),
      "Corruption: serialized topography: the id of stream 'amount' must be an integer from 1 "
      "to 1");
  EXPECT_EQ(error(toml + "[topography]\nnext_stream_id = 2\n[topography.stream_ids]\namount = 1\n"
                         "gone = 1\n"),
            "Corruption: serialized topography: id of stream 'gone', which is not declared");
  EXPECT_EQ(error(toml + "[topography]\nnext_stream_id = 2\nextra = 1\n"),
            "Corruption: serialized topography: unknown key 'extra' in [topography]");
  EXPECT_EQ(error("[topography\n").rfind("InvalidArgument: TOML syntax error at line 1", 0), 0u);
}

TEST(TopographyTest, DeserializeReadsTopographiesOverTheUploadSizeLimit) {
  // Many uploads of at most 1 MiB each add up to a serialized topography past 1 MiB.
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  Configuration config;
  for (int i = 0; i < 12'000; ++i) {
    StreamDecl stream;
    stream.name = "stream_with_a_long_name_" + std::to_string(i);
    stream.schema = "amount";
    stream.partition_key = "id";
    config.streams.push_back(std::move(stream));
  }
  ASSERT_TRUE(topography.Merge(config, kNoModules.Exists()).ok());
  const std::string text = topography.Serialize();
  ASSERT_GT(text.size(), size_t{1} << 20);
  Result<Topography> restored = Topography::Deserialize(text);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(*restored, topography);
}

TEST(TopographyTest, LongChainsOfDerivedStreamsAreChecked) {
  // Cycle detection is iterative: a chain of thousands of streams needs no deep recursion.
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  Configuration config;
  std::string base = "amount";
  for (int i = 0; i < 20'000; ++i) {
    StreamDecl stream;
    stream.name = "m" + std::to_string(i);
    stream.kind = StreamKind::kMap;
    stream.base = base;
    stream.fn = "double";
    stream.schema = "amount";
    stream.partition_key = "id";
    base = stream.name;
    config.streams.push_back(std::move(stream));
  }
  config.streams[0].base = base;  // closes the loop
  Result<MergeOutcome> outcome = topography.Merge(config, kAllModules.Exists());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message().rfind("cycle: m0 -> m19999 -> m19998 -> ", 0), 0u);
}

TEST(TopographyTest, HandBuiltDeclarationsAreCheckedToo) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  Configuration config;
  StreamDecl stream;
  stream.name = "odd";
  stream.schema = "amount";
  stream.partition_key = "id";
  stream.fn = "double";
  stream.buckets = 5000;
  config.streams.push_back(stream);
  config.schemas.push_back(SchemaDecl{"empty", arrow::MakeSchema({})});
  FileStorageSettings tiny;
  tiny.segment_bytes = 100;
  config.storages.push_back(StorageDecl{"disk", tiny});
  S3StorageSettings stale;
  stale.segment_max_age = std::chrono::hours(48);
  config.storages.push_back(StorageDecl{"mem", stale});
  Result<MergeOutcome> outcome = topography.Merge(config, kAllModules.Exists());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "storage 'disk': 'segment_bytes' must be an integer from 4096 to 4294967296 (got "
            "100)\n"
            "storage 'mem': 'segment_max_age_ms' must be an integer from 1 to 86400000 (got "
            "172800000)\n"
            "schema 'empty': has no fields\n"
            "streams 'odd': a source stream takes no base, fn, join, map or window\n"
            "streams 'odd': buckets must be from 1 to 1024 (got 5000)");
}

}  // namespace
}  // namespace higgins::config

namespace higgins::config {
namespace {

TEST(TopographyTest, HandBuiltWindowsLongerThanInt64AreRefused) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, kQuickStart), "OK");
  Configuration config;
  StreamDecl stream;
  stream.name = "w";
  stream.kind = StreamKind::kWindow;
  stream.base = "amount";
  stream.schema = "amount";
  stream.partition_key = "id";
  stream.window = WindowSpec{WindowSpec::Type::kTime, 18446744073709551615u, 0};
  config.streams.push_back(stream);
  Result<MergeOutcome> outcome = topography.Merge(config, kAllModules.Exists());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "streams 'w': a window's interval must be from 1 to 9223372036854775807 (got "
            "18446744073709551615)");
}

TEST(TopographyTest, HandBuiltSchemasWithEmptyOrControlFieldNamesAreRefused) {
  Topography topography;
  Configuration config;
  config.schemas.push_back(
      SchemaDecl{"empty", arrow::MakeSchema({arrow::Field("", arrow::DataType::Int32())})});
  config.schemas.push_back(SchemaDecl{
      "nul", arrow::MakeSchema({arrow::Field(std::string("a\0b", 3), arrow::DataType::Int32())})});
  Result<MergeOutcome> outcome = topography.Merge(config, kAllModules.Exists());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "schema 'empty': a field name must not be empty\n"
            "schema 'nul': field name \"a\\u0000b\" holds the control character U+0000 (field "
            "names must not hold U+0000 to U+001F or U+007F)");
}

TEST(TopographyTest, LargeIntegerOptionsReadBackAsIntegers) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, R"toml(
[storage.objects]
type = "s3"
bucket = "higgins"
local_limit_bytes = 9223372036854775807
read_cache_bytes = 1000000000000000000
)toml"),
            "OK");
  const std::string stored = topography.Serialize();
  EXPECT_NE(stored.find("local_limit_bytes = 9223372036854775807\n"), std::string::npos) << stored;
  auto again = Topography::Deserialize(stored);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->Serialize(), stored);
}

TEST(TopographyTest, CredentialsAreRedactedForClientsAndKeptInTheStoredForm) {
  Topography topography;
  ASSERT_EQ(MergeText(&topography, R"toml(
[storage.objects]
type = "s3"
aws_access_key_id = "AKIDEXAMPLE"
aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
bucket = "higgins"
)toml"),
            "OK");
  const std::string shown = topography.ToToml(/*redact_credentials=*/true);
  EXPECT_EQ(shown.find("AKIDEXAMPLE"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("wJalrXUtnFEMI"), std::string::npos) << shown;
  EXPECT_NE(shown.find("aws_secret_access_key = \"<redacted>\""), std::string::npos) << shown;
  EXPECT_NE(shown.find("bucket = \"higgins\""), std::string::npos) << shown;
  const std::string stored = topography.Serialize();
  EXPECT_NE(stored.find("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), std::string::npos);
  // A conflicting declaration of the storage says which keys differ, not their values.
  const std::string conflict = MergeText(&topography, R"toml(
[storage.objects]
type = "s3"
bucket = "other"
)toml");
  EXPECT_NE(conflict.find("'aws_secret_access_key' differs (not shown)"), std::string::npos)
      << conflict;
  EXPECT_NE(conflict.find("'bucket' 'other' instead of 'higgins'"), std::string::npos) << conflict;
  EXPECT_EQ(conflict.find("AKIDEXAMPLE"), std::string::npos) << conflict;
  EXPECT_EQ(conflict.find("wJalrXUtnFEMI"), std::string::npos) << conflict;
}

}  // namespace
}  // namespace higgins::config
