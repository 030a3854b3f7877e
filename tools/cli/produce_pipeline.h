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

/// Sends record batches to one stream as produce requests, keeping up to `window` of them in
/// flight on the client's connection (the broker answers in order), so converting the next batch
/// overlaps with the broker committing the previous ones.
///
/// Each request commits atomically. The first request that fails stops the pipeline: its error,
/// with row numbers restated for the whole input (RebaseError), is returned by the next Send or
/// by Finish. Requests already in flight behind it are still awaited, and those that succeed are
/// committed too (produced_after_failure counts their records). Not thread-safe; `client` must
/// outlive the pipeline.
class ProducePipeline {
 public:
  ProducePipeline(Client& client, std::string stream, size_t window);

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

 private:
  struct InFlight {
    Pending<ProduceResult> reply;
    Buffer payload;  // kept until the reply arrives
    uint64_t first_row;
    uint64_t rows;
  };
  void WaitOldest();

  Client& client_;
  std::string stream_;
  size_t window_;
  std::deque<InFlight> in_flight_;
  std::optional<Status> failure_;
  uint64_t produced_ = 0;
  uint64_t produced_after_failure_ = 0;
};

}  // namespace higgins::cli
