// `higgins-cli produce`: reads JSON, NDJSON, CSV or Arrow IPC, converts text to Arrow record
// batches with the stream's schema, and sends them in batches of --batch-rows, pipelined.
#include <poll.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrow/ipc/stream_decoder.h"
#include "arrow/json/csv_reader.h"
#include "arrow/json/json_reader.h"
#include "broker_commands.h"
#include "higgins/arrow/ipc/reader.h"
#include "io.h"
#include "produce_pipeline.h"
#include "progress.h"
#include "record_splitter.h"
#include "report.h"
#include "stop_on_signals.h"

namespace higgins::cli {
namespace {

namespace json = arrow::json;

constexpr size_t kReadBytes = 1 << 20;
/// A batch also ends once its text reaches this size, so requests stay well under the broker's
/// 64 MiB frame limit whatever --batch-rows says.
constexpr size_t kMaxBatchTextBytes = 16 << 20;
constexpr size_t kWindow = 8;
/// How often a blocked read looks at SIGINT / SIGTERM, in ms.
constexpr int kSignalCheckMs = 200;

struct ProduceOptions {
  std::string stream;
  std::string file = "-";
  std::string format = "json";
  uint64_t batch_rows = 5000;
  uint64_t linger_ms = 100;
  bool wait_for_derived = false;
};

/// The input being produced, and how far it has been read.
struct Input {
  std::FILE* file = nullptr;
  std::string name;              // for messages: 'path' or "standard input"
  std::optional<uint64_t> size;  // a regular file's size
  std::string head;              // the first bytes read, for format hints
  uint64_t bytes_read = 0;

  // Reads the next piece (empty at the end of the input). With `wait_ms` >= 0, gives up after
  // that long without input and sets *timed_out (the piece is then empty too). IOError once
  // SIGINT or SIGTERM asked the command to stop (StopOnSignals).
  Status Read(std::string* chunk, int wait_ms = -1, bool* timed_out = nullptr) {
    chunk->clear();
    if (timed_out != nullptr) *timed_out = false;
    pollfd ready{fileno(file), POLLIN, 0};
    for (int waited = 0;;) {
      if (StopOnSignals::requested()) {
        return Status::IOError("interrupted (SIGINT or SIGTERM) before the end of " + name);
      }
      // Slices of 200 ms at most, so a signal arriving just before poll is seen soon.
      const int slice = wait_ms < 0 ? kSignalCheckMs : std::min(kSignalCheckMs, wait_ms - waited);
      const int n = ::poll(&ready, 1, slice);
      if (n > 0) break;
      if (n < 0 && errno != EINTR) {
        return Status::IOError("cannot read " + name + ": " + std::strerror(errno));
      }
      if (n == 0 && wait_ms >= 0 && (waited += slice) >= wait_ms) {
        if (timed_out != nullptr) *timed_out = true;
        return Status::OK();
      }
    }
    HIGGINS_RETURN_IF_ERROR(ReadChunk(file, kReadBytes, chunk).WithContext("cannot read " + name));
    if (head.size() < 64) head.append(*chunk, 0, 64 - head.size());
    bytes_read += chunk->size();
    return Status::OK();
  }
};

/// What the command has done so far, for the progress line and the final messages.
struct Progress {
  ProgressLine line;
  uint64_t next_row = 0;  // rows of the input converted and sent

