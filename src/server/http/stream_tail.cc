#include "server/http/stream_tail.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "arrow/json/json_writer.h"
#include "server/http/json_replies.h"
#include "server/http/ws_frame_encoder.h"

namespace higgins::server::http {
namespace {

// Entries read from one bucket per ReadBucket call while draining.
constexpr size_t kEntriesPerRead = 64;
// Readers handed a push per handler: at ~15 µs each (their post, then their socket write), other
// work on the tail's thread waits at most about a millisecond for a slice.
constexpr size_t kReadersPerSlice = 64;

}  // namespace

void RenderEntry(std::string_view stream, uint32_t bucket, const broker::BucketEntry& entry,
                 size_t first_row, std::vector<TailRecord>* out) {
  arrow::json::JsonRowWriter writer(entry.batch);
  std::string prefix = "{\"stream\":";
  arrow::json::AppendJsonString(stream, &prefix);
  std::string time;
  AppendCommitTime(entry.timestamp_ms, &time);
  const auto rows = static_cast<size_t>(entry.batch.num_rows());
  for (size_t r = first_row; r < rows && r < entry.keys.size() && r < entry.offsets.size(); ++r) {
    std::string frame = prefix;
    frame.append(",\"partition_key\":");
    arrow::json::AppendJsonString(entry.keys[r], &frame);
    frame.append(",\"offset\":");
    frame.append(std::to_string(entry.offsets[r]));
    frame.append(",\"bucket\":");
    frame.append(std::to_string(bucket));
    frame.append(",\"commit_time\":");
    frame.append(time);
    frame.append(",\"record\":");
    writer.AppendRow(static_cast<int64_t>(r), &frame);
    frame.push_back('}');
    auto wire = EncodeTextFrame(frame);
    if (!wire.ok()) {
      spdlog::warn("WebSocket push of {}: {}", stream, wire.status().ToString());
      continue;
    }
    out->push_back(TailRecord{bucket, entry.base_sequence + r, entry.keys[r], entry.offsets[r],
                              std::make_shared<const std::string>(std::move(frame)),
                              std::make_shared<const std::string>(std::move(*wire))});
  }
}

Result<std::string> EncodeArrayFrame(
    const std::vector<std::shared_ptr<const std::string>>& objects) {
  size_t bytes = 2;
  for (const auto& object : objects) bytes += object->size() + 1;
  std::string array;
  array.reserve(bytes);
  array.push_back('[');
  for (size_t i = 0; i < objects.size(); ++i) {
    if (i > 0) array.push_back(',');
    array.append(*objects[i]);
  }
  array.push_back(']');
  return EncodeTextFrame(array);
}

Result<std::shared_ptr<StreamTail>> StreamTail::Open(broker::BrokerApi* broker, std::string stream,
                                                     const asio::any_io_executor& executor,
                                                     std::chrono::microseconds push_interval) {
  HIGGINS_ASSIGN_OR_RETURN(auto logs, broker->DescribeBuckets(stream));
  Positions ends(logs.buckets);
  for (uint32_t b = 0; b < logs.buckets; ++b) {
    HIGGINS_ASSIGN_OR_RETURN(ends[b], broker->BucketEnd(stream, b));
  }
  std::shared_ptr<StreamTail> tail(
      new StreamTail(broker, std::move(stream), executor, push_interval, std::move(ends)));
  return tail;
}

StreamTail::StreamTail(broker::BrokerApi* broker, std::string stream,
                       const asio::any_io_executor& executor,
                       std::chrono::microseconds push_interval, Positions ends)
    : broker_(broker),
      stream_(std::move(stream)),
      push_interval_(push_interval),
      strand_(asio::make_strand(executor)),
      drain_timer_(strand_),
      next_(std::move(ends)) {}

uint64_t StreamTail::Subscribe(Sink sink, std::function<void(const Positions&)> started,
                               bool arrays) {
  uint64_t id = 0;
  {
    std::lock_guard lock(mu_);
    id = next_sink_++;
    sinks_.emplace(id, std::make_shared<const Reader>(Reader{std::move(sink), arrays}));
    if (arrays) ++array_readers_;
  }
  asio::post(strand_, [self = shared_from_this(), started = std::move(started)] {
    // A batch drained before this may already have reached the sink: it holds records before
    // these positions, which a reader catching up drops (it reads them itself).
    started(self->next_);
    self->Arm();
    self->Drain();  // what was committed before the wait was armed
  });
  return id;
}

size_t StreamTail::Unsubscribe(uint64_t id) {
  std::lock_guard lock(mu_);
  if (auto it = sinks_.find(id); it != sinks_.end()) {
    if (it->second->arrays) --array_readers_;
    sinks_.erase(it);
  }
  return sinks_.size();
}

void StreamTail::Stop() {
  uint64_t wait = 0;
  {
    std::lock_guard lock(mu_);
    stopped_ = true;
    sinks_.clear();
    array_readers_ = 0;
    if (armed_) wait = wait_id_;
    armed_ = false;
  }
  if (wait != 0) broker_->CancelCommitWait(stream_, wait);
}

void StreamTail::Arm() {
  std::lock_guard lock(mu_);
  if (armed_ || stopped_) return;
  std::weak_ptr<StreamTail> weak = weak_from_this();
  auto id = broker_->WaitForCommit(stream_, [weak] {
    auto self = weak.lock();
    if (!self) return;
    asio::post(self->strand_, [self] {
      {
        std::lock_guard lock(self->mu_);
        self->armed_ = false;
      }
      self->Arm();  // before reading, so that no commit after the read goes unnoticed
      self->ScheduleDrain();
    });
  });
  if (!id.ok()) {
    spdlog::warn("WebSocket tail of {}: cannot wait for commits: {}", stream_,
                 id.status().ToString());
    return;
  }
  wait_id_ = *id;
  armed_ = true;
}

void StreamTail::ScheduleDrain() {
  if (pushes_out_ > 0) {
    drain_waiting_ = true;
    return;
  }
  if (drain_scheduled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_drain_ >= push_interval_) {
    last_drain_ = now;
    Drain();
    return;
  }
  drain_scheduled_ = true;
  drain_timer_.expires_at(last_drain_ + push_interval_);
  drain_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    self->drain_scheduled_ = false;
    if (ec) return;
    self->ScheduleDrain();  // the interval has passed: drains unless a push is still going out
  });
}

