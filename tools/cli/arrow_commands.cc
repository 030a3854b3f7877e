#include "arrow_commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "arrow/ipc/stream_decoder.h"
#include "arrow/json/csv_reader.h"
#include "arrow/json/json_reader.h"
#include "arrow/json/json_writer.h"
#include "config/schema_config.h"
#include "higgins/arrow/ipc/reader.h"
#include "higgins/arrow/ipc/writer.h"
#include "io.h"
#include "report.h"

namespace higgins::cli {
namespace {

namespace ipc = arrow::ipc;
namespace json = arrow::json;

constexpr std::string_view kFileMagic = "ARROW1";
constexpr size_t kChunkBytes = 1 << 20;

// Renders a slice of rows at a time, so output memory stays bounded whatever the batch length.
Status PrintBatch(const arrow::RecordBatch& batch) {
  constexpr int64_t kRowsPerWrite = 4096;
  std::string text;
  for (int64_t row = 0; row < batch.num_rows(); row += kRowsPerWrite) {
    text.clear();
    json::WriteNdjson(batch.Slice(row, kRowsPerWrite), &text);
    HIGGINS_RETURN_IF_ERROR(WriteStdout(text));
  }
  if (std::fflush(stdout) != 0) {  // a follower of a pipe sees each batch as it completes
    return Status::IOError(std::string("cannot write to standard output: ") + std::strerror(errno));
  }
  return Status::OK();
}

std::string OpenError(const std::string& path) {
  return "cannot open '" + path + "': " + std::strerror(errno);
}

// An IPC file needs random access, so it is read whole; a stream is decoded chunk by chunk and
// printed as batches complete, so `cat` also follows a pipe.
Status CatArrow(const std::string& path) {
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Status::IOError(OpenError(path));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file == stdin ? nullptr : file,
                                                         &std::fclose);
  const std::string context = path == "-" ? "standard input" : "'" + path + "'";
  std::string chunk;
  HIGGINS_RETURN_IF_ERROR(ReadChunk(file, kChunkBytes, &chunk).WithContext(context));
  if (chunk.starts_with(kFileMagic)) {
    BufferBuilder all;
    while (!chunk.empty()) {
      if (all.size() + chunk.size() > kMaxInputBytes) {
        return Status::ResourceExhausted(context +
                                         " is an Arrow IPC file larger than the limit of " +
                                         std::to_string(kMaxInputBytes >> 20) + " MiB");
      }
      all.Append(chunk.data(), chunk.size());
      HIGGINS_RETURN_IF_ERROR(ReadChunk(file, kChunkBytes, &chunk).WithContext(context));
    }
    auto result = ipc::ReadFile(all.Finish());
    if (!result.ok()) return result.status().WithContext(context);
    for (const arrow::RecordBatch& batch : result->batches) {
      HIGGINS_RETURN_IF_ERROR(PrintBatch(batch));
    }
    return Status::OK();
  }
  ipc::StreamDecoder decoder;
  bool any = false;
  while (!chunk.empty()) {
    any = true;
    HIGGINS_RETURN_IF_ERROR(decoder
                                .Consume(std::span<const uint8_t>(
                                    reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()))
                                .WithContext(context));
    while (auto event = decoder.Poll()) {
      if (event->kind == ipc::StreamDecoder::EventKind::kRecordBatch) {
        HIGGINS_RETURN_IF_ERROR(PrintBatch(event->batch));
      }
    }
    HIGGINS_RETURN_IF_ERROR(ReadChunk(file, kChunkBytes, &chunk).WithContext(context));
  }
  if (!any) return Status::InvalidArgument(context + " is empty, not an Arrow IPC stream");
  return decoder.Close().WithContext(context);
}

struct ConvertOptions {
  std::string config_path;
  std::string schema_name;
  std::string from = "json";
  std::string to = "stream";
  std::string compression = "none";
  std::string input = "-";
};

Status Convert(const ConvertOptions& o) {
  HIGGINS_ASSIGN_OR_RETURN(Buffer config_text, ReadAll(o.config_path));
  HIGGINS_ASSIGN_OR_RETURN(arrow::SchemaPtr schema,
                           config::LoadSchema(config_text.view(), o.schema_name));
  HIGGINS_ASSIGN_OR_RETURN(Buffer input, ReadAll(o.input));
  arrow::RecordBatch batch;
  if (o.from == "csv") {
    HIGGINS_ASSIGN_OR_RETURN(batch, json::ReadCsv(input.view(), schema));
  } else {
    json::JsonReadOptions options;
    options.format = o.from == "ndjson" ? json::JsonFormat::kNdjson : json::JsonFormat::kAuto;
    HIGGINS_ASSIGN_OR_RETURN(batch, json::ReadJson(input.view(), schema, options));
  }
  ipc::WriteOptions write;
  if (o.compression == "zstd") write.compression = ipc::Compression::kZstd;
  if (o.compression == "lz4") write.compression = ipc::Compression::kLz4Frame;
  HIGGINS_ASSIGN_OR_RETURN(Buffer out, o.to == "file" ? ipc::WriteFile(schema, {batch}, write)
                                                      : ipc::WriteStream(schema, {batch}, write));
  return WriteStdout(out.view());
}

}  // namespace

void AddArrowCommands(CLI::App& app, int* exit_code) {
  CLI::App* arrow = app.add_subcommand("arrow", "Arrow IPC tools that work without a broker");
  arrow->require_subcommand(1);

  auto path = std::make_shared<std::string>();
  CLI::App* cat = arrow->add_subcommand(
      "cat", "Print an Arrow IPC stream or file as NDJSON, one object per row");
  cat->add_option("FILE", *path, "Arrow IPC stream or file; '-' reads standard input")->required();
  cat->callback([path, exit_code] { Report(CatArrow(*path), exit_code); });

  auto o = std::make_shared<ConvertOptions>();
  CLI::App* convert = arrow->add_subcommand(
      "convert", "Convert JSON, NDJSON or CSV on standard input to Arrow IPC on standard output");
  convert->add_option("--config", o->config_path, "TOML configuration declaring the schema")
      ->required();
  convert->add_option("--schema", o->schema_name, "Name of a [schema.<name>] block")->required();
  convert->add_option("--from", o->from, "Input format")
      ->check(CLI::IsMember({"json", "ndjson", "csv"}))
      ->capture_default_str();
  convert->add_option("--to", o->to, "Output format: Arrow IPC stream or file (ARROW1)")
      ->check(CLI::IsMember({"stream", "file"}))
      ->capture_default_str();
  convert->add_option("--compression", o->compression, "IPC body compression")
      ->check(CLI::IsMember({"none", "zstd", "lz4"}))
      ->capture_default_str();
  convert->add_option("--input", o->input, "Read this file instead of standard input");
  convert->callback([o, exit_code] { Report(Convert(*o), exit_code); });
}

}  // namespace higgins::cli
