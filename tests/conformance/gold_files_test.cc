// Arrow's integration "gold" files (shared/testdata/arrow-integration, from apache/arrow-testing):
// every case listed below, read as an IPC stream and as an IPC file, must either decode to
// exactly what its .json.gz says or be rejected with NotSupported naming the field and the
// type. The table is the whole contract: a case added to or changed in the folders, and not
// reviewed here, fails.

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arrow/ipc/stream_decoder.h"
#include "higgins/arrow/ipc/reader.h"
#include "tests/conformance/batch_diff.h"
#include "tests/conformance/gzip_file.h"
#include "tests/conformance/integration_json_reader.h"
#include "tests/support/whole_file.h"

namespace higgins::conformance {
namespace {

// kDecodes: decodes with the default ReadOptions.
// kDecodesMetadataReordered: decodes, but the JSON lists some field's custom metadata in another
//   order than the IPC metadata does (Higgins keeps the IPC order), so the comparison sorts it.
// kNotSupported: rejected as NotSupported naming `field` and one of `type_words`.
enum class Expect { kDecodes, kDecodesMetadataReordered, kNotSupported };

struct GoldCase {
  const char* folder;  // under testdata/arrow-integration/
  const char* name;    // files generated_<name>.json.gz, .stream and .arrow_file
  Expect expect;
  const char* field;       // kNotSupported: the field the error must name
  const char* type_words;  // '|'-separated; the error must name one of them
  const char* batch_rows;  // the JSON's row count per batch
  uint32_t crc32;          // of .json.gz, .stream and .arrow_file, chained in that order
};

constexpr const char* kV1 = "1.0.0-littleendian";
constexpr const char* kV2 = "2.0.0-compression";
constexpr Expect kOk = Expect::kDecodes;
constexpr Expect kNo = Expect::kNotSupported;
constexpr Expect kOkSorted = Expect::kDecodesMetadataReordered;
constexpr const char* kDecimalRows =
    "7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10";
constexpr const char* kDecimal256Rows =
    "7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7,10,7";

// Notes on the verdicts:
// - decimal: Arrow's generator wrote values wider than the declared precision (12810 in a
//   decimal128(3, 2) column); ValidateFull does not check precision, so it decodes as written.
// - decimal256: Higgins' message says "Decimal with bitWidth 256", hence two spellings.
// - custom_metadata: metadata on int8 fields is supported, but the case has a list column.
// - dictionary, dictionary_unsigned: dictionary-encoded fields decode to their value types.
// - extension: the uuid column is plain fixed_size_binary(16) and the dictionary-encoded
//   extension column plain utf8, both keeping their extension metadata (which the JSON lists
//   name first, the IPC metadata name last).
// - interval: the duration columns are supported; the interval columns are not.
// - nested_dictionary: its first field is a dictionary-encoded list ("dictionary-encoded type
//   List is not supported"), so either word is right.
// clang-format off
const GoldCase kGoldCases[] = {
    {kV1, "custom_metadata", kNo, "list_with_odd_values", "list", "1", 0x15ef272d},
    {kV1, "datetime", kOk, "", "", "7,10", 0x75095e67},
    {kV1, "decimal", kOk, "", "", kDecimalRows, 0x1889bcf2},
    {kV1, "decimal256", kNo, "f0", "decimal256|bitwidth256", kDecimal256Rows, 0x802eb27b},
    {kV1, "dictionary", kOk, "", "", "7,10", 0xf614f459},
    {kV1, "dictionary_unsigned", kOk, "", "", "7,10", 0x5565dc16},
    {kV1, "duplicate_fieldnames", kNo, "struct", "struct", "1", 0x1492da17},
    {kV1, "extension", kOkSorted, "", "", "0,13", 0xdc332f33},
    {kV1, "interval", kNo, "f5", "interval", "7,10", 0x57c92aaa},
    {kV1, "map", kNo, "map_nullable", "map", "7,10", 0x309e6e20},
    {kV1, "map_non_canonical", kNo, "map_other_names", "map", "7", 0x5a62111a},
    {kV1, "nested", kNo, "list_nullable", "list", "7,10", 0x40fde2fd},
    {kV1, "nested_dictionary", kNo, "list_dict", "list|dictionary", "10,13", 0x67a43192},
    {kV1, "nested_large_offsets", kNo, "large_list_nullable", "large_list", "0,13", 0xa9a5d026},
    {kV1, "null", kOk, "", "", "10,0", 0x79be8659},
    {kV1, "null_trivial", kOk, "", "", "0,0", 0xf4125aaf},
    {kV1, "primitive", kOk, "", "", "17,20", 0x97a3f407},
    {kV1, "primitive_large_offsets", kOk, "", "", "17,20", 0x51933261},
    {kV1, "primitive_no_batches", kOk, "", "", "", 0x70f787a2},
    {kV1, "primitive_zerolength", kOk, "", "", "0,0,0", 0x62999546},
    {kV1, "recursive_nested", kNo, "lists_list", "list", "7,10", 0x9b9e05a3},
    {kV1, "union", kNo, "sparse", "union", "0,11", 0x7bbc77fa},
    {kV2, "lz4", kOk, "", "", "30,30", 0xd9ddc9ad},
    {kV2, "uncompressible_lz4", kOk, "", "", "4", 0xe6fbffd9},
    {kV2, "uncompressible_zstd", kOk, "", "", "4", 0x979bf2e4},
    {kV2, "zstd", kOk, "", "", "30,30", 0xf0dc6246},
};
// clang-format on

enum class Form { kStream, kFile };

void PrintTo(const GoldCase& c, std::ostream* os) {
  *os << c.folder << "/" << c.name;
}
void PrintTo(Form f, std::ostream* os) {
  *os << (f == Form::kStream ? ".stream" : ".arrow_file");
}

std::string GoldDir() {
  return std::string(HIGGINS_SHARED_DIR) + "/testdata/arrow-integration";
}

std::string CasePath(const GoldCase& c, const char* extension) {
  return GoldDir() + "/" + c.folder + "/generated_" + c.name + "." + extension;
}

// Lower-case with '_', '-' and ' ' removed, so "LargeList", "large_list" and "large list" match.
std::string Normalize(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '_' || ch == '-' || ch == ' ') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  return out;
}

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::string JoinRows(const std::vector<int64_t>& rows) {
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) out += (i ? "," : "") + std::to_string(rows[i]);
  return out;
}