void StreamTail::OnDelivered() {
  --pushes_out_;
  if (pushes_out_ == 0 && drain_waiting_) {
    drain_waiting_ = false;
    ScheduleDrain();
  }
}

void StreamTail::Drain() {
  auto batch = std::make_shared<TailRecords>();
  std::vector<TailRecord>& records = batch->records;
  for (uint32_t b = 0; b < next_.size(); ++b) {
    for (;;) {
      auto read = broker_->ReadBucket(stream_, b, next_[b], 1, kEntriesPerRead);
      if (!read.ok()) {
        if (read.status().code() != StatusCode::kOutOfRange) {
          spdlog::warn("WebSocket tail of {}: bucket {}: {}", stream_, b, read.status().ToString());
        }
        break;
      }
      for (const broker::BucketEntry& entry : read->entries) {
        const uint64_t rows = static_cast<uint64_t>(entry.batch.num_rows());
        if (entry.base_sequence + rows <= next_[b]) continue;
        const size_t first = next_[b] > entry.base_sequence ? next_[b] - entry.base_sequence : 0;
        RenderEntry(stream_, b, entry, first, &records);
        next_[b] = entry.base_sequence + rows;
      }
      if (read->entries.empty() || next_[b] >= read->end_sequence) break;
    }
  }
  if (records.empty()) return;
  std::vector<std::shared_ptr<const Reader>> readers;
  bool arrays = false;
  {
    std::lock_guard lock(mu_);
    readers.reserve(sinks_.size());
    for (const auto& [id, reader] : sinks_) readers.push_back(reader);
    arrays = array_readers_ > 0;
  }
  if (arrays) {
    std::vector<std::shared_ptr<const std::string>> objects;
    objects.reserve(records.size());
    for (const TailRecord& record : records) objects.push_back(record.json);
    auto frame = EncodeArrayFrame(objects);
    if (frame.ok()) {
      batch->array_frame = std::make_shared<const std::string>(std::move(*frame));
    } else {
      spdlog::warn("WebSocket push of {}: {}", stream_, frame.status().ToString());
    }
  }
  const TailBatch shared = std::move(batch);
  if (readers.empty()) return;
  // Let go of by the last reader once it has queued the batch: then the next push may start.
  // A stopped tail pushes no more, and is told nothing: at shutdown the last holder may be a
  // handler destroyed with its io_context, after the tail's own has gone.
  std::weak_ptr<StreamTail> weak = weak_from_this();
  const Delivery delivery(nullptr, [weak](void*) {
    auto self = weak.lock();
    if (!self) return;
    {
      std::lock_guard lock(self->mu_);
      if (self->stopped_) return;
    }
    asio::post(self->strand_, [self] { self->OnDelivered(); });
  });
  ++pushes_out_;
  HandOut(std::make_shared<const Push>(Push{std::move(readers), shared, delivery}), 0);
}

void StreamTail::HandOut(const std::shared_ptr<const Push>& push, size_t from) {
  const size_t end = std::min(from + kReadersPerSlice, push->readers.size());
  for (size_t r = from; r < end; ++r) push->readers[r]->sink(push->batch, push->delivery);
  if (end == push->readers.size()) return;
  // The rest in a handler of its own: the network thread turns to its sockets (a produce
  // waiting to be read, say) between slices, not once every reader's post has run.
  asio::post(strand_, [self = shared_from_this(), push, end] { self->HandOut(push, end); });
}

StreamTails::~StreamTails() {
  for (auto& [stream, tail] : tails_) tail->Stop();
}

Result<std::shared_ptr<StreamTail>> StreamTails::Get(const std::string& stream) {
  std::lock_guard lock(mu_);
  if (auto it = tails_.find(stream); it != tails_.end()) return it->second;
  HIGGINS_ASSIGN_OR_RETURN(auto tail, StreamTail::Open(broker_, stream, executor_, push_interval_));
  tails_.emplace(stream, tail);
  return tail;
}

void StreamTails::Leave(const std::string& stream, const std::shared_ptr<StreamTail>& tail,
                        uint64_t id) {
  std::lock_guard lock(mu_);
  if (tail->Unsubscribe(id) > 0) return;
  auto it = tails_.find(stream);
  if (it != tails_.end() && it->second == tail) {
    tail->Stop();
    tails_.erase(it);
  }
}

}  // namespace higgins::server::http
