#include "storage/storage_test_util.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "higgins/arrow/array.h"

namespace higgins::storage::testing {

namespace fs = std::filesystem;

namespace {

// Recovery logs a warning per cut tail; the torn-tail tests cut hundreds. Keep errors only.
class QuietLogs : public ::testing::Environment {
 public:
  void SetUp() override { spdlog::set_level(spdlog::level::err); }
};
[[maybe_unused]] ::testing::Environment* const quiet_logs =
    ::testing::AddGlobalTestEnvironment(new QuietLogs);

}  // namespace

TempDir::TempDir() {
  char pattern[] = "/tmp/higgins-storage-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  EXPECT_NE(made, nullptr);
  path_ = made != nullptr ? made : "/tmp/higgins-storage-failed";
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

arrow::SchemaPtr RecordSchema() {
  static const arrow::SchemaPtr schema =
      arrow::MakeSchema({arrow::Field("seq", arrow::DataType::Int64(), false),
                         arrow::Field("key", arrow::DataType::Utf8(), false),
                         arrow::Field("payload", arrow::DataType::Utf8(), true)});
  return schema;
}

arrow::RecordBatch RecordBatchOf(int64_t rows, int64_t first_seq, int64_t record_bytes) {
  arrow::ArrayBuilder seq(arrow::DataType::Int64());
  arrow::ArrayBuilder key(arrow::DataType::Utf8());
  arrow::ArrayBuilder payload(arrow::DataType::Utf8());
  const int64_t payload_bytes = std::max<int64_t>(1, record_bytes - 8 - 5);
  seq.Reserve(rows);
  key.Reserve(rows, rows * 5);
  payload.Reserve(rows, rows * payload_bytes);
  std::string text(static_cast<size_t>(payload_bytes), 'x');
  for (int64_t i = 0; i < rows; ++i) {
    seq.AppendPrimitive<int64_t>(first_seq + i);
    EXPECT_TRUE(key.AppendBinary("key-" + std::to_string(i % 7)).ok());
    if ((first_seq + i) % 10 == 9) {
      payload.AppendNull();
    } else {
      text[0] = static_cast<char>('a' + (first_seq + i) % 26);
      EXPECT_TRUE(payload.AppendBinary(text).ok());
    }
  }
  auto batch = arrow::RecordBatch::Make(RecordSchema(), rows,
                                        {seq.Finish(), key.Finish(), payload.Finish()});
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return std::move(batch).value();
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void WriteFileBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(out.good()) << path;
}

void TruncateFile(const std::string& path, uint64_t size) {
  std::error_code ec;
  fs::resize_file(path, size, ec);
  EXPECT_FALSE(ec) << path << ": " << ec.message();
}

uint64_t FileSizeOf(const std::string& path) {
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  EXPECT_FALSE(ec) << path << ": " << ec.message();
  return size;
}

std::vector<std::string> ListFiles(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(directory, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace higgins::storage::testing
