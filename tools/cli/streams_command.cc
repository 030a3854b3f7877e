// `higgins-cli streams [NAME] [--output table|json]`: the broker's streams, from Client::Metadata.
#include <string>
#include <vector>

#include "broker_commands.h"
#include "io.h"
#include "output_format.h"
#include "report.h"

namespace higgins::cli {
namespace {

struct StreamsOptions {
  std::string name;
  std::string output = "table";
};

// Map, reduce and join streams have a lag (records of their inputs not yet derived).
bool IsDerived(const StreamInfo& s) {
  return s.kind == "map" || s.kind == "reduce" || s.kind == "join";
}

std::string StreamsTable(const std::vector<StreamInfo>& streams) {
  TextTable table({"name", "kind", "schema", "partition_key", "storage", "buckets", "partitions",
                   "records", "lag"});
  for (const StreamInfo& s : streams) {
    table.AddRow({TableText(s.name), s.kind, TableText(s.schema_name), TableText(s.partition_key),
                  TableText(s.storage), std::to_string(s.buckets),
                  std::to_string(s.partition_count), std::to_string(s.record_count),
                  IsDerived(s) ? std::to_string(s.lag) : "-"});
  }
  return table.Render();
}

// The fields and partitions of one stream, after its summary line.
std::string StreamDetails(const StreamInfo& s) {
  std::string out = "\n";
  TextTable fields({"field", "type", "nullable"});
  if (s.schema != nullptr) {
    for (const arrow::Field& f : s.schema->fields()) {
      fields.AddRow({TableText(f.name), arrow::TypeTag(f.type), f.nullable ? "true" : "false"});
    }
  }
  out += fields.Render();
  out += "\n";
  TextTable partitions({"partition", "records", "latest_offset"});
  for (const PartitionInfo& p : s.partitions) {
    partitions.AddRow({TableText(p.key), std::to_string(p.count),
                       p.count == 0 ? "-" : std::to_string(p.count - 1)});
  }
  out += partitions.Render();
  if (s.partitions_truncated) {
    out += "(the broker listed " + std::to_string(s.partitions.size()) + " of " +
           std::to_string(s.partition_count) + " partitions)\n";
  }
  return out;
}

std::string StreamJson(const StreamInfo& s) {
  std::string out = "{\"name\":" + JsonQuote(s.name) + ",\"kind\":" + JsonQuote(s.kind) +
                    ",\"schema\":" + JsonQuote(s.schema_name) +
                    ",\"partition_key\":" + JsonQuote(s.partition_key) +
                    ",\"storage\":" + JsonQuote(s.storage) +
                    ",\"buckets\":" + std::to_string(s.buckets) +
                    ",\"partition_count\":" + std::to_string(s.partition_count) +
                    ",\"record_count\":" + std::to_string(s.record_count) +
                    ",\"lag\":" + (IsDerived(s) ? std::to_string(s.lag) : "null") + ",\"fields\":[";
  if (s.schema != nullptr) {
    for (size_t i = 0; i < s.schema->num_fields(); ++i) {
      const arrow::Field& f = s.schema->field(i);
      if (i > 0) out += ',';
      out += "{\"name\":" + JsonQuote(f.name) + ",\"type\":" + JsonQuote(arrow::TypeTag(f.type)) +
             ",\"nullable\":" + (f.nullable ? "true" : "false") + "}";
    }
  }
  out += "],\"partitions\":[";
  for (size_t i = 0; i < s.partitions.size(); ++i) {
    const PartitionInfo& p = s.partitions[i];
    if (i > 0) out += ',';
    out += "{\"key\":" + JsonQuote(p.key) + ",\"records\":" + std::to_string(p.count) + "}";
  }
  out += "],\"partitions_truncated\":";
  out += s.partitions_truncated ? "true" : "false";
  out += '}';
  return out;
}

Status ListStreams(const BrokerOptions& broker, const StreamsOptions& o) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(std::vector<StreamInfo> streams, client->Metadata(o.name));
  std::string out;
  if (o.output == "json") {
    out = "[";
    for (size_t i = 0; i < streams.size(); ++i) {
      out += i == 0 ? "\n" : ",\n";
      out += StreamJson(streams[i]);
    }
    out += "\n]\n";
  } else {
    out = StreamsTable(streams);
    if (!o.name.empty() && streams.size() == 1) out += StreamDetails(streams[0]);
  }
  return WriteStdout(out);
}

}  // namespace

void AddStreamsCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code) {
  auto o = std::make_shared<StreamsOptions>();
  CLI::App* streams = app.add_subcommand(
      "streams", "List the broker's streams; with NAME, also its fields and partitions");
  streams->add_option("NAME", o->name, "Show this stream only, with its fields and partitions")
      ->check(NonEmptyName());
  streams->add_option("-o,--output", o->output, "Output format")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  streams->callback([broker, o, exit_code] { Report(ListStreams(*broker, *o), exit_code); });
}

}  // namespace higgins::cli
