#include "produce_pipeline.h"

#include <cstring>

#include "higgins/arrow/ipc/writer.h"
#include "higgins/limits.h"
#include "record_splitter.h"

namespace higgins::cli {
namespace {

// Bytes a produce request adds around its Arrow IPC payload (frame header, message fields and
// the stream name), with a margin.
constexpr size_t kRequestOverhead = 1024;

std::string Records(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " record" : " records");
}

std::string RowRange(uint64_t first, uint64_t rows) {
  if (rows == 1) return "row " + std::to_string(first);
  return "rows " + std::to_string(first) + " to " + std::to_string(first + rows - 1);
}

Status CheckKeys(const arrow::RecordBatch& batch, const std::string& field, uint64_t first_row) {
  if (field.empty()) return Status::OK();
  const std::optional<size_t> index = batch.schema()->FieldIndex(field);
  if (!index) return Status::OK();  // the broker reports a schema mismatch
  const arrow::Array& column = batch.column(static_cast<int>(*index));
  const bool text = column.type().is_string();
  if (!text && !column.type().is_integer()) return Status::OK();
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    std::string why;
    if (column.IsNull(row)) {
      why = "the partition key is null";
    } else if (text) {
      const std::string_view bytes = column.BinaryValue(row);
      if (bytes.empty()) {
        why = "the partition key is empty";
      } else if (bytes.size() > kMaxPartitionKeyBytes) {
        why = "the partition key has " + std::to_string(bytes.size()) +
              " bytes, more than the limit of " + std::to_string(kMaxPartitionKeyBytes);
      } else if (std::memchr(bytes.data(), 0, bytes.size()) != nullptr) {
        why = "the partition key contains a zero byte";
      }
    }
    if (!why.empty()) {
      std::string message = "row " + std::to_string(first_row + static_cast<uint64_t>(row));
      message.append(", field '").append(field).append("': ").append(why);
      return Status::InvalidArgument(std::move(message));
    }
  }
  return Status::OK();
}

}  // namespace

ProducePipeline::ProducePipeline(Client& client, std::string stream, size_t window,
                                 std::string input_name)
    : client_(client),
      stream_(std::move(stream)),
      window_(window == 0 ? 1 : window),
      input_name_(std::move(input_name)) {}

void ProducePipeline::WaitOldest() {
  InFlight oldest = std::move(in_flight_.front());
  in_flight_.pop_front();
  Result<ProduceResult> result = oldest.reply.Get();
  // Sent after the failing request (not before it, as when a record too large fails locally).
  const bool after = failure_ && oldest.first_row >= failed_first_row_ + failed_rows_;
  if (after) after_failure_end_ = oldest.first_row + oldest.rows;
  if (result.ok()) {
    produced_ += result->num_rows();
    if (after) produced_after_failure_ += result->num_rows();
    return;
  }
  const StatusCode code = result.status().code();
  if (code == StatusCode::kDeadlineExceeded &&
      result.status().message().starts_with("the records were committed")) {
    // --wait-for-derived timed out: the broker committed the records (its reply says so).
    produced_ += oldest.rows;
    if (after) produced_after_failure_ += oldest.rows;
    if (!failure_) {
      failure_ = result.status();
      failed_first_row_ = oldest.first_row + oldest.rows;
      failed_rows_ = 0;
    }
    return;
  }
  if (after) failed_after_failure_ += oldest.rows;
  const bool connection = code == StatusCode::kIOError || code == StatusCode::kDeadlineExceeded;
  if (connection && !connection_failed_) {
    // This request and every one behind it were sent without a reply: in doubt.
    connection_failed_ = true;
    in_doubt_first_row_ = oldest.first_row;
    in_doubt_rows_ = 0;
    uint64_t end = oldest.first_row + oldest.rows;
    for (const InFlight& f : in_flight_) end = f.first_row + f.rows;
    in_doubt_rows_ = end - in_doubt_first_row_;
  }
  if (!failure_) {
    failure_ = RebaseError(result.status(), {.first_row = oldest.first_row, .rows = oldest.rows});
    if (!input_name_.empty() && failure_->message().starts_with("row ")) {
      failure_ = failure_->WithContext(input_name_);
    }
    if (!connection) {
      failed_first_row_ = oldest.first_row;
      failed_rows_ = oldest.rows;
    }
  }
}

