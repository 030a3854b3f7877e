#include "derived/derived_stream.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/quote.h"
#include "stream/batch_rows.h"
#include "stream/partitioning.h"
#include "udf/abi.h"

namespace higgins::derived {

arrow::SchemaPtr ErrorsStreamSchema() {
  using arrow::DataType;
  static const arrow::SchemaPtr schema = arrow::MakeSchema({
      {"partition", DataType::Utf8(), false},
      {"offset", DataType::UInt64(), false},
      {"module", DataType::Utf8(), false},
      {"module_version", DataType::UInt64(), true},
      {"error", DataType::Utf8(), false},
  });
  return schema;
}

std::string ErrorsStreamName(std::string_view derived) {
  return std::string(derived) + "/errors";
}

std::unique_ptr<DerivedStream> DerivedStream::Start(Options options) {
  std::unique_ptr<DerivedStream> stream(new DerivedStream(std::move(options)));
  stream->Resync();
  return stream;
}

void DerivedStream::Resync() {
  next_offset_.clear();
  derived_count_.clear();
  last_.clear();
  const stream::StreamLog& base = *options_.base;
  const stream::StreamIndex& derived_index = options_.derived->index();
  cursor_.assign(base.buckets(), Sequence(0));
  single_until_.assign(base.buckets(), Sequence(0));
  for (BucketId b : Buckets(base.buckets())) cursor_[b] = base.index().VisibleSequence(b);
  // The first base record of each partition that has no derived record yet. The partitions are
  // copied out first, so that the derived index is not read under the base index's lock.
  std::vector<std::pair<std::string, std::pair<BucketId, std::vector<Sequence>>>> partitions;
  base.index().ForEachPartition(
      [&](std::string_view key, BucketId bucket, std::span<const Sequence> sequences) {
        partitions.push_back({std::string(key), {bucket, {sequences.begin(), sequences.end()}}});
      });
  for (auto& [key, where] : partitions) {
    const uint64_t done = derived_index.Count(key);
    const auto& [bucket, sequences] = where;
    if (done < sequences.size()) {
      cursor_[bucket] = std::min(cursor_[bucket], sequences[done]);
    } else if (done > sequences.size()) {
      spdlog::warn(
          "stream '{}': partition '{}' has {} records, more than the {} of its base '{}' "
          "(was the base on storage that does not survive restarts?)",
          name(), key, done, sequences.size(), base.name());
    }
  }
}

Result<bool> DerivedStream::Step(udf::Sandbox* sandbox, int max_calls) {
  auto more = StepChunks(sandbox, max_calls);
  if (!more.ok()) Resync();  // the next step starts again from what the streams hold
  return more;
}

Result<bool> DerivedStream::StepChunks(udf::Sandbox* sandbox, int max_calls) {
  const stream::StreamLog& base = *options_.base;
  const auto turn_ends = std::chrono::steady_clock::now() + kTurn;
  int calls = 0;
  for (BucketId b : Buckets(base.buckets())) {
    if (calls >= max_calls) break;
    while (calls < max_calls) {
      // After a gathered chunk failed, entries are taken one at a time again up to where it
      // ended, so that each gets its own retry budget (as if produced when the map was idle).
      const size_t max_entries = cursor_[b] < single_until_[b] ? 1 : options_.max_entries_per_call;
      auto entries = base.index().VisibleEntries(b, cursor_[b], max_entries);
      if (entries.empty()) break;
      // Consecutive entries up to rows_per_call_ rows: one call, one derived commit.
      Chunk chunk;
      std::vector<arrow::RecordBatch> slices;
      std::unordered_map<std::string_view, uint32_t> key_ids;
      std::vector<uint32_t> in_chunk;  // rows of each key already taken in this chunk
      std::string key;
      Sequence position = cursor_[b];
      int64_t chunk_rows = 0;
      for (const storage::EntryInfo& entry : entries) {
        if (chunk_rows >= rows_per_call_) break;
        HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, base.ReadEntry(b, entry));
        const int64_t start = static_cast<int64_t>(position - entry.base_sequence);
        const int64_t n = std::min<int64_t>(entry.row_count - start, rows_per_call_ - chunk_rows);
        arrow::RecordBatch slice = batch.Slice(start, n);
        const arrow::Array& key_column = slice.column(base.key_column());
        for (int64_t r = 0; r < n; ++r) {
          Status s = stream::PartitionKeyOf(key_column, r, &key);
          if (!s.ok()) {
            return Status::Corruption(
                "stream '" + base.name() + "': sequence " +
                ToString(entry.base_sequence + static_cast<uint64_t>(start + r)) +
                " has no valid partition key: " + s.message());
          }
          auto [next, fresh] = next_offset_.try_emplace(key);
          if (fresh) {
            next->second = base.index().OffsetAtSequence(
                key, entry.base_sequence + static_cast<uint64_t>(start + r));
          }
          const uint64_t offset = next->second++;
          auto [done, fresh_count] = derived_count_.try_emplace(key);
          if (fresh_count) done->second = options_.derived->index().Count(key);
          uint32_t id;
          if (auto it = key_ids.find(next->first); it != key_ids.end()) {
            id = it->second;
          } else {
            id = static_cast<uint32_t>(chunk.keys.size());
            chunk.keys.push_back(key);
            in_chunk.push_back(0);
            key_ids.emplace(next->first, id);
          }
          const uint64_t expected = done->second + in_chunk[id];
          if (offset < expected) continue;  // derived before a restart
          if (offset > expected) {
            return Status::Internal("stream '" + name() + "': partition " + Quote(key) + " is at " +
                                    std::to_string(expected) + " but the next base record is " +
                                    std::to_string(offset));
          }
          ++in_chunk[id];
          chunk.rows.push_back(Row{chunk_rows + r, id, offset});
        }
        chunk.segments.push_back(Segment{chunk.rows.size(), entry.timestamp_ms});
        slices.push_back(std::move(slice));
        chunk_rows += n;
        position = entry.base_sequence + static_cast<uint64_t>(start + n);
      }
      if (!chunk.rows.empty()) {
        if (slices.size() == 1) {
          chunk.batch = std::move(slices.front());
        } else {
          HIGGINS_ASSIGN_OR_RETURN(chunk.batch,
                                   arrow::ConcatenateBatches(slices.front().schema(), slices));
        }
        HIGGINS_ASSIGN_OR_RETURN(const bool committed, ProcessChunk(sandbox, chunk));
        if (!committed) {
          single_until_[b] = position;
          ++calls;
          continue;
        }
      }
      cursor_[b] = position;
      ++calls;
      // Let other streams run: a slow module holds a worker for about one chunk at a time.
      if (std::chrono::steady_clock::now() >= turn_ends) calls = max_calls;
    }
  }
  for (BucketId b : Buckets(base.buckets())) {
    if (cursor_[b] < base.index().VisibleSequence(b)) return true;
  }
  return false;
}

