// Fetch and ListOffsets (docs/kafka.md, "Fetch"): a Kafka partition is a bucket log and a Kafka
// offset a bucket sequence; records are sent as record batches v2, one or more per log entry, with
// the partition key as the key, the record as JSON as the value and its offset in its partition
// as the `higgins.offset` header; or, for a consumer that asks for Arrow, as one Kafka record per
// run of up to 1,000 rows, whose value is their Arrow IPC stream ("Values as Arrow").
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "arrow/json/json_writer.h"
#include "kafka/fetch.h"
#include "kafka/list_offsets.h"
#include "kafka/record_batch.h"
#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_requests.h"
#include "server/wire_replies.h"

namespace higgins::server::kafka {

using namespace higgins::kafka;  // NOLINT(google-build-using-namespace): the codec's names

namespace {

// Records per record batch in a fetch response: log entries can hold a million rows, and a
// consumer must be able to stop between batches at its byte limits.
constexpr size_t kRecordsPerBatch = 1000;
// What one read of a bucket log takes (ReadBucket).
constexpr uint64_t kRowsPerRead = 4096;
constexpr size_t kEntriesPerRead = 64;
constexpr std::string_view kOffsetHeader = "higgins.offset";
constexpr std::string_view kRowsHeader = "higgins.rows";

/// A long-polling fetch: what it asked, and when it must answer.
struct FetchState {
  explicit FetchState(const asio::any_io_executor& executor) : timer(executor) {}
  RequestHeader header;
  FetchRequest request;
  std::shared_ptr<const std::string> body;
  KafkaHandler::Done done;
  asio::steady_timer timer;
  std::chrono::steady_clock::time_point deadline;
  ValueFormat format = ValueFormat::kJson;
  /// The commit waits registered while the fetch waits: (stream, id), one per stream.
  std::vector<std::pair<std::string, uint64_t>> waits;
  bool answered = false;
};

}  // namespace

void KafkaHandler::Fetch(const RequestHeader& header, Reader& reader, Body body,
                         const asio::any_io_executor& executor, Done done) {
  auto request = DecodeFetchRequest(reader, header.api_version);
  if (!request.ok())
    return done(CloseWith("malformed Fetch request: " + request.status().message()));
  auto state = std::make_shared<FetchState>(executor);
  state->header = header;
  state->request = *std::move(request);
  state->body = std::move(body);
  state->done = std::move(done);
  state->format = ValueFormatFor(header.client_id);
  const int32_t wait = std::clamp(state->request.max_wait_ms, 0, options_.max_fetch_wait_ms);
  state->deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait);
  FetchOnce(std::move(state));
}

