#include "produce_pipeline.h"

#include "higgins/arrow/ipc/writer.h"
#include "record_splitter.h"

namespace higgins::cli {

ProducePipeline::ProducePipeline(Client& client, std::string stream, size_t window)
    : client_(client), stream_(std::move(stream)), window_(window == 0 ? 1 : window) {}

void ProducePipeline::WaitOldest() {
  InFlight oldest = std::move(in_flight_.front());
  in_flight_.pop_front();
  Result<ProduceResult> result = oldest.reply.Get();
  if (result.ok()) {
    produced_ += result->num_rows();
    if (failure_) produced_after_failure_ += result->num_rows();
  } else if (!failure_) {
    failure_ = RebaseError(result.status(), oldest.first_row, oldest.rows, 0);
  }
}

Status ProducePipeline::Send(const std::vector<arrow::RecordBatch>& batches, uint64_t first_row) {
  while (!failure_ && in_flight_.size() >= window_) WaitOldest();
  if (failure_) return *failure_;
  arrow::ipc::StreamWriter writer(batches.front().schema());
  uint64_t rows = 0;
  for (const arrow::RecordBatch& batch : batches) {
    HIGGINS_RETURN_IF_ERROR(writer.WriteBatch(batch));
    rows += static_cast<uint64_t>(batch.num_rows());
  }
  HIGGINS_ASSIGN_OR_RETURN(Buffer payload, writer.Finish());
  Pending<ProduceResult> reply = client_.ProduceIpcAsync(stream_, payload.span());
  in_flight_.push_back(InFlight{std::move(reply), std::move(payload), first_row, rows});
  return Status::OK();
}

Status ProducePipeline::Finish() {
  while (!in_flight_.empty()) WaitOldest();
  return failure_ ? *failure_ : Status::OK();
}

}  // namespace higgins::cli