Result<bool> DerivedStream::ProcessChunk(udf::Sandbox* sandbox, Chunk& chunk) {
  const auto module = options_.modules->Find(options_.fn);
  result_bytes_ = 0;
  const int64_t rows_per_call = rows_per_call_;
  std::vector<arrow::RecordBatch> out;
  std::vector<Failure> failures;
  if (options_.kind == config::StreamKind::kReduce) {
    HIGGINS_RETURN_IF_ERROR(ReduceRows(sandbox, module.get(), chunk, &out, &failures));
  } else {
    HIGGINS_RETURN_IF_ERROR(MapRows(sandbox, module.get(), chunk, &out, &failures));
  }
  if (split_) {
    // Nothing of the chunk is committed: forget what it cached for its keys (they are read
    // again from the streams), and let the caller take its entries one by one.
    split_ = false;
    for (const std::string& key : chunk.keys) {
      next_offset_.erase(key);
      derived_count_.erase(key);
      last_.erase(key);
    }
    return false;
  }
  // Errors first: after a crash between the two writes the chunk is processed again, so an
  // error may be recorded twice but never lost.
  if (!failures.empty()) HIGGINS_RETURN_IF_ERROR(WriteErrors(chunk, failures, module.get()));
  stream::StreamLog& derived = *options_.derived;
  HIGGINS_ASSIGN_OR_RETURN(auto batch, arrow::ConcatenateBatches(derived.schema(), out));
  // One derived entry per base entry, with its timestamp; one sync for all of them.
  std::vector<stream::PreparedProduce> entries;
  std::vector<int64_t> timestamps;
  size_t begin = 0;
  for (const Segment& segment : chunk.segments) {
    if (segment.rows_end == begin) continue;  // every row of the entry was derived before
    stream::PreparedProduce& prepared = entries.emplace_back();
    prepared.batches.push_back(
        batch.Slice(static_cast<int64_t>(begin), static_cast<int64_t>(segment.rows_end - begin)));
    std::unordered_map<uint32_t, uint32_t> local;  // chunk key -> this entry's key table
    for (size_t i = begin; i < segment.rows_end; ++i) {
      const uint32_t k = chunk.rows[i].key;
      auto [it, fresh] = local.try_emplace(k, static_cast<uint32_t>(prepared.keys.size()));
      if (fresh) prepared.keys.push_back(chunk.keys[k]);
      prepared.key_indexes.push_back(it->second);
    }
    prepared.rows = static_cast<int64_t>(segment.rows_end - begin);
    timestamps.push_back(segment.timestamp_ms);
    begin = segment.rows_end;
  }
  HIGGINS_RETURN_IF_ERROR(derived.CommitNow(entries, timestamps));
  for (const Row& row : chunk.rows) ++derived_count_[chunk.keys[row.key]];
  // Reduce states are re-read from the derived stream when evicted: bound what is kept.
  if (last_.size() > kMaxCachedStates) last_.clear();
  processed_ += chunk.rows.size();
  failed_ += failures.size();
  // After a deadline shrank the chunks, grow them back slowly while calls keep succeeding.
  if (rows_per_call_ == rows_per_call && rows_per_call_ < options_.max_rows_per_call &&
      ++clean_chunks_ >= 16) {
    rows_per_call_ = std::min(options_.max_rows_per_call, rows_per_call_ * 2);
    clean_chunks_ = 0;
  }
  return true;
}

