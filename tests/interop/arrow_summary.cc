// arrow_summary FILE: reads an Arrow IPC file or stream with ipc::ReadStreamOrFile and prints
// its schema (lines starting with '#') and its summary lines (column_summary.h). The JS side of
// the comparison is tools/interop/lib/summary.mjs; tools/interop/flights.test.mjs runs both.
// Exit status: 0 on success, 1 on a read error, 2 for usage.

#include <iostream>

#include "higgins/arrow/ipc/reader.h"
#include "tests/interop/column_summary.h"
#include "tests/support/whole_file.h"

namespace higgins::interop {
namespace {

Status Summarize(const std::string& path) {
  HIGGINS_ASSIGN_OR_RETURN(Buffer bytes, testing::ReadWholeFile(path));
  HIGGINS_ASSIGN_OR_RETURN(arrow::ipc::ReadResult result, arrow::ipc::ReadStreamOrFile(bytes));
  for (const arrow::Field& f : result.schema->fields()) std::cout << "# " << f.ToString() << '\n';
  for (const std::string& line : SummarizeTable(*result.schema, result.batches)) {
    std::cout << line << '\n';
  }
  return Status::OK();
}

}  // namespace
}  // namespace higgins::interop

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: arrow_summary FILE\n";
    return 2;
  }
  const higgins::Status status = higgins::interop::Summarize(argv[1]);
  if (!status.ok()) {
    std::cerr << "arrow_summary: " << status.ToString() << '\n';
    return 1;
  }
  return 0;
}