  void Update(const Input& input) { line.Update(input.bytes_read, next_row); }
};

// Where the text's first record byte is: after a UTF-8 byte order mark and blanks (npos if none).
size_t FirstTextByte(std::string_view text) {
  return text.find_first_not_of(" \t\r\n", text.starts_with("\xEF\xBB\xBF") ? 3 : 0);
}

// Why an input cannot be text of the given format (CSV when `csv`, else json or ndjson), or ""
// when it may be: Arrow IPC, gzip, UTF-16, or JSON given as CSV. Decided on the first bytes
// alone.
std::string NotTextReason(std::string_view head, bool csv) {
  const std::string what = csv ? "not CSV: " : "not JSON: ";
  if (arrow::ipc::LooksLikeIpc(head))
    return what + "the input looks like Arrow IPC; use --format arrow";
  if (head.starts_with("\x1F\x8B")) {
    return what +
           "the input is gzip-compressed; decompress it first (zcat FILE | higgins-cli "
           "produce ...)";
  }
  if (head.starts_with("\xFF\xFE") || head.starts_with("\xFE\xFF")) {
    return what +
           "the input is UTF-16 (it starts with a UTF-16 byte order mark); convert it to "
           "UTF-8 first (iconv -f UTF-16 -t UTF-8 FILE)";
  }
  if (csv) {
    const size_t at = FirstTextByte(head);
    if (at != std::string_view::npos && (head[at] == '{' || head[at] == '[')) {
      return what + "the input looks like JSON; use --format json";
    }
  }
  return "";
}

// The hint for an input that --format arrow could not decode.
std::string TextHint(std::string_view head) {
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  if (head[first] == '{' || head[first] == '[')
    return "; the input looks like JSON; use --format json";
  for (char c : head) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\r' && c != '\t') return "";
  }
  return "; the input looks like text; use --format json, ndjson or csv";
}

// The hint for text given as JSON whose first line looks like a CSV header.
std::string CsvHint(std::string_view text) {
  const std::string_view line = text.substr(0, text.find('\n'));
  return line.find(',') != std::string_view::npos ? "; the input looks like CSV; use --format csv"
                                                  : "";
}

// Sends a batch of rows already numbered in the input, slicing it to --batch-rows.
Status SendRows(const arrow::RecordBatch& batch, uint64_t batch_rows, ProducePipeline& pipeline,
                Progress& progress, const Input& input) {
  for (int64_t offset = 0; offset < batch.num_rows(); offset += static_cast<int64_t>(batch_rows)) {
    arrow::RecordBatch slice = batch.Slice(offset, static_cast<int64_t>(batch_rows));
    HIGGINS_RETURN_IF_ERROR(pipeline.Send({slice}, progress.next_row));
    progress.next_row += static_cast<uint64_t>(slice.num_rows());
    progress.Update(input);
  }
  return Status::OK();
}

// JSON whose first character is '[': one array, read whole (up to kMaxInputBytes).
Status ProduceJsonArray(Input& input, std::string first, const arrow::SchemaPtr& schema,
                        const ProduceOptions& o, ProducePipeline& pipeline, Progress& progress) {
  std::string all = std::move(first);
  std::string chunk;
  do {
    HIGGINS_RETURN_IF_ERROR(input.Read(&chunk));
    if (all.size() + chunk.size() > kMaxInputBytes) {
      return Status::ResourceExhausted("a JSON array larger than the limit of " +
                                       std::to_string(kMaxInputBytes >> 20) +
                                       " MiB; use NDJSON (one object per line), which is streamed");
    }
    all += chunk;
    progress.Update(input);
  } while (!chunk.empty());
  auto batch = json::ReadJson(all, schema);
  if (!batch.ok()) return batch.status();
  return SendRows(*batch, o.batch_rows, pipeline, progress, input);
}

// NDJSON, JSON objects or CSV: converted and sent a chunk of whole records at a time.
Status ProduceText(Input& input, std::string first, const arrow::SchemaPtr& schema,
                   const ProduceOptions& o, ProducePipeline& pipeline, Progress& progress) {
  const bool csv = o.format == "csv";
  RecordSplitter splitter(csv ? SplitMode::kCsv : SplitMode::kJson,
                          {.max_records = o.batch_rows, .max_bytes = kMaxBatchTextBytes});
  json::JsonReadOptions json_options;
  json_options.format = o.format == "ndjson" ? json::JsonFormat::kNdjson : json::JsonFormat::kAuto;
  std::string chunk = std::move(first);
  // A UTF-8 byte order mark is not part of the header (an input holding only one is empty).
  if (csv && chunk.starts_with("\xEF\xBB\xBF")) {
    chunk.erase(0, 3);
    if (chunk.empty()) HIGGINS_RETURN_IF_ERROR(input.Read(&chunk));
  }
  auto send = [&](const Chunk& piece) -> Status {
    auto batch =
        csv ? json::ReadCsv(piece.text, schema) : json::ReadJson(piece.text, schema, json_options);
    if (!batch.ok()) {
      return RebaseError(
          batch.status(),
          {.first_row = progress.next_row, .rows = piece.records, .first_byte = piece.first_byte});
    }
    if (batch->num_rows() == 0) return Status::OK();
    HIGGINS_RETURN_IF_ERROR(pipeline.Send({*batch}, progress.next_row));
    progress.next_row += static_cast<uint64_t>(batch->num_rows());
    progress.Update(input);
    return Status::OK();
  };
  // A pipe or a terminal may pause: records complete for --linger-ms are sent without waiting
  // for a full batch (a regular file is read to its end at once).
  const bool may_pause = !input.size.has_value();
  // When the oldest input not yet sent arrived: complete records wait --linger-ms from then at
  // most, however often more input comes (Kafka's linger.ms).
  std::chrono::steady_clock::time_point pending_since{};
  bool pending = false;
  while (true) {
    if (chunk.empty()) {
      splitter.Finish();
    } else {
      splitter.Append(chunk);
    }
    while (std::optional<Chunk> piece = splitter.Next()) HIGGINS_RETURN_IF_ERROR(send(*piece));
    if (chunk.empty()) {
      // A CSV header without data rows is still checked against the schema.
      if (csv && progress.next_row == 0 && splitter.header()) {
        auto header_only = json::ReadCsv(*splitter.header(), schema);
        if (!header_only.ok()) return header_only.status();
      }
      return Status::OK();
    }
    if (splitter.buffered_bytes() > kMaxInputBytes) {
      return Status::ResourceExhausted("row " + std::to_string(progress.next_row) +
                                       ": a record longer than the limit of " +
                                       std::to_string(kMaxInputBytes >> 20) + " MiB");
    }
    int wait_ms = -1;
    if (may_pause && splitter.buffered_bytes() > 0) {
      const auto now = std::chrono::steady_clock::now();
      if (!pending) {
        pending = true;
        pending_since = now;
      }
      const auto waited =
          std::chrono::duration_cast<std::chrono::milliseconds>(now - pending_since);
      wait_ms = static_cast<int>(
          std::max<int64_t>(0, static_cast<int64_t>(o.linger_ms) - waited.count()));
    } else {
      pending = false;
    }
    bool paused = false;
    HIGGINS_RETURN_IF_ERROR(input.Read(&chunk, wait_ms, &paused));
    if (paused) {
      if (std::optional<Chunk> piece = splitter.CutComplete())
        HIGGINS_RETURN_IF_ERROR(send(*piece));
      pending = false;  // what is left is one incomplete record, if anything
      HIGGINS_RETURN_IF_ERROR(input.Read(&chunk));
    }
  }
}

/// Regroups Arrow batches of any length into requests of --batch-rows rows.
class Rechunker {
 public:
  Rechunker(uint64_t batch_rows, ProducePipeline& pipeline, Progress& progress, const Input& input)
      : batch_rows_(batch_rows), pipeline_(pipeline), progress_(progress), input_(input) {}

