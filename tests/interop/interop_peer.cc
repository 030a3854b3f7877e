// interop_peer: the C++ side of the apache-arrow (JS) interop test (docs/conformance.md).
//
//   interop_peer write OUT --format stream|file [--compression none|lz4|zstd] [--case NAME]
//                [--dataset tools/interop/dataset.json]
//     writes one dataset case with ipc::StreamWriter / ipc::FileWriter;
//   interop_peer read FILE
//     decodes an IPC stream or file with ipc::ReadStreamOrFile and prints its canonical lines.
//
// Exit status: 0 on success, 1 when Higgins reports an error (printed on stderr), 2 for usage.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "higgins/arrow/ipc/reader.h"
#include "higgins/arrow/ipc/writer.h"
#include "tests/interop/dataset_case.h"
#include "tests/support/canonical_value.h"
#include "tests/support/whole_file.h"

namespace higgins::interop {
namespace {

struct WriteArgs {
  std::string out;
  std::string format = "stream";
  std::string compression = "none";
  std::string case_name = "all_types";
  std::string dataset = std::string(HIGGINS_SOURCE_DIR) + "/tools/interop/dataset.json";
};

template <typename Writer>
Result<Buffer> WriteAll(const DatasetCase& c, const arrow::ipc::WriteOptions& options) {
  Writer writer(c.schema, options);
  for (const arrow::RecordBatch& batch : c.batches) {
    HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(batch));
  }
  return writer.Finish();
}

Status Write(const WriteArgs& args) {
  HIGGINS_ASSIGN_OR_RETURN(DatasetCase c, LoadDatasetCase(args.dataset, args.case_name));
  arrow::ipc::WriteOptions options;
  if (args.compression == "lz4") options.compression = arrow::ipc::Compression::kLz4Frame;
  if (args.compression == "zstd") options.compression = arrow::ipc::Compression::kZstd;
  HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, args.format == "file"
                                             ? WriteAll<arrow::ipc::FileWriter>(c, options)
                                             : WriteAll<arrow::ipc::StreamWriter>(c, options));
  return testing::WriteWholeFile(args.out, bytes.span());
}

Status Read(const std::string& path) {
  HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, testing::ReadWholeFile(path));
  HIGGINS_ASSIGN_OR_RETURN(arrow::ipc::ReadResult result, arrow::ipc::ReadStreamOrFile(bytes));
  for (const std::string& line : testing::CanonicalLines(*result.schema, result.batches)) {
    std::cout << line << '\n';
  }
  std::cout.flush();
  return std::cout ? Status::OK() : Status::IOError("cannot write to stdout");
}

}  // namespace
}  // namespace higgins::interop

int main(int argc, char** argv) {
  using higgins::interop::WriteArgs;
  CLI::App app{"Writes interop dataset cases and prints canonical lines of Arrow IPC data"};
  app.require_subcommand(1);
  WriteArgs write_args;
  CLI::App* write = app.add_subcommand("write", "write one dataset case");
  write->add_option("out", write_args.out, "output path")->required();
  write->add_option("--format", write_args.format)->check(CLI::IsMember({"stream", "file"}));
  write->add_option("--compression", write_args.compression)
      ->check(CLI::IsMember({"none", "lz4", "zstd"}));
  write->add_option("--case", write_args.case_name);
  write->add_option("--dataset", write_args.dataset);
  std::string read_path;
  CLI::App* read = app.add_subcommand("read", "print the canonical lines of a stream or file");
  read->add_option("file", read_path)->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  const higgins::Status status =
      write->parsed() ? higgins::interop::Write(write_args) : higgins::interop::Read(read_path);
  if (!status.ok()) {
    std::cerr << "interop_peer: " << status.ToString() << '\n';
    return 1;
  }
  return 0;
}
