// The reference's quick start with the Higgins C++ client: connect, upload a configuration,
// produce a JSON record, read the latest record of its partition back.
//
//   quickstart [HOST:PORT] [CONFIG.toml]      (defaults: 127.0.0.1:4932, config.toml)
#include <higgins/client.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

int Fail(const char* what, const higgins::Status& status) {
  std::cerr << "quickstart: " << what << ": " << status.ToString() << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string address = argc > 1 ? argv[1] : "127.0.0.1:4932";
  const std::string config_path = argc > 2 ? argv[2] : "config.toml";

  auto client = higgins::Client::Connect(address, std::chrono::seconds(5));
  if (!client.ok()) return Fail("connect", client.status());

  std::ifstream file(config_path);
  if (!file) {
    std::cerr << "quickstart: cannot read " << config_path << "\n";
    return 1;
  }
  std::stringstream toml;
  toml << file.rdbuf();
  if (auto s = (*client)->UploadConfiguration(toml.str()); !s.ok()) {
    return Fail("upload configuration", s);
  }

  auto produced = (*client)->ProduceJson("amount", R"({"id":"key","data":21})");
  if (!produced.ok()) return Fail("produce", produced.status());
  std::cout << "produced to partition '" << produced->partition_of(0) << "' at offset "
            << produced->offsets[0] << "\n";

  auto latest = (*client)->QueryLatest("amount", "key");
  if (!latest.ok()) return Fail("query latest", latest.status());
  const higgins::arrow::RecordBatch& batch = latest->batch;
  std::cout << "latest record of 'key' is at offset " << latest->offset << ":";
  for (int c = 0; c < batch.num_columns(); ++c) {
    const auto& field = batch.schema()->field(static_cast<size_t>(c));
    const higgins::arrow::Array& column = batch.column(c);
    std::cout << " " << field.name << "=";
    if (column.IsNull(0)) {
      std::cout << "null";
    } else if (field.type.id() == higgins::arrow::TypeId::kUtf8) {
      std::cout << column.BinaryValue(0);
    } else {
      std::cout << column.IntegerValue(0);
    }
  }
  std::cout << "\n";
  return 0;
}