  Status Add(const arrow::RecordBatch& batch) {
    for (int64_t offset = 0; offset < batch.num_rows();) {
      const int64_t take =
          std::min<int64_t>(static_cast<int64_t>(batch_rows_ - rows_), batch.num_rows() - offset);
      pending_.push_back(batch.Slice(offset, take));
      rows_ += static_cast<uint64_t>(take);
      offset += take;
      if (rows_ == batch_rows_) HIGGINS_RETURN_IF_ERROR(Flush());
    }
    return Status::OK();
  }

  Status Flush() {
    if (rows_ == 0) return Status::OK();
    HIGGINS_RETURN_IF_ERROR(pipeline_.Send(pending_, progress_.next_row));
    progress_.next_row += rows_;
    progress_.Update(input_);
    pending_.clear();
    rows_ = 0;
    return Status::OK();
  }

 private:
  uint64_t batch_rows_;
  ProducePipeline& pipeline_;
  Progress& progress_;
  const Input& input_;
  std::vector<arrow::RecordBatch> pending_;
  uint64_t rows_ = 0;
};

// An Arrow IPC file (read whole, up to kMaxInputBytes) or stream (decoded as it is read).
Status ProduceArrow(Input& input, std::string first, const ProduceOptions& o,
                    ProducePipeline& pipeline, Progress& progress) {
  Rechunker rechunker(o.batch_rows, pipeline, progress, input);
  std::string chunk = std::move(first);
  if (chunk.starts_with("ARROW1")) {
    BufferBuilder all;
    while (!chunk.empty()) {
      if (all.size() + chunk.size() > kMaxInputBytes) {
        return Status::ResourceExhausted("an Arrow IPC file larger than the limit of " +
                                         std::to_string(kMaxInputBytes >> 20) +
                                         " MiB; an IPC stream is read as it arrives");
      }
      all.Append(chunk.data(), chunk.size());
      HIGGINS_RETURN_IF_ERROR(input.Read(&chunk));
    }
    HIGGINS_ASSIGN_OR_RETURN(arrow::ipc::ReadResult file, arrow::ipc::ReadFile(all.Finish()));
    for (const arrow::RecordBatch& batch : file.batches)
      HIGGINS_RETURN_IF_ERROR(rechunker.Add(batch));
    return rechunker.Flush();
  }
  if (chunk.empty()) return Status::InvalidArgument("the input is empty, not an Arrow IPC stream");
  arrow::ipc::StreamDecoder decoder;
  while (true) {
    if (chunk.empty()) {
      HIGGINS_RETURN_IF_ERROR(decoder.Close());
    } else {
      HIGGINS_RETURN_IF_ERROR(decoder.Consume(
          std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size())));
    }
    while (auto event = decoder.Poll()) {
      if (event->kind == arrow::ipc::StreamDecoder::EventKind::kRecordBatch) {
        HIGGINS_RETURN_IF_ERROR(rechunker.Add(event->batch));
      }
    }
    if (chunk.empty()) return rechunker.Flush();
    HIGGINS_RETURN_IF_ERROR(input.Read(&chunk));
  }
}