void KafkaHandler::FetchOnce(const std::shared_ptr<void>& opaque) {
  auto state = std::static_pointer_cast<FetchState>(opaque);
  const FetchRequest& request = state->request;
  size_t partitions = 0;
  for (const FetchTopic& topic : request.topics) partitions += topic.partitions.size();
  // The response's records are views into these buffers, one per partition.
  std::vector<std::string> buffers;
  buffers.reserve(partitions);
  FetchResponse response;
  size_t total = 0;
  bool error = false;
  const size_t max_bytes = request.max_bytes > 0 ? static_cast<size_t>(request.max_bytes) : 0;
  for (const FetchTopic& topic : request.topics) {
    FetchTopicResponse& out_topic = response.responses.emplace_back();
    out_topic.topic = std::string(topic.topic);
    for (const FetchPartition& partition : topic.partitions) {
      FetchPartitionResponse& out = out_topic.partitions.emplace_back();
      std::string& buffer = buffers.emplace_back();
      // KIP-74: the request's max_bytes bounds the response, except that the first batch is
      // always returned whole, so that a consumer can never be stuck behind a large one.
      const size_t left = total == 0 ? max_bytes : (max_bytes > total ? max_bytes - total : 0);
      ReadPartition(topic.topic, partition, PartitionRead{left, total == 0, state->format}, &out,
                    &buffer);
      out.records = buffer;
      total += buffer.size();
      error = error || out.error_code != ErrorCode::kNone;
    }
  }
  const bool enough = total >= static_cast<size_t>(std::max(request.min_bytes, 1));
  if (enough || error || std::chrono::steady_clock::now() >= state->deadline) {
    state->answered = true;
    return state->done(KafkaReply{ResponseFrame(state->header, [&](Writer& writer) {
      EncodeFetchResponse(response, state->header.api_version, writer);
    })});
  }
  // Long poll: wait for the next commit to one of the streams, or the deadline, then read
  // again. The timer's handler is that next read: a commit cancels the timer to run it early.
  // The wait holds the fetch weakly, and no executor of its own: a wait can outlive the
  // session and its io_context (the broker stopping), and must then be harmless to destroy.
  std::weak_ptr<FetchState> weak = state;
  for (const FetchTopicResponse& topic : response.responses) {
    const bool registered =
        std::any_of(state->waits.begin(), state->waits.end(),
                    [&](const auto& wait) { return wait.first == topic.topic; });
    if (registered) continue;
    auto id = api_->WaitForCommit(topic.topic, [weak] {
      auto woken = weak.lock();
      if (!woken) return;
      asio::post(woken->timer.get_executor(), [weak] {
        if (auto fetch = weak.lock(); fetch && !fetch->answered) fetch->timer.cancel();
      });
    });
    if (id.ok()) state->waits.emplace_back(topic.topic, *id);
  }
  // A commit between the reads above and the waits would wake nobody: look at the ends again.
  bool moved = false;
  for (const FetchTopicResponse& topic : response.responses) {
    for (const FetchPartitionResponse& partition : topic.partitions) {
      auto end = api_->BucketEnd(topic.topic, static_cast<uint32_t>(partition.partition_index));
      moved = moved || (end.ok() && static_cast<int64_t>(*end) != partition.high_watermark);
    }
  }
  if (moved) {
    state->timer.expires_after(std::chrono::milliseconds(0));
  } else {
    state->timer.expires_at(state->deadline);
  }
  state->timer.async_wait([this, state](const boost::system::error_code&) {
    for (const auto& [stream, id] : state->waits) api_->CancelCommitWait(stream, id);
    state->waits.clear();
    FetchOnce(state);
  });
}

