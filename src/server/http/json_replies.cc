#include "server/http/json_replies.h"

#include "arrow/json/json_writer.h"
#include "arrow/json/temporal.h"
#include "config/configuration.h"
#include "server/wire_replies.h"

namespace higgins::server::http {
namespace {

using arrow::json::AppendJsonString;

void AppendUint(uint64_t value, std::string* out) {
  out->append(std::to_string(value));
}

void AppendStringArray(const std::vector<std::string>& values, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendJsonString(values[i], out);
  }
  out->push_back(']');
}

void AppendSchema(const arrow::SchemaPtr& schema, std::string* out) {
  out->push_back('[');
  if (schema) {
    for (size_t i = 0; i < schema->num_fields(); ++i) {
      const arrow::Field& field = schema->fields()[i];
      if (i > 0) out->push_back(',');
      out->append("{\"name\":");
      AppendJsonString(field.name, out);
      out->append(",\"type\":");
      AppendJsonString(field.type.ToString(), out);
      out->append(field.nullable ? ",\"nullable\":true}" : ",\"nullable\":false}");
    }
  }
  out->push_back(']');
}

// The rows of `rows` as [{"offset":n,"commit_time":"...","record":{...}},...].
void AppendRows(const stream::QueryRows& rows, std::string* out) {
  out->push_back('[');
  arrow::json::JsonRowWriter writer(rows.batch);
  for (int64_t r = 0; r < rows.batch.num_rows(); ++r) {
    if (r > 0) out->push_back(',');
    out->append("{\"offset\":");
    AppendUint(rows.first_offset + static_cast<uint64_t>(r), out);
    const auto i = static_cast<size_t>(r);
    if (i < rows.timestamps_ms.size()) {
      out->append(",\"commit_time\":");
      AppendCommitTime(rows.timestamps_ms[i], out);
    }
    out->append(",\"record\":");
    writer.AppendRow(r, out);
    out->push_back('}');
  }
  out->push_back(']');
}

}  // namespace

std::string_view ErrorCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid_argument";
    case StatusCode::kNotFound: return "not_found";
    case StatusCode::kAlreadyExists: return "already_exists";
    case StatusCode::kOutOfRange: return "out_of_range";
    case StatusCode::kNotSupported: return "not_supported";
    case StatusCode::kCorruption: return "corruption";
    case StatusCode::kIOError: return "io_error";
    case StatusCode::kResourceExhausted: return "resource_exhausted";
    case StatusCode::kInternal: return "internal";
    case StatusCode::kDeadlineExceeded: return "deadline_exceeded";
  }
  return "unknown";
}

std::string ErrorJson(const HttpError& error) {
  std::string out = "{\"error\":{\"code\":";
  AppendJsonString(error.code, &out);
  out.append(",\"message\":");
  AppendJsonString(error.message, &out);
  out.append("}}");
  return out;
}

std::string ErrorJson(const Status& status) {
  std::string message;
  for (const std::string& line : ErrorLines(status)) {
    if (!message.empty()) message.push_back('\n');
    message += line;
  }
  return ErrorJson(HttpError{ErrorCodeName(status.code()), message});
}

void AppendCommitTime(int64_t timestamp_ms, std::string* out) {
  std::string text;
  if (!arrow::json::FormatTimestamp(timestamp_ms, arrow::TimeUnit::kMilli, &text)) {
    out->append(std::to_string(timestamp_ms));  // outside years 0..9999: the number of ms
    return;
  }
  AppendJsonString(text, out);
}

void AppendStreamJson(const broker::StreamInfo& info, std::string* out) {
  const config::StreamDecl& decl = info.decl;
  out->append("{\"name\":");
  AppendJsonString(info.name, out);
  out->append(",\"kind\":");
  AppendJsonString(info.kind, out);
  out->append(",\"partition_key\":");
  AppendJsonString(decl.partition_key, out);
  out->append(",\"buckets\":");
  AppendUint(decl.buckets, out);
  out->append(",\"schema\":");
  AppendSchema(info.schema, out);
  out->append(",\"partitions\":");
  AppendUint(info.partition_count, out);
  out->append(",\"records\":");
  AppendUint(info.record_count, out);
  out->append(",\"lag\":");
  AppendUint(info.lag, out);
  std::vector<std::string> inputs;
  if (!decl.base.empty()) inputs.push_back(decl.base);
  inputs.insert(inputs.end(), decl.join.begin(), decl.join.end());
  out->append(",\"inputs\":");
  AppendStringArray(inputs, out);
  out->append(",\"fn\":");
  if (decl.fn.empty()) {
    out->append("null");
  } else {
    AppendJsonString(decl.fn, out);
  }
  out->append(",\"window\":");
  if (decl.window) {
    out->append(decl.window->type == config::WindowSpec::Type::kTime ? "{\"type\":\"time\""
                                                                     : "{\"type\":\"count\"");
    out->append(",\"interval\":");
    AppendUint(decl.window->interval, out);
    out->append(",\"slide\":");
    AppendUint(decl.window->slide, out);
    out->push_back('}');
  } else {
    out->append("null");
  }
  out->append(",\"latest_offsets\":{");
  bool first = true;
  for (const stream::PartitionCount& partition : info.partitions) {
    if (partition.count == 0) continue;
    if (!first) out->push_back(',');
    first = false;
    AppendJsonString(partition.key, out);
    out->push_back(':');
    AppendUint(partition.count - 1, out);
  }
  out->append(info.partitions_truncated ? "},\"latest_offsets_truncated\":true}"
                                        : "},\"latest_offsets_truncated\":false}");
}

std::string StreamsJson(std::span<const broker::StreamInfo> streams) {
  std::string out = "{\"streams\":[";
  for (size_t i = 0; i < streams.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendStreamJson(streams[i], &out);
  }
  out.append("]}");
  return out;
}

std::string ProduceJson(const stream::ProduceResult& result) {
  std::string out = "{\"commit_time\":";
  AppendCommitTime(result.timestamp_ms, &out);
  out.append(",\"records\":[");
  for (size_t r = 0; r < result.offsets.size(); ++r) {
    if (r > 0) out.push_back(',');
    out.append("{\"partition_key\":");
    const uint32_t k = r < result.partition_indexes.size() ? result.partition_indexes[r] : 0;
    AppendJsonString(k < result.partitions.size() ? result.partitions[k] : std::string(), &out);
    out.append(",\"offset\":");
    AppendUint(result.offsets[r], &out);
    out.push_back('}');
  }
  out.append("]}");
  return out;
}

std::string QueryJson(const broker::QueryRequest& query, const broker::QueryAnswer& answer) {
  std::string out = "{\"stream\":";
  AppendJsonString(query.stream, &out);
  out.append(",\"partition_key\":");
  AppendJsonString(query.key, &out);
  if (answer.window) {
    const stream::WindowRows& w = *answer.window;
    out.append(",\"window\":{\"number\":");
    AppendUint(w.window, &out);
    out.append(w.by_time ? ",\"type\":\"time\",\"start\":" : ",\"type\":\"count\",\"start\":");
    AppendUint(w.start, &out);
    out.append(",\"end\":");
    AppendUint(w.end, &out);
    out.append(w.closed ? ",\"closed\":true}" : ",\"closed\":false}");
  }
  out.append(",\"records\":");
  AppendRows(answer.window ? answer.window->members : answer.rows, &out);
  out.push_back('}');
  return out;
}

}  // namespace higgins::server::http