// `result` with every field's custom metadata sorted by key (batches rebuilt on that schema).
arrow::ipc::ReadResult SortFieldMetadata(const arrow::ipc::ReadResult& result) {
  std::vector<arrow::Field> fields = result.schema->fields();
  for (arrow::Field& field : fields) std::sort(field.metadata.begin(), field.metadata.end());
  arrow::ipc::ReadResult out;
  out.schema = arrow::MakeSchema(std::move(fields), result.schema->metadata());
  for (const arrow::RecordBatch& batch : result.batches) {
    out.batches.push_back(*arrow::RecordBatch::Make(out.schema, batch.num_rows(), batch.columns()));
  }
  return out;
}

class GoldFileTest : public ::testing::TestWithParam<std::tuple<GoldCase, Form>> {
 protected:
  const GoldCase& gold() const { return std::get<0>(GetParam()); }
  Form form() const { return std::get<1>(GetParam()); }

  Result<arrow::ipc::ReadResult> ReadIpc(const Buffer& bytes,
                                         const arrow::ipc::ReadOptions& options = {}) const {
    return form() == Form::kStream ? arrow::ipc::ReadStream(bytes, options)
                                   : arrow::ipc::ReadFile(bytes, options);
  }
};

TEST_P(GoldFileTest, DecodesToTheJsonOrIsRejectedAsNotSupported) {
  const GoldCase& c = gold();
  auto json = ReadGzipFile(CasePath(c, "json.gz"));
  ASSERT_TRUE(json.ok()) << json.status().ToString();
  auto ipc_bytes =
      testing::ReadWholeFile(CasePath(c, form() == Form::kStream ? "stream" : "arrow_file"));
  ASSERT_TRUE(ipc_bytes.ok()) << ipc_bytes.status().ToString();

  // Guard against a silently replaced file: the table must be reviewed when data changes.
  uint32_t crc = 0;
  for (const char* ext : {"json.gz", "stream", "arrow_file"}) {
    auto bytes = testing::ReadWholeFile(CasePath(c, ext));
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    crc = static_cast<uint32_t>(crc32(crc, bytes->data(), static_cast<uInt>(bytes->size())));
  }
  EXPECT_EQ(crc, c.crc32) << "the files of case '" << c.name
                          << "' changed: review its verdict and update kGoldCases";
  auto rows = IntegrationBatchRowCounts(*json);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(JoinRows(*rows), c.batch_rows);

  auto expected = ParseIntegrationJson(*json);
  arrow::ipc::ReadOptions options;
  auto actual = ReadIpc(*ipc_bytes, options);
  const auto words = Split(c.type_words, '|');
  const auto names_a_word = [&](const Status& st) {
    const std::string message = Normalize(st.message());
    return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
      return message.find(Normalize(w)) != std::string::npos;
    });
  };
  if (c.expect == Expect::kNotSupported) {
    EXPECT_EQ(expected.status().code(), StatusCode::kNotSupported)
        << "the table says NotSupported but the JSON reader says: " << expected.status().ToString();
    ASSERT_FALSE(actual.ok()) << "decoded a case the table says is not supported";
    EXPECT_EQ(actual.status().code(), StatusCode::kNotSupported) << actual.status().ToString();
    const std::string message = Normalize(actual.status().message());
    EXPECT_NE(message.find(Normalize(c.field)), std::string::npos)
        << "the error does not name field '" << c.field << "': " << actual.status().ToString();
    EXPECT_TRUE(names_a_word(actual.status()))
        << "the error does not name the type (" << c.type_words
        << "): " << actual.status().ToString();
    return;
  }

  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  if (c.expect == Expect::kDecodesMetadataReordered) {
    expected = SortFieldMetadata(*expected);
    actual = SortFieldMetadata(*actual);
  }
  const std::string schema_diff = DescribeSchemaDifference(*expected->schema, *actual->schema);
  EXPECT_TRUE(schema_diff.empty()) << "schema differs:\n" << schema_diff;
  ASSERT_EQ(actual->batches.size(), expected->batches.size());
  for (size_t i = 0; i < expected->batches.size(); ++i) {
    const std::string diff = DescribeBatchDifference(expected->batches[i], actual->batches[i]);
    EXPECT_TRUE(diff.empty()) << "batch " << i << " differs:\n" << diff;
  }

  auto detected = arrow::ipc::ReadStreamOrFile(*ipc_bytes, options);
  ASSERT_TRUE(detected.ok()) << "ReadStreamOrFile: " << detected.status().ToString();
  EXPECT_EQ(detected->batches.size(), expected->batches.size()) << "ReadStreamOrFile";

  if (form() == Form::kStream) {
    // The sans-I/O decoder behind ReadStream, fed in small chunks, must agree with it.
    std::vector<arrow::RecordBatch> chunked;
    arrow::ipc::StreamDecoder decoder(options);
    constexpr size_t kChunk = 61;
    for (size_t at = 0; at < ipc_bytes->size(); at += kChunk) {
      const size_t n = std::min(kChunk, ipc_bytes->size() - at);
      const Status st = decoder.Consume(ipc_bytes->span().subspan(at, n));
      ASSERT_TRUE(st.ok()) << "StreamDecoder at byte " << at << ": " << st.ToString();
      while (auto event = decoder.Poll()) {
        if (event->kind == arrow::ipc::StreamDecoder::EventKind::kRecordBatch) {
          chunked.push_back(event->batch);
        }
      }
    }
    ASSERT_EQ(chunked.size(), expected->batches.size()) << "StreamDecoder";
    if (c.expect == Expect::kDecodesMetadataReordered) {
      chunked = SortFieldMetadata({actual->schema, chunked}).batches;
    }
    for (size_t i = 0; i < chunked.size(); ++i) {
      const std::string diff = DescribeBatchDifference(expected->batches[i], chunked[i]);
      EXPECT_TRUE(diff.empty()) << "StreamDecoder batch " << i << " differs:\n" << diff;
    }
  }
}

