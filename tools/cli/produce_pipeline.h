#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "higgins/arrow/record_batch.h"
#include "higgins/buffer.h"
#include "higgins/client.h"

namespace higgins::cli {

/// The largest request the broker accepts by default (its --max-frame-bytes), and the client's.
inline constexpr size_t kMaxRequestBytes = size_t{64} << 20;

/// Sends record batches to one stream as produce requests, keeping up to `window` of them in
/// flight on the client's connection (the broker answers in order), so converting the next batch
/// overlaps with the broker committing the previous ones.
///
/// Each request commits atomically. The first request that fails stops the pipeline: nothing is
/// sent after it, and its error, with row numbers restated for the whole input (RebaseError), is
/// returned by the next Send or by Finish. Requests already in flight behind it are still
/// awaited: when the broker answered the failing one with an error, those that succeed are
/// committed and counted (produced_after_failure). When the failure is the connection's (IOError,
/// DeadlineExceeded), every request without a reply is in doubt: it may or may not have been
/// committed (in_doubt_first_row, in_doubt_rows). A request larger than kMaxRequestBytes is split
/// in halves; a single row that does not fit fails. Not thread-safe; `client` must outlive the
/// pipeline.
class ProducePipeline {
 public:
  /// `input_name` names the input in errors ('file.ndjson' or standard input).
  ProducePipeline(Client& client, std::string stream, size_t window, std::string input_name = "");

  /// Checks the partition keys of field `name` locally before sending (the broker's rules: not
  /// null; a string key 1 to 4096 bytes without a zero byte), so a bad key is reported with its
  /// row in the whole input and nothing of its batch is sent.
  void set_partition_key(std::string name) { partition_key_ = std::move(name); }
  /// Options of every produce request (read-your-writes).
  void set_call_options(CallOptions options) { call_options_ = options; }

  /// Sends `batches` (non-empty, one schema) as one Arrow IPC stream; its rows are the input's
  /// rows from `first_row` on. Waits for the oldest reply first when `window` requests are in
  /// flight. Returns the first failure once it is known.
  Status Send(const std::vector<arrow::RecordBatch>& batches, uint64_t first_row);
  /// Waits for every request in flight; returns the first failure, or OK.
  Status Finish();

  /// True once a request has failed.
  bool failed() const { return failure_.has_value(); }
  /// Records committed (acknowledged) so far.
  uint64_t produced() const { return produced_; }
  /// Records committed by requests sent after the one that failed.
  uint64_t produced_after_failure() const { return produced_after_failure_; }
  /// The rows of the failing request, when the broker refused it (not a connection failure).
  uint64_t failed_first_row() const { return failed_first_row_; }
  uint64_t failed_rows() const { return failed_rows_; }
  /// After a connection failure: the rows sent without a reply, which may or may not be
  /// committed (0 rows otherwise).
  uint64_t in_doubt_first_row() const { return in_doubt_first_row_; }
  uint64_t in_doubt_rows() const { return in_doubt_rows_; }
  bool connection_failed() const { return connection_failed_; }

  /// The sentence appended to a failure: what is committed, what is not, what is in doubt.
  std::string Outcome() const;

 private:
  struct InFlight {
    Pending<ProduceResult> reply;
    Buffer payload;  // kept until the reply arrives
    uint64_t first_row;
    uint64_t rows;
  };
  void WaitOldest();
  Status SendOne(const std::vector<arrow::RecordBatch>& batches, uint64_t first_row);
  Status SendHalf(const std::vector<arrow::RecordBatch>& batches, uint64_t first_row);

  Client& client_;
  std::string stream_;
  CallOptions call_options_;
  size_t window_;
  std::string input_name_;
  std::string partition_key_;
  std::deque<InFlight> in_flight_;
  std::optional<Status> failure_;
  bool connection_failed_ = false;
  uint64_t produced_ = 0;
  uint64_t produced_after_failure_ = 0;
  uint64_t failed_first_row_ = 0;
  uint64_t failed_rows_ = 0;
  uint64_t failed_after_failure_ = 0;  // rows of failed requests after the failing one
  uint64_t after_failure_end_ = 0;     // end of the last request awaited after the failure
  uint64_t in_doubt_first_row_ = 0;
  uint64_t in_doubt_rows_ = 0;
};

}  // namespace higgins::cli