void KafkaHandler::ReadPartition(std::string_view stream, const FetchPartition& partition,
                                 const PartitionRead& how, FetchPartitionResponse* out,
                                 std::string* buffer) const {
  out->partition_index = partition.partition;
  auto logs = api_->DescribeBuckets(stream);
  if (!logs.ok() || partition.partition < 0 ||
      static_cast<uint32_t>(partition.partition) >= logs->buckets) {
    out->error_code = ErrorCode::kUnknownTopicOrPartition;
    return;
  }
  const auto bucket = static_cast<uint32_t>(partition.partition);
  auto end = api_->BucketEnd(stream, bucket);
  if (!end.ok()) {
    out->error_code = ErrorFor(end.status());
    return;
  }
  out->high_watermark = static_cast<int64_t>(*end);
  out->last_stable_offset = out->high_watermark;  // no transactions: everything is stable
  out->log_start_offset = 0;
  if (partition.fetch_offset < 0 || partition.fetch_offset > out->high_watermark) {
    out->error_code = ErrorCode::kOffsetOutOfRange;
    return;
  }
  size_t limit =
      std::min(how.max_bytes, static_cast<size_t>(std::max(partition.partition_max_bytes, 0)));
  auto sequence = static_cast<uint64_t>(partition.fetch_offset);
  std::vector<std::string> values;
  std::vector<std::string> offsets;
  std::vector<std::array<Header, 1>> headers;
  std::vector<RecordToWrite> records;
  // The first batch of a response goes out whatever its size (KIP-74).
  auto full = [&] { return buffer->size() >= limit && !(how.first && buffer->empty()); };
  // Rows [row, stop) of `entry` as one record batch: a record per row (JSON), or one record
  // holding them all as an Arrow IPC stream, at the offset of the last.
  auto append = [&](const broker::BucketEntry& entry, arrow::json::JsonRowWriter& writer,
                    uint64_t row, uint64_t stop) -> Status {
    const size_t n = stop - row;
    BatchToWrite batch;
    batch.base_offset = static_cast<int64_t>(entry.base_sequence + row);
    if (how.format == ValueFormat::kArrow) {
      const arrow::RecordBatch rows =
          entry.batch.Slice(static_cast<int64_t>(row), static_cast<int64_t>(n));
      values.resize(1);
      offsets.resize(1);
      headers.resize(1);
      HIGGINS_ASSIGN_OR_RETURN(values[0], EncodeIpc(rows.schema(), &rows));
      offsets[0] = std::to_string(n);
      headers[0][0] = Header{kRowsHeader, offsets[0]};
      batch.base_offset += static_cast<int64_t>(n) - 1;
      const RecordToWrite record{entry.timestamp_ms, std::nullopt, values[0], headers[0]};
      batch.records = std::span(&record, 1);
      return AppendRecordBatch(batch, *buffer);
    }
    values.assign(n, std::string());
    offsets.assign(n, std::string());
    headers.resize(n);
    records.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t r = row + i;
      writer.AppendRow(static_cast<int64_t>(r), &values[i]);
      offsets[i] = std::to_string(entry.offsets[r]);
      headers[i][0] = Header{kOffsetHeader, offsets[i]};
      records[i] = RecordToWrite{entry.timestamp_ms, entry.keys[r], values[i], headers[i]};
    }
    batch.records = records;
    return AppendRecordBatch(batch, *buffer);
  };
  while (sequence < *end && !full()) {
    auto read = api_->ReadBucket(stream, bucket, sequence, kRowsPerRead, kEntriesPerRead);
    if (!read.ok()) {
      if (buffer->empty()) out->error_code = ErrorFor(read.status());
      return;
    }
    if (read->entries.empty()) return;
    for (const broker::BucketEntry& entry : read->entries) {
      arrow::json::JsonRowWriter writer(entry.batch);
      const auto rows = static_cast<uint64_t>(entry.batch.num_rows());
      uint64_t row = sequence > entry.base_sequence ? sequence - entry.base_sequence : 0;
      while (row < rows && !full()) {
        uint64_t stop = std::min(rows, row + kRecordsPerBatch);
        // Only the response's first batch may go over the limits (KIP-74): a later batch that
        // would is made smaller, down to one record, and left for the next fetch if even that
        // does not fit.
        const size_t before = buffer->size();
        const bool may_exceed = how.first && before == 0;
        for (;;) {
          if (Status s = append(entry, writer, row, stop); !s.ok()) {
            spdlog::error("Kafka fetch of {} partition {}: {}", stream, bucket, s.ToString());
            if (buffer->empty()) out->error_code = ErrorCode::kUnknownServerError;
            return;
          }
          if (may_exceed || buffer->size() <= limit) break;
          buffer->resize(before);
          if (stop - row == 1) return;
          stop = row + (stop - row) / 2;
        }
        row = stop;
        sequence = entry.base_sequence + row;
      }
      if (full()) return;
    }
  }
}

KafkaReply KafkaHandler::ListOffsets(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeListOffsetsRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed ListOffsets request: " + request.status().message());
  }
  ListOffsetsResponse response;
  for (const ListOffsetsTopic& topic : request->topics) {
    ListOffsetsTopicResponse& out_topic = response.topics.emplace_back();
    out_topic.name = std::string(topic.name);
    for (const ListOffsetsPartition& partition : topic.partitions) {
      ListOffsetsPartitionResponse& out = out_topic.partitions.emplace_back();
      out.partition_index = partition.partition_index;
      auto logs = api_->DescribeBuckets(topic.name);
      if (!logs.ok() || partition.partition_index < 0 ||
          static_cast<uint32_t>(partition.partition_index) >= logs->buckets) {
        out.error_code = ErrorCode::kUnknownTopicOrPartition;
        continue;
      }
      const auto bucket = static_cast<uint32_t>(partition.partition_index);
      if (partition.timestamp == kEarliestTimestamp) {
        out.offset = 0;
        continue;
      }
      if (partition.timestamp == kLatestTimestamp) {
        auto end = api_->BucketEnd(topic.name, bucket);
        if (!end.ok()) {
          out.error_code = ErrorFor(end.status());
        } else {
          out.offset = static_cast<int64_t>(*end);
        }
        continue;
      }
      // The first record committed at or after the time asked for; -1 and -1 when none is.
      auto at = api_->BucketAtTime(topic.name, bucket, partition.timestamp);
      if (!at.ok()) {
        out.error_code = ErrorFor(at.status());
      } else if (*at) {
        out.offset = static_cast<int64_t>((*at)->sequence);
        out.timestamp = (*at)->timestamp_ms;
      }
    }
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeListOffsetsResponse(response, header.api_version, writer);
  })};
}

}  // namespace higgins::server::kafka