Result<arrow::RecordBatch> DerivedStream::Call(udf::Sandbox* sandbox, const ModuleVersion& module,
                                               std::span<const arrow::RecordBatch> inputs,
                                               std::span<const std::string* const> keys) {
  const int64_t rows = inputs.back().num_rows();
  if (result_bytes_ > kMaxResultBytesPerChunk) {
    return Status::ResourceExhausted(
        "the results of this batch of base records passed " +
        std::to_string(kMaxResultBytesPerChunk >> 20) +
        " MiB; the remaining records of the batch were not run (produce fewer records per "
        "request, or make the module's results smaller)");
  }
  std::vector<std::string> encoded;
  std::vector<std::string_view> views;
  encoded.reserve(inputs.size());
  for (const auto& input : inputs) {
    HIGGINS_ASSIGN_OR_RETURN(std::string bytes, udf::EncodeBatch(input));
    encoded.push_back(std::move(bytes));
  }
  views.reserve(encoded.size());
  for (const auto& bytes : encoded) views.push_back(bytes);
  auto result = sandbox->Call(*module.compiled, views, options_.limits);
  if (!result.ok()) {
    if (result.status().code() == StatusCode::kDeadlineExceeded && rows > 1) {
      // Too many rows for the deadline: later chunks take fewer (see Step).
      rows_per_call_ = std::max<int64_t>(1, std::min(rows_per_call_, rows / 2));
      clean_chunks_ = 0;
    }
    return result.status();
  }
  result_bytes_ += result->size();
  const stream::StreamLog& derived = *options_.derived;
  HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch batch, udf::DecodeResult(*result, derived.schema()));
  if (batch.num_rows() != rows) {
    return Status::InvalidArgument("the module returned " + std::to_string(batch.num_rows()) +
                                   " rows for " + std::to_string(rows) + " input rows");
  }
  // The output is untrusted and validated (DecodeResult); what is left is that each row kept its
  // input's key. A module that returned its input's key column unchanged passes by comparing
  // the two columns' buffers; otherwise row by row.
  const arrow::Array& out_keys = batch.column(derived.key_column());
  if (!stream::SameKeyColumn(out_keys, inputs.back().column(options_.base->key_column()))) {
    HIGGINS_RETURN_IF_ERROR(stream::CheckSameKeys(out_keys, keys, derived.partition_key()));
  }
  return batch;
}

