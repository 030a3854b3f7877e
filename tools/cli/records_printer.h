#pragma once

// The outputs of `query` and `subscribe`: records printed as an aligned table, JSON, NDJSON or
// an Arrow IPC stream, on standard output.

#include <memory>
#include <string>

#include "higgins/client_types.h"
#include "higgins/status.h"

namespace higgins::cli {

/// Receives records, one Records at a time (offset order within a partition), and prints them.
class RecordsPrinter {
 public:
  virtual ~RecordsPrinter() = default;
  virtual Status Print(const Records& records) = 0;
  /// Writes what Print kept back: the table output aligns rows across Print calls and keeps
  /// them until Flush (or Finish); the others print at once. Does not flush stdio.
  virtual Status Flush() = 0;
  /// Flush, then whatever ends the output (the closing bracket of a JSON array, the end of the
  /// Arrow IPC stream).
  virtual Status Finish() = 0;
};

struct PrinterOptions {
  /// "table", "json", "ndjson" or "arrow" (anything else: "table").
  std::string output = "table";
  /// Records come from several partitions and may come again (subscribe): tables get first
  /// columns `partition` and `redelivered`, JSON objects first members "partition" and
  /// "redelivered" (Records::redelivered). Arrow output holds the records alone either way; a
  /// redelivery is then noted on standard error (`redelivered: partition 'a', offsets 4 to 5`).
  bool partition = false;
};

/// Tables: columns offset, timestamp, then the schema's fields; a window is headed by its
/// WindowHeading line and lists its members with their base offsets. Each Flush prints the rows
/// since the last one, aligned among themselves, the header only the first time; a window is
/// printed at once, with its header.
/// JSON, NDJSON: one RecordEnvelope per record (a window: one WindowEnvelope), in one array or
/// one per line. Arrow: the rows alone as one IPC stream of the stream's schema, with a
/// window's WindowMetadata in the schema's metadata (the first window's).
std::unique_ptr<RecordsPrinter> MakePrinter(const PrinterOptions& options);

}  // namespace higgins::cli