std::string CaseName(const ::testing::TestParamInfo<std::tuple<GoldCase, Form>>& info) {
  const GoldCase& c = std::get<0>(info.param);
  return std::string(std::string_view(c.folder) == kV1 ? "v1_" : "v2_") + c.name +
         (std::get<1>(info.param) == Form::kStream ? "_stream" : "_file");
}

INSTANTIATE_TEST_SUITE_P(ArrowIntegration, GoldFileTest,
                         ::testing::Combine(::testing::ValuesIn(kGoldCases),
                                            ::testing::Values(Form::kStream, Form::kFile)),
                         CaseName);

TEST(GoldFileTable, ListsEveryCaseInTheFoldersAndNothingElse) {
  std::map<std::string, std::set<std::string>> on_disk;  // "folder/name" -> extensions
  for (const char* folder : {kV1, kV2}) {
    for (const auto& entry : std::filesystem::directory_iterator(GoldDir() + "/" + folder)) {
      const std::string file = entry.path().filename().string();
      ASSERT_EQ(file.rfind("generated_", 0), 0u) << "unexpected file " << folder << "/" << file;
      const size_t dot = file.find('.');
      on_disk[std::string(folder) + "/" + file.substr(10, dot - 10)].insert(file.substr(dot + 1));
    }
  }
  std::set<std::string> listed;
  for (const GoldCase& c : kGoldCases) listed.insert(std::string(c.folder) + "/" + c.name);
  for (const auto& [key, extensions] : on_disk) {
    EXPECT_TRUE(listed.count(key)) << "case " << key << " is not in kGoldCases: add its verdict";
    EXPECT_EQ(extensions, (std::set<std::string>{"arrow_file", "json.gz", "stream"})) << key;
  }
  for (const std::string& key : listed) {
    EXPECT_TRUE(on_disk.count(key)) << "kGoldCases lists " << key << " but it is not on disk";
  }
}

}  // namespace
}  // namespace higgins::conformance