namespace {

Status NotUploaded(const std::string& fn) {
  return Status::NotFound("module '" + fn + "' is not uploaded");
}

}  // namespace

DerivedStream::RetryBudget DerivedStream::NewRetryBudget(std::size_t rows) const {
  RetryBudget budget;
  budget.calls_left = std::max(kMinRetryCallsPerChunk, 2 * static_cast<int64_t>(rows));
  budget.until =
      std::chrono::steady_clock::now() + std::max<std::chrono::steady_clock::duration>(
                                             std::chrono::seconds(2), 2 * options_.limits.deadline);
  return budget;
}

bool DerivedStream::RetryBudget::Take() {
  if (calls_left <= 0 || std::chrono::steady_clock::now() >= until) return false;
  --calls_left;
  return true;
}

void DerivedStream::Attempt(std::size_t lo, std::size_t hi, const CallRows& call,
                            RetryBudget* budget, std::vector<Attempted>* out) {
  Result<arrow::RecordBatch> result = call(lo, hi);
  if (!result.ok() && hi - lo > 1) {
    if (budget->Take() && budget->Take()) {
      // Bisect: one bad record costs about 2 log2(n) calls, not n.
      const std::size_t mid = lo + (hi - lo) / 2;
      Attempt(lo, mid, call, budget, out);
      Attempt(mid, hi, call, budget, out);
      return;
    }
    result = Status(result.status().code(),
                    result.status().message() + " (not retried record by record: the retries " +
                        "of this batch were spent; " + std::to_string(hi - lo) +
                        " records failed together)");
  }
  out->push_back(Attempted{lo, hi, std::move(result)});
}

bool DerivedStream::AttemptChunk(const Chunk& chunk, std::size_t n, const CallRows& call,
                                 RetryBudget* budget, std::vector<Attempted>* out) {
  if (chunk.segments.size() == 1) {
    Attempt(0, n, call, budget, out);
    return true;
  }
  // Several base entries gathered: on a failure they are processed again one by one.
  auto result = call(0, n);
  if (!result.ok()) {
    split_ = true;
    return false;
  }
  out->push_back(Attempted{0, n, std::move(result)});
  return true;
}