Status ProducePipeline::Send(const std::vector<arrow::RecordBatch>& batches, uint64_t first_row) {
  while (!failure_ && in_flight_.size() >= window_) WaitOldest();
  if (failure_) return *failure_;
  uint64_t row = first_row;
  for (const arrow::RecordBatch& batch : batches) {
    HIGGINS_RETURN_IF_ERROR(CheckKeys(batch, partition_key_, row));
    row += static_cast<uint64_t>(batch.num_rows());
  }
  return SendOne(batches, first_row);
}

Status ProducePipeline::SendHalf(const std::vector<arrow::RecordBatch>& batches,
                                 uint64_t first_row) {
  while (!failure_ && in_flight_.size() >= window_) WaitOldest();
  if (failure_) return *failure_;
  return SendOne(batches, first_row);
}

Status ProducePipeline::SendOne(const std::vector<arrow::RecordBatch>& batches,
                                uint64_t first_row) {
  arrow::ipc::StreamWriter writer(batches.front().schema());
  uint64_t rows = 0;
  for (const arrow::RecordBatch& batch : batches) {
    HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(batch));
    rows += static_cast<uint64_t>(batch.num_rows());
  }
  HIGGINS_ASSIGN_OR_RETURN(Buffer payload, writer.Finish());
  const size_t request_bytes = payload.size() + stream_.size() + kRequestOverhead;
  if (request_bytes > kMaxRequestBytes) {
    if (rows > 1) {
      // Too large as one request: send it in two halves.
      std::vector<arrow::RecordBatch> all;
      for (const arrow::RecordBatch& b : batches) {
        if (b.num_rows() > 0) all.push_back(b);
      }
      const uint64_t half = rows / 2;
      std::vector<arrow::RecordBatch> first, second;
      uint64_t seen = 0;
      for (const arrow::RecordBatch& b : all) {
        const auto n = static_cast<uint64_t>(b.num_rows());
        if (seen + n <= half) {
          first.push_back(b);
        } else if (seen >= half) {
          second.push_back(b);
        } else {
          const auto cut = static_cast<int64_t>(half - seen);
          first.push_back(b.Slice(0, cut));
          second.push_back(b.Slice(cut, b.num_rows() - cut));
        }
        seen += n;
      }
      HIGGINS_RETURN_IF_ERROR(SendHalf(first, first_row));
      return SendHalf(second, first_row + half);
    }
    failure_ = Status::ResourceExhausted(
        "row " + std::to_string(first_row) + (input_name_.empty() ? "" : " of " + input_name_) +
        " is " + std::to_string(request_bytes) + " bytes as a request; the largest request is " +
        std::to_string(kMaxRequestBytes) + " bytes (--max-frame-bytes of the broker)");
    failed_first_row_ = first_row;
    failed_rows_ = 1;
    return *failure_;
  }
  Pending<ProduceResult> reply = client_.ProduceIpcAsync(stream_, payload.span(), call_options_);
  in_flight_.push_back(InFlight{std::move(reply), std::move(payload), first_row, rows});
  return Status::OK();
}

Status ProducePipeline::Finish() {
  while (!in_flight_.empty()) WaitOldest();
  return failure_ ? *failure_ : Status::OK();
}

std::string ProducePipeline::Outcome() const {
  if (connection_failed_) {
    std::string out = produced_ == 0
                          ? "; no records were acknowledged"
                          : "; " + Records(produced_) + (produced_ == 1 ? " was" : " were") +
                                " acknowledged and stay committed";
    if (in_doubt_rows_ > 0) {
      out += "; " + RowRange(in_doubt_first_row_, in_doubt_rows_) + " (" + Records(in_doubt_rows_) +
             ") " + (in_doubt_rows_ == 1 ? "was" : "were") +
             " in flight and may or may not be committed";
    }
    return out;
  }
  if (produced_ == 0) return "; no records were produced";
  const uint64_t before = produced_ - produced_after_failure_;
  std::string out = before == 0 ? "; no records were produced before the error"
                                : "; " + Records(before) + " " + (before == 1 ? "was" : "were") +
                                      " produced before the error and stay committed";
  if (after_failure_end_ > failed_first_row_ + failed_rows_) {
    const uint64_t first = failed_first_row_ + failed_rows_;
    out += "; of the batches already sent after the failing one (" +
           RowRange(first, after_failure_end_ - first) + "), ";
    if (failed_after_failure_ == 0) {
      out += "all " + Records(produced_after_failure_) + " were committed";
    } else if (produced_after_failure_ == 0) {
      out += "none were committed";
    } else {
      out += Records(produced_after_failure_) + " were committed and " +
             std::to_string(failed_after_failure_) + " were not";
    }
  }
  return out;
}

}  // namespace higgins::cli
