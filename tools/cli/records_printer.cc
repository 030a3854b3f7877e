#include "records_printer.h"

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "higgins/arrow/ipc/writer.h"
#include "io.h"
#include "output_format.h"
#include "time_text.h"

namespace higgins::cli {
namespace {

/// The offset of row `row`: for a window, the member's base offset.
uint64_t RowOffset(const Records& records, size_t row) {
  return (records.window ? records.window->first_offset : records.offset) + row;
}

class TablePrinter : public RecordsPrinter {
 public:
  explicit TablePrinter(bool partition) : partition_(partition) {}

  Status Print(const Records& records) override {
    if (records.window) {
      // A window stands alone: its heading, then its members under their own header.
      HIGGINS_RETURN_IF_ERROR(Flush());
      header_written_ = false;
      heading_ = WindowHeading(records.offset, *records.window, records.num_rows()) + "\n";
    }
    if (!table_) table_.emplace(Header(records));
    HIGGINS_ASSIGN_OR_RETURN(auto cells, RenderCells(records.batch));
    for (int64_t row = 0; row < records.num_rows(); ++row) {
      const auto r = static_cast<size_t>(row);
      std::vector<std::string> line;
      if (partition_) {
        line.push_back(TableText(records.partition_key));
        line.push_back(records.redelivered ? "true" : "false");
      }
      line.push_back(std::to_string(RowOffset(records, r)));
      line.push_back(r < records.timestamps_ms.size() ? FormatTimestampMs(records.timestamps_ms[r])
                                                      : "");
      for (const auto& column : cells) line.push_back(column[r]);
      table_->AddRow(std::move(line));
    }
    if (records.window) {
      HIGGINS_RETURN_IF_ERROR(Flush());
      header_written_ = false;
    }
    return Status::OK();
  }

  Status Flush() override {
    if (!table_) return Status::OK();
    std::string rendered = table_->Render();
    if (header_written_) rendered.erase(0, rendered.find('\n') + 1);
    header_written_ = true;
    table_.reset();
    std::string out = std::move(heading_) + rendered;
    heading_.clear();
    return WriteStdout(out);
  }

  Status Finish() override { return Flush(); }

 private:
  std::vector<std::string> Header(const Records& records) const {
    std::vector<std::string> header;
    if (partition_) {
      header.push_back("partition");
      header.push_back("redelivered");
    }
    header.push_back("offset");
    header.push_back("timestamp");
    for (const arrow::Field& f : records.batch.schema()->fields()) {
      header.push_back(TableText(f.name));
    }
    return header;
  }

  const bool partition_;
  std::string heading_;
  std::optional<TextTable> table_;
  bool header_written_ = false;
};

class JsonPrinter : public RecordsPrinter {
 public:
  JsonPrinter(bool array, bool partition) : array_(array), partition_(partition) {}

  Status Print(const Records& records) override {
    std::vector<std::string> lines = RenderJsonRows(records.batch);
    for (size_t r = 0; r < lines.size(); ++r) {
      const uint64_t timestamp = r < records.timestamps_ms.size() ? records.timestamps_ms[r] : 0;
      lines[r] = RecordEnvelope(RowOffset(records, r), timestamp, lines[r]);
      if (partition_ && !records.window) {
        lines[r] = WithDelivery(records.partition_key, records.redelivered, lines[r]);
      }
    }
    if (records.window) {
      lines = {WindowEnvelope(records.offset, *records.window, lines)};
      if (partition_) {
        lines[0] = WithDelivery(records.partition_key, records.redelivered, lines[0]);
      }
    }
    std::string out;
    for (const std::string& line : lines) {
      if (array_) out += count_++ == 0 ? "[\n" : ",\n";
      out += line;
      if (!array_) out += '\n';
    }
    return WriteStdout(out);
  }
  Status Flush() override { return Status::OK(); }
  Status Finish() override {
    if (!array_) return Status::OK();
    return WriteStdout(count_ == 0 ? "[]\n" : "\n]\n");
  }

 private:
  const bool array_;
  const bool partition_;
  uint64_t count_ = 0;
};

class ArrowPrinter : public RecordsPrinter {
 public:
  explicit ArrowPrinter(bool partition) : partition_(partition) {}

  Status Print(const Records& records) override {
    if (partition_ && records.redelivered) NoteRedelivery(records);
    if (!writer_) {
      arrow::SchemaPtr schema = records.batch.schema();
      if (records.window) {
        arrow::KeyValueMetadata metadata = schema->metadata();
        for (auto& entry : WindowMetadata(records.offset, *records.window)) {
          metadata.push_back(std::move(entry));
        }
        schema = arrow::MakeSchema(schema->fields(), std::move(metadata));
      }
      writer_ = std::make_unique<arrow::ipc::StreamWriter>(std::move(schema));
    }
    HIGGINS_RETURN_IF_ERROR(writer_->WriteBatch(records.batch));
    return WriteStdout(writer_->TakeBytes().view());
  }
  Status Flush() override { return Status::OK(); }
  Status Finish() override {
    if (!writer_) return Status::OK();
    HIGGINS_ASSIGN_OR_RETURN(Buffer rest, writer_->Finish());
    return WriteStdout(rest.view());
  }

 private:
  // The IPC stream has no place for it, so a redelivery is a line on standard error.
  static void NoteRedelivery(const Records& records) {
    std::string note = "redelivered: partition '" + TableText(records.partition_key) + "', ";
    if (records.window) {
      note += "window " + std::to_string(records.offset);
    } else {
      const auto rows = static_cast<uint64_t>(records.num_rows());
      note += rows == 1 ? "offset " + std::to_string(records.offset)
                        : "offsets " + std::to_string(records.offset) + " to " +
                              std::to_string(records.offset + rows - 1);
    }
    std::fflush(stdout);
    std::fputs((note + "\n").c_str(), stderr);
  }

  const bool partition_;
  std::unique_ptr<arrow::ipc::StreamWriter> writer_;
};

}  // namespace

std::unique_ptr<RecordsPrinter> MakePrinter(const PrinterOptions& options) {
  if (options.output == "json") return std::make_unique<JsonPrinter>(true, options.partition);
  if (options.output == "ndjson") return std::make_unique<JsonPrinter>(false, options.partition);
  if (options.output == "arrow") return std::make_unique<ArrowPrinter>(options.partition);
  return std::make_unique<TablePrinter>(options.partition);
}

}  // namespace higgins::cli