Result<std::FILE*> OpenInput(const std::string& path, Input* input) {
  input->name = path == "-" ? "standard input" : "'" + path + "'";
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::IOError("cannot open '" + path + "': " + std::strerror(errno));
  }
  struct stat st;
  if (::fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode)) {
    input->size = static_cast<uint64_t>(st.st_size);
  }
  input->file = file;
  return file;
}

// Converts and sends the whole input; returns the first failure.
Status ProduceInput(Input& input, const arrow::SchemaPtr& schema, const ProduceOptions& o,
                    ProducePipeline& pipeline, Progress& progress) {
  std::string first;
  HIGGINS_RETURN_IF_ERROR(input.Read(&first));
  if (o.format == "arrow") {
    Status st = ProduceArrow(input, std::move(first), o, pipeline, progress);
    if (!st.ok() && st.code() != StatusCode::kResourceExhausted && progress.next_row == 0) {
      return Status(st.code(), st.message() + TextHint(input.head));
    }
    return st;
  }
  if (std::string reason = NotTextReason(input.head, o.format == "csv"); !reason.empty()) {
    return Status::InvalidArgument(reason);
  }
  if (o.format == "json") {
    while (FirstTextByte(first) == std::string::npos) {
      std::string more;
      HIGGINS_RETURN_IF_ERROR(input.Read(&more));
      if (more.empty()) break;
      first += more;
    }
    const size_t at = FirstTextByte(first);
    if (at != std::string::npos && first[at] != '{' && first[at] != '[') {
      return Status::InvalidArgument(std::string("not JSON: records are JSON objects, and the "
                                                 "input starts with '") +
                                     first[at] + "'" + CsvHint(first));
    }
    if (at != std::string::npos && first[at] == '[') {
      return ProduceJsonArray(input, std::move(first), schema, o, pipeline, progress);
    }
  }
  return ProduceText(input, std::move(first), schema, o, pipeline, progress);
}