Status DerivedStream::MapRows(udf::Sandbox* sandbox, const ModuleVersion* module,
                              const Chunk& chunk, std::vector<arrow::RecordBatch>* out,
                              std::vector<Failure>* failures) {
  std::vector<int64_t> indexes;
  std::vector<const std::string*> keys;
  for (const Row& row : chunk.rows) {
    indexes.push_back(row.index);
    keys.push_back(&chunk.keys[row.key]);
  }
  HIGGINS_ASSIGN_OR_RETURN(arrow::RecordBatch input, stream::TakeRows(chunk.batch, indexes));
  CallRows call = [&](std::size_t lo, std::size_t hi) -> Result<arrow::RecordBatch> {
    if (!module) return NotUploaded(options_.fn);
    arrow::RecordBatch slice = input.Slice(static_cast<int64_t>(lo), static_cast<int64_t>(hi - lo));
    return Call(sandbox, *module, {&slice, 1},
                std::span<const std::string* const>(keys).subspan(lo, hi - lo));
  };
  std::vector<Attempted> attempts;  // in row order, covering every row once
  RetryBudget budget = NewRetryBudget(chunk.rows.size());
  if (!AttemptChunk(chunk, chunk.rows.size(), call, &budget, &attempts)) return Status::OK();
  const stream::StreamLog& derived = *options_.derived;
  const arrow::Array& key_column = chunk.batch.column(options_.base->key_column());
  for (Attempted& a : attempts) {
    if (a.result.ok()) {
      out->push_back(*std::move(a.result));
      continue;
    }
    for (std::size_t i = a.lo; i < a.hi; ++i) {
      failures->push_back(Failure{i, a.result.status()});
      HIGGINS_ASSIGN_OR_RETURN(auto hole, stream::KeyOnlyRow(derived.schema(), derived.key_column(),
                                                             key_column, chunk.rows[i].index));
      out->push_back(std::move(hole));
    }
  }
  return Status::OK();
}

Result<arrow::RecordBatch> DerivedStream::LastDerived(const std::string& key) {
  if (auto it = last_.find(key); it != last_.end()) return it->second;
  HIGGINS_ASSIGN_OR_RETURN(stream::QueryRows rows, options_.derived->Latest(key));
  last_.emplace(key, rows.batch);
  return rows.batch;
}

Status DerivedStream::ReduceRows(udf::Sandbox* sandbox, const ModuleVersion* module,
                                 const Chunk& chunk, std::vector<arrow::RecordBatch>* out,
                                 std::vector<Failure>* failures) {
  const stream::StreamLog& derived = *options_.derived;
  RetryBudget budget_storage = NewRetryBudget(chunk.rows.size());
  RetryBudget* budget = &budget_storage;
  out->assign(chunk.rows.size(), arrow::RecordBatch());
  // Step s takes the s-th row of each key in the chunk: one call folds one record per key.
  std::vector<uint32_t> seen(chunk.keys.size(), 0);
  std::vector<std::vector<size_t>> steps;
  for (size_t i = 0; i < chunk.rows.size(); ++i) {
    const uint32_t s = seen[chunk.rows[i].key]++;
    if (s == steps.size()) steps.emplace_back();
    steps[s].push_back(i);
  }
  for (const auto& step : steps) {
    std::vector<size_t> folded;  // rows that need the module
    for (size_t i : step) {
      const Row& row = chunk.rows[i];
      if (row.offset == 0) {  // the first record of a partition is the reduce's seed, as is
        auto seed = stream::ProjectRow(chunk.batch, row.index, derived.schema());
        if (!seed.ok()) return seed.status().WithContext("stream '" + name() + "'");
        (*out)[i] = *seed;
        last_[chunk.keys[row.key]] = *std::move(seed);
      } else {
        folded.push_back(i);
      }
    }
    if (folded.empty()) continue;
    std::vector<arrow::RecordBatch> previous;
    std::vector<int64_t> indexes;
    std::vector<const std::string*> keys;
    for (size_t i : folded) {
      const std::string& key = chunk.keys[chunk.rows[i].key];
      HIGGINS_ASSIGN_OR_RETURN(auto last, LastDerived(key));
      previous.push_back(std::move(last));
      indexes.push_back(chunk.rows[i].index);
      keys.push_back(&key);
    }
    HIGGINS_ASSIGN_OR_RETURN(auto prev, arrow::ConcatenateBatches(derived.schema(), previous));
    HIGGINS_ASSIGN_OR_RETURN(auto cur, stream::TakeRows(chunk.batch, indexes));
    CallRows call = [&](std::size_t lo, std::size_t hi) -> Result<arrow::RecordBatch> {
      if (!module) return NotUploaded(options_.fn);
      const auto at = static_cast<int64_t>(lo), n = static_cast<int64_t>(hi - lo);
      const arrow::RecordBatch inputs[2] = {prev.Slice(at, n), cur.Slice(at, n)};
      return Call(sandbox, *module, inputs,
                  std::span<const std::string* const>(keys).subspan(lo, hi - lo));
    };
    std::vector<Attempted> attempts;
    if (!AttemptChunk(chunk, folded.size(), call, budget, &attempts)) return Status::OK();
    for (Attempted& a : attempts) {
      for (size_t j = a.lo; j < a.hi; ++j) {
        const size_t i = folded[j];
        arrow::RecordBatch row;
        if (a.result.ok()) {
          row = a.result->Slice(static_cast<int64_t>(j - a.lo), 1);
        } else {
          failures->push_back(Failure{i, a.result.status()});
          row = previous[j];  // the failed record contributes nothing
        }
        (*out)[i] = row;
        last_[*keys[j]] = std::move(row);
      }
    }
  }
  return Status::OK();
}

