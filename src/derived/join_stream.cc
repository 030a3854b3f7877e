#include "derived/join_stream.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/quote.h"
#include "stream/partitioning.h"

namespace higgins::derived {

std::string JoinProgressId(std::string_view join, size_t participant) {
  return std::string(join) + '\x1f' + std::to_string(participant);
}

JoinStream::JoinStream(Options options) : options_(std::move(options)) {
  for (const auto& participant : options_.participants) {
    first_.push_back(slots_);
    slots_ += participant->buckets();
  }
  committed_ = std::make_unique<std::atomic<Sequence>[]>(slots_);
  const stream::StreamLog& derived = *options_.derived;
  for (BucketId b : Buckets(derived.buckets())) {
    const Sequence visible = derived.index().VisibleSequence(b);
    if (visible == Sequence(0)) continue;
    auto last = derived.index().VisibleEntries(b, visible - 1, 1);
    if (!last.empty()) last_timestamp_ms_ = std::max(last_timestamp_ms_, last.back().timestamp_ms);
  }
}

Result<std::unique_ptr<JoinStream>> JoinStream::Start(Options options) {
  std::unique_ptr<JoinStream> join(new JoinStream(std::move(options)));
  std::vector<Sequence> from(join->slots_, Sequence(0));
  if (join->options_.intents && join->options_.intents->last()) {
    const JoinIntent& last = *join->options_.intents->last();
    if (last.from.size() != join->slots_ || last.to.size() != join->slots_) {
      return Status::Corruption("join stream '" + join->name() + "': the intent log names " +
                                std::to_string(last.from.size()) +
                                " participant buckets, the participants have " +
                                std::to_string(join->slots_));
    }
    from = last.from;
  }
  for (size_t i = 0; i < join->slots_; ++i) join->committed_[i] = from[i];
  join->Resync();
  return join;
}

void JoinStream::Resync() {
  states_.clear();
  cursor_.resize(slots_);
  for (size_t i = 0; i < slots_; ++i) cursor_[i] = committed_[i].load();
  redo_.reset();
  // The last intent starts at the committed cursors when its step may be half committed (a
  // crash, or a failed commit): redo exactly its input, skipping what the join stream holds.
  if (options_.intents && options_.intents->last() && options_.intents->last()->from == cursor_ &&
      options_.intents->last()->to != cursor_) {
    redo_ = options_.intents->last()->to;
  }
}

uint64_t JoinStream::Processed(size_t participant, std::string_view key) const {
  const stream::StreamLog& p = *options_.participants[participant];
  const Sequence cursor = committed_[Slot(participant, stream::BucketOf(key, p.buckets()))].load();
  return p.index().OffsetAtSequence(key, cursor);
}

Result<bool> JoinStream::Step(udf::Sandbox*, int max_calls) {
  for (int call = 0; call < max_calls; ++call) {
    bool worked = false;
    auto more = StepOnce(&worked);
    if (!more.ok()) {
      Resync();
      return more.status();
    }
    if (!worked) break;
  }
  for (size_t p = 0; p < options_.participants.size(); ++p) {
    const stream::StreamLog& participant = *options_.participants[p];
    for (BucketId b : Buckets(participant.buckets())) {
      if (cursor_[Slot(p, b)] < participant.index().VisibleSequence(b)) return true;
    }
  }
  return false;
}

Result<JoinStream::KeyState*> JoinStream::State(const std::string& key) {
  auto [it, fresh] = states_.try_emplace(key);
  KeyState& state = it->second;
  if (!fresh) return &state;
  state.latest.resize(options_.participants.size());
  for (size_t p = 0; p < options_.participants.size(); ++p) {
    const stream::StreamLog& participant = *options_.participants[p];
    const uint64_t below = participant.index().OffsetAtSequence(
        key, cursor_[Slot(p, stream::BucketOf(key, participant.buckets()))]);
    state.next += below;
    if (below == 0) continue;
    auto row = participant.At(key, below - 1);
    if (!row.ok()) {
      states_.erase(it);
      return row.status().WithContext("join stream '" + name() + "': reading participant '" +
                                      participant.name() + "'");
    }
    state.latest[p] = {std::make_shared<const arrow::RecordBatch>(std::move(row->batch)), 0};
  }
  state.done = options_.derived->index().Count(key);
  return &state;
}

Result<bool> JoinStream::StepOnce(bool* worked) {
  const size_t participants = options_.participants.size();
  // Plan: whole entries from each participant bucket, up to the redo end or the step's size.
  std::vector<Sequence> to = cursor_;
  std::vector<std::vector<storage::EntryInfo>> entries(slots_);
  int64_t rows = 0;
  for (size_t p = 0; p < participants; ++p) {
    const stream::StreamLog& participant = *options_.participants[p];
    for (BucketId b : Buckets(participant.buckets())) {
      const size_t slot = Slot(p, b);
      const Sequence end = redo_ ? (*redo_)[slot] : Sequence(UINT64_MAX);
      if (cursor_[slot] >= end) continue;
      for (const storage::EntryInfo& entry :
           participant.index().VisibleEntries(b, cursor_[slot], options_.max_entries_per_bucket)) {
        if (redo_ ? entry.base_sequence >= end : rows >= options_.max_rows_per_step && rows > 0) {
          break;
        }
        entries[slot].push_back(entry);
        to[slot] = entry.end_sequence();
        rows += entry.row_count;
      }
    }
  }
  if (redo_ && to != *redo_) {
    // Visible input should reach what an intent named: it was visible when the step read it.
    // Keep the intent's range when more becomes visible, and go on with what there is now.
    spdlog::warn("join stream '{}': the input of the last intent is not all visible yet", name());
    if (rows == 0) return false;
  }
  if (rows == 0) {
    redo_.reset();
    return false;
  }
  *worked = true;
  if (options_.intents && !redo_) {
    HIGGINS_RETURN_IF_ERROR(options_.intents->Append(JoinIntent{cursor_, to})
                                .WithContext("join stream '" + name() + "': intent log"));
  }
  if (states_.size() > kMaxCachedStates) states_.clear();

  // Events: every record read, ordered by timestamp, then participant, bucket and sequence.
  struct Event {
    int64_t timestamp_ms;
    uint32_t participant;
    uint32_t batch;
    int64_t row;
  };
  std::vector<std::shared_ptr<const arrow::RecordBatch>> batches;
  std::vector<Event> events;
  events.reserve(static_cast<size_t>(rows));
  for (size_t p = 0; p < participants; ++p) {
    const stream::StreamLog& participant = *options_.participants[p];
    for (BucketId b : Buckets(participant.buckets())) {
      for (const storage::EntryInfo& entry : entries[Slot(p, b)]) {
        HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, participant.ReadEntry(b, entry));
        const auto index = static_cast<uint32_t>(batches.size());
        for (int64_t r = 0; r < batch.num_rows(); ++r) {
          events.push_back(Event{entry.timestamp_ms, static_cast<uint32_t>(p), index, r});
        }
        batches.push_back(std::make_shared<const arrow::RecordBatch>(std::move(batch)));
      }
    }
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.timestamp_ms < b.timestamp_ms; });

  // Joined records, in event order; one derived entry per run of equal timestamps.
  stream::StreamLog& derived = *options_.derived;
  const arrow::Schema& schema = *derived.schema();
  const int out_key = derived.key_column();
  std::vector<arrow::ArrayBuilder> builders;
  for (size_t f = 0; f < schema.num_fields(); ++f) builders.emplace_back(schema.field(f).type);
  std::vector<stream::PreparedProduce> produced;
  std::vector<int64_t> timestamps;
  std::vector<std::vector<std::string>> progressed(participants);
  std::vector<KeyState*> touched;
  std::unordered_map<std::string, uint32_t> entry_keys;  // keys of produced.back()
  int64_t out_rows = 0;
  std::string key;
  for (const Event& event : events) {
    const arrow::RecordBatch& batch = *batches[event.batch];
    const stream::StreamLog& participant = *options_.participants[event.participant];
    const arrow::Array& key_column = batch.column(participant.key_column());
    Status valid = stream::PartitionKeyOf(key_column, event.row, &key);
    if (!valid.ok()) {
      return Status::Corruption("stream '" + participant.name() +
                                "': a record without a valid partition key: " + valid.message());
    }
    HIGGINS_ASSIGN_OR_RETURN(KeyState * state, State(key));
    state->latest[event.participant] = {batches[event.batch], event.row};
    progressed[event.participant].push_back(key);
    const uint64_t offset = state->next++;
    if (offset < state->done) continue;  // joined before a restart
    if (offset != state->done + state->pending) {
      return Status::Internal("join stream '" + name() + "': partition " + Quote(key) + " holds " +
                              std::to_string(state->done + state->pending) +
                              " records but the next joined record is at offset " +
                              std::to_string(offset));
    }
    if (state->pending++ == 0) touched.push_back(state);
    for (size_t f = 0; f < builders.size(); ++f) {
      if (static_cast<int>(f) == out_key) {
        HIGGINS_RETURN_IF_ERROR(builders[f].AppendFrom(key_column, event.row));
        continue;
      }
      const Source& source = options_.sources[f];
      const Latest& latest = state->latest[source.participant];
      if (!latest.batch) {
        builders[f].AppendNull();
      } else {
        HIGGINS_RETURN_IF_ERROR(
            builders[f].AppendFrom(latest.batch->column(source.field), latest.row));
      }
    }
    const int64_t timestamp = std::max(event.timestamp_ms, last_timestamp_ms_);
    if (produced.empty() || timestamps.back() != timestamp) {
      produced.emplace_back();
      timestamps.push_back(timestamp);
      entry_keys.clear();
    }
    last_timestamp_ms_ = timestamp;
    stream::PreparedProduce& entry = produced.back();
    auto [slot, fresh] = entry_keys.try_emplace(key, static_cast<uint32_t>(entry.keys.size()));
    if (fresh) entry.keys.push_back(key);
    entry.key_indexes.push_back(slot->second);
    ++entry.rows;
    ++out_rows;
  }
  if (out_rows > 0) {
    std::vector<arrow::Array> columns;
    columns.reserve(builders.size());
    for (auto& builder : builders) columns.push_back(builder.Finish());
    HIGGINS_ASSIGN_OR_RETURN(
        arrow::RecordBatch joined,
        arrow::RecordBatch::Make(derived.schema(), out_rows, std::move(columns)));
    int64_t at = 0;
    for (stream::PreparedProduce& entry : produced) {
      entry.batches.push_back(joined.Slice(at, entry.rows));
      at += entry.rows;
    }
    Status committed = derived.CommitNow(produced, timestamps);
    if (!committed.ok()) {
      for (KeyState* state : touched) state->pending = 0;
      return committed;
    }
  }
  for (KeyState* state : touched) {
    state->done += state->pending;
    state->pending = 0;
  }
  cursor_ = to;
  for (size_t i = 0; i < slots_; ++i) committed_[i] = to[i];
  if (redo_ && to == *redo_) redo_.reset();
  processed_ += events.size();
  if (options_.on_progress) {
    for (size_t p = 0; p < participants; ++p) {
      if (!progressed[p].empty()) options_.on_progress(p, progressed[p]);
    }
  }
  return true;
}

}  // namespace higgins::derived