Status Produce(const BrokerOptions& broker, const ProduceOptions& o) {
  Input input;
  HIGGINS_ASSIGN_OR_RETURN(std::FILE * file, OpenInput(o.file, &input));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file == stdin ? nullptr : file,
                                                         &std::fclose);
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(std::vector<StreamInfo> streams, client->Metadata(o.stream));
  if (streams.size() != 1 || streams[0].schema == nullptr) {
    return Status::Internal("the broker described " + std::to_string(streams.size()) +
                            " streams for '" + o.stream + "'");
  }
  // Refused by the broker too, but only once the first batch was converted.
  if (streams[0].kind == "errors") {
    return Status::InvalidArgument("stream '" + o.stream +
                                   "' holds the errors of a derived "
                                   "stream: its records are written by the broker");
  }
  if (streams[0].kind != "source") {
    return Status::InvalidArgument("stream '" + o.stream + "' is derived (" + streams[0].kind +
                                   "): its records are produced by the broker, not by clients");
  }
  ProducePipeline pipeline(*client, o.stream, kWindow, input.name);
  CallOptions call;
  call.wait_for_derived = o.wait_for_derived;
  pipeline.set_call_options(call);
  pipeline.set_partition_key(streams[0].partition_key);
  Progress progress{ProgressLine(input.size)};
  // Ctrl-C stops reading; what was sent is still waited for and reported. A second one kills.
  StopOnSignals signals(/*second_signal_kills=*/true);
  Status st = ProduceInput(input, streams[0].schema, o, pipeline, progress);
  // Errors about the input name it (reading errors already do); the broker's do not.
  if (!st.ok() && !pipeline.failed() && st.code() != StatusCode::kIOError) {
    st = st.WithContext(input.name);
  }
  Status sent = pipeline.Finish();  // an earlier request's failure comes first
  if (!sent.ok()) st = sent;
  progress.line.Clear();
  if (!st.ok()) {
    std::string message = st.message() + pipeline.Outcome();
    return Status(st.code(), message);
  }
  const double seconds = progress.line.elapsed_seconds();
  const uint64_t n = pipeline.produced();
  char duration[32];
  std::snprintf(duration, sizeof(duration), "%.2f", seconds);
  return WriteStdout("produced " + std::to_string(n) + (n == 1 ? " record" : " records") + " to " +
                     o.stream + " in " + duration + " s (" + FormatRate(n, seconds) + ")\n");
}

}  // namespace

void AddProduceCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code) {
  auto o = std::make_shared<ProduceOptions>();
  CLI::App* produce = app.add_subcommand(
      "produce", "Produce records to a stream from JSON, NDJSON, CSV or Arrow IPC");
  produce->add_option("-s,--stream", o->stream, "Stream to produce to")
      ->required()
      ->check(NonEmptyName());
  produce->add_option("-f,--file", o->file, "Input file; '-' (the default) reads standard input");
  produce
      ->add_option("--format", o->format,
                   "json: an object, an array or NDJSON; ndjson; csv with a header row; arrow: an "
                   "IPC stream or file")
      ->check(CLI::IsMember({"json", "ndjson", "csv", "arrow"}))
      ->capture_default_str();
  produce->add_flag("--wait-for-derived", o->wait_for_derived,
                    "Count a request done only once the map, reduce and join streams fed by "
                    "the stream, directly or not, have processed its records (read-your-writes; "
                    "up to 10 s each)");
  produce->add_option("--batch-rows", o->batch_rows, "Records per produce request")
      ->check(UnsignedInteger())
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}))
      ->capture_default_str();
  produce
      ->add_option("--linger-ms", o->linger_ms,
                   "When the input is a pipe or a terminal: how long complete records wait "
                   "for more input before they are sent without a full batch")
      ->check(UnsignedInteger())
      ->check(CLI::Range(uint64_t{0}, uint64_t{60'000}))
      ->capture_default_str();
  produce->callback([broker, o, exit_code] { Report(Produce(*broker, *o), exit_code); });
}

}  // namespace higgins::cli