Status DerivedStream::WriteErrors(const Chunk& chunk, const std::vector<Failure>& failures,
                                  const ModuleVersion* module) {
  const arrow::SchemaPtr schema = ErrorsStreamSchema();
  arrow::ArrayBuilder partition(arrow::DataType::Utf8()), offset(arrow::DataType::UInt64()),
      module_name(arrow::DataType::Utf8()), version(arrow::DataType::UInt64()),
      error(arrow::DataType::Utf8());
  stream::PreparedProduce prepared;
  std::unordered_map<std::string_view, uint32_t> key_ids;
  for (const Failure& f : failures) {
    const Row& row = chunk.rows[f.row];
    const std::string& key = chunk.keys[row.key];
    HIGGINS_RETURN_IF_ERROR(partition.AppendBinary(key));
    offset.AppendPrimitive<uint64_t>(row.offset);
    HIGGINS_RETURN_IF_ERROR(module_name.AppendBinary(options_.fn));
    if (module) {
      version.AppendPrimitive<uint64_t>(module->version);
    } else {
      version.AppendNull();
    }
    std::string text = f.status.ToString();
    if (text.size() > 4096) text.resize(4096);
    HIGGINS_RETURN_IF_ERROR(error.AppendBinary(text));
    auto [it, fresh] = key_ids.try_emplace(key, static_cast<uint32_t>(prepared.keys.size()));
    if (fresh) prepared.keys.push_back(key);
    prepared.key_indexes.push_back(it->second);
  }
  if (failures.size() <= 3) {
    for (const Failure& f : failures) {
      spdlog::warn("stream '{}': base record ('{}', {}) failed: {}", name(),
                   chunk.keys[chunk.rows[f.row].key], chunk.rows[f.row].offset,
                   f.status.ToString());
    }
  } else {
    spdlog::warn("stream '{}': {} base records failed, the first: {}", name(), failures.size(),
                 failures.front().status.ToString());
  }
  std::vector<arrow::Array> columns;
  columns.push_back(partition.Finish());
  columns.push_back(offset.Finish());
  columns.push_back(module_name.Finish());
  columns.push_back(version.Finish());
  columns.push_back(error.Finish());
  HIGGINS_ASSIGN_OR_RETURN(
      auto batch,
      arrow::RecordBatch::Make(schema, static_cast<int64_t>(failures.size()), std::move(columns)));
  prepared.batches.push_back(std::move(batch));
  prepared.rows = static_cast<int64_t>(failures.size());
  return options_.errors->CommitNow(prepared, chunk.segments.back().timestamp_ms).status();
}

}  // namespace higgins::derived
