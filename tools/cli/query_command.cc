// `higgins-cli query`: records of one partition by offset, latest, offset range or time, printed
// as a table, JSON, NDJSON or an Arrow IPC stream.
#include <unistd.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "broker_commands.h"
#include "query_errors.h"
#include "records_printer.h"
#include "report.h"
#include "time_text.h"

namespace higgins::cli {
namespace {

struct QueryOptions {
  std::string stream;
  std::string partition;
  uint64_t offset = 0;
  bool latest = false;
  uint64_t from = 0;
  uint64_t to = 0;
  std::string at_time;
  std::string output = "table";
  CallOptions call;  // --wait-for-derived
  // Which selector was given.
  CLI::Option* offset_option = nullptr;
  CLI::Option* latest_option = nullptr;
  CLI::Option* from_option = nullptr;
  CLI::Option* to_option = nullptr;
  CLI::Option* at_time_option = nullptr;
};

// Offsets [from, to) (to the partition's end without --to), printed reply by reply: the client
// asks again wherever a reply stopped (--max-range-records, or the broker's frame limit).
Status QueryRange(Client& client, const QueryOptions& o, RecordsPrinter& printer) {
  const uint64_t end = o.to_option->count() > 0 ? o.to : std::numeric_limits<uint64_t>::max();
  uint64_t received = 0;
  Status printed;
  Status s = client.QueryRangeEach(
      o.stream, o.partition, o.from, end,
      [&](const Records& records) {
        printed = printer.Print(records);
        received += static_cast<uint64_t>(records.num_rows());
        return printed;
      },
      o.call);
  if (s.ok() || received == 0 || !printed.ok()) return s;
  // Say what was already printed (table output prints nothing until the end).
  const bool table = o.output == "table";
  return Status(s.code(), s.message() + "; interrupted after offset " +
                              std::to_string(o.from + received - 1) + " (" +
                              std::to_string(received) +
                              (table ? " records received, none printed)" : " records printed)"));
}

// The one record of --offset, --latest or --at-time.
Result<Records> QueryOne(Client& client, const QueryOptions& o) {
  if (o.offset_option->count() > 0) {
    return client.QueryAt(o.stream, o.partition, o.offset, o.call);
  }
  if (o.latest_option->count() > 0) return client.QueryLatest(o.stream, o.partition, o.call);
  HIGGINS_ASSIGN_OR_RETURN(uint64_t ms, ParseTimeArgument(o.at_time));
  return client.QueryAtTime(o.stream, o.partition, ms, o.call);
}

Status Run(const BrokerOptions& broker, const QueryOptions& o) {
  if (o.output == "arrow" && ::isatty(STDOUT_FILENO) == 1) {
    return Status::InvalidArgument(
        "refusing to write Arrow IPC to a terminal; redirect standard output to a file or a pipe");
  }
  std::unique_ptr<RecordsPrinter> printer = MakePrinter({.output = o.output});
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  if (o.from_option->count() > 0) {
    HIGGINS_RETURN_IF_ERROR(QueryRange(*client, o, *printer));
    return printer->Finish();
  }
  HIGGINS_ASSIGN_OR_RETURN(Records records, QueryOne(*client, o));
  HIGGINS_RETURN_IF_ERROR(printer->Print(records));
  return printer->Finish();
}

}  // namespace

void AddQueryCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code) {
  auto o = std::make_shared<QueryOptions>();
  CLI::App* query = app.add_subcommand(
      "query",
      "Print records of one partition: at an offset, the latest, an offset range or a time");
  query->add_option("-s,--stream", o->stream, "Stream to query")->required()->check(NonEmptyName());
  query->add_option("-p,--partition", o->partition, "Partition key (an integer key in decimal)")
      ->required();
  o->offset_option = query->add_option(
      "--offset", o->offset,
      "The record at this offset (on a window stream: the window with this number)");
  o->offset_option->check(UnsignedInteger());
  o->latest_option =
      query->add_flag("--latest", o->latest,
                      "The record at the partition's highest offset (on a window stream: the "
                      "latest window)");
  o->from_option = query->add_option("--from", o->from, "Records from this offset on (inclusive)")
                       ->check(UnsignedInteger());
  o->to_option = query->add_option(
      "--to", o->to, "Stop before this offset (exclusive; default: the partition's end)");
  o->to_option->check(UnsignedInteger());
  o->to_option->needs(o->from_option);
  o->at_time_option = query->add_option(
      "--at-time", o->at_time,
      "The first record committed at or after this time: ms since the Unix epoch or ISO 8601 "
      "(2026-11-29T12:00:00Z)");
  o->at_time_option->check(CLI::Validator(
      [](std::string& text) {
        auto parsed = ParseTimeArgument(text);
        return parsed.ok() ? std::string() : parsed.status().message();
      },
      "TIME"));
  query->add_flag("--wait-for-derived", o->call.wait_for_derived,
                  "On a derived stream, first wait until it (and every stream it is made from) "
                  "has processed every record its inputs hold for the partition "
                  "(read-your-writes; up to 10 s)");
  query->add_option("-o,--output", o->output, "Output format")
      ->check(CLI::IsMember({"table", "json", "ndjson", "arrow"}))
      ->capture_default_str();
  query->callback([broker, o, exit_code] {
    const size_t selectors = o->offset_option->count() + o->latest_option->count() +
                             o->from_option->count() + o->at_time_option->count();
    if (selectors != 1) {
      throw CLI::ValidationError(
          "query", "give exactly one of --offset N, --latest, --from A [--to B] or --at-time T");
    }
    if (o->to_option->count() > 0 && o->to <= o->from) {
      throw CLI::ValidationError("--to", "must be greater than --from (the range is [from, to))");
    }
    const Status status = Run(*broker, *o);
    Report(InCliWords(status), exit_code);
    if (FoundNothing(status, o->stream)) *exit_code = kExitFoundNothing;
  });
}

}  // namespace higgins::cli
