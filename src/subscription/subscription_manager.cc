#include "subscription/subscription_manager.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <random>

#include "common/file_util.h"
#include "common/quote.h"
#include "stream/window_view.h"

namespace higgins::subscription {
namespace {

class StreamSource : public SubscriptionSource {
 public:
  explicit StreamSource(std::shared_ptr<stream::StreamLog> log) : log_(std::move(log)) {}
  uint64_t Count(std::string_view key) const override { return log_->index().Count(key); }
  std::vector<stream::PartitionCount> Partitions() const override {
    return log_->index().Partitions(SIZE_MAX).partitions;
  }
  Result<SourceRecords> Read(std::string_view key, uint64_t from, uint64_t to) const override {
    SourceRecords out;
    HIGGINS_ASSIGN_OR_RETURN(out.rows, log_->Range(key, from, to, to - from));
    out.offset = out.rows.first_offset;
    return out;
  }
  uint64_t FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const override {
    auto offset = log_->index().FirstAtOrAfter(key, timestamp_ms);
    return offset.ok() ? *offset : log_->index().Count(key);
  }

 private:
  std::shared_ptr<stream::StreamLog> log_;
};

class CountWindowSource : public SubscriptionSource {
 public:
  CountWindowSource(std::shared_ptr<stream::StreamLog> base, const config::WindowSpec& spec,
                    uint64_t max_records)
      : base_(std::move(base)), spec_(spec), max_records_(max_records) {}
  uint64_t Closed(uint64_t n) const {
    const uint64_t interval = spec_.interval;
    const uint64_t slide = spec_.slide == 0 ? interval : spec_.slide;
    return n < interval ? 0 : (n - interval) / slide + 1;
  }
  uint64_t Count(std::string_view key) const override { return Closed(base_->index().Count(key)); }
  std::vector<stream::PartitionCount> Partitions() const override {
    auto partitions = base_->index().Partitions(SIZE_MAX).partitions;
    for (stream::PartitionCount& p : partitions) p.count = Closed(p.count);
    return partitions;
  }
  Result<SourceRecords> Read(std::string_view key, uint64_t from, uint64_t) const override {
    HIGGINS_ASSIGN_OR_RETURN(stream::WindowRows w, stream::QueryWindow(*base_, spec_, key, from,
                                                                       std::nullopt, max_records_));
    SourceRecords out;
    out.rows = std::move(w.members);
    out.offset = w.window;
    out.window = WindowBoundsInfo{w.closed, w.by_time, w.start, w.end};
    return out;
  }
  uint64_t MaxPerRead() const override { return 1; }
  uint64_t FirstAtOrAfter(std::string_view key, int64_t timestamp_ms) const override {
    auto offset = base_->index().FirstAtOrAfter(key, timestamp_ms);
    const uint64_t o = offset.ok() ? *offset : base_->index().Count(key);
    const uint64_t slide = spec_.slide == 0 ? spec_.interval : spec_.slide;
    return o / slide + (o % slide != 0 ? 1 : 0);
  }

 private:
  std::shared_ptr<stream::StreamLog> base_;
  config::WindowSpec spec_;
  uint64_t max_records_;
};

SubscriptionId NewId() {
  static std::mutex mu;
  static std::mt19937_64 random{std::random_device{}()};
  std::lock_guard lock(mu);
  std::string id(16, '\0');
  for (size_t half = 0; half < 2; ++half) {
    const uint64_t v = random();
    for (size_t i = 0; i < 8; ++i) id[(8 * half) + i] = static_cast<char>(v >> (8 * i));
  }
  id[6] = static_cast<char>((id[6] & 0x0f) | 0x40);  // version 4 (RFC 4122)
  id[8] = static_cast<char>((id[8] & 0x3f) | 0x80);  // variant 10
  return SubscriptionId(std::move(id));
}

std::string Hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

}  // namespace

std::shared_ptr<SubscriptionSource> MakeStreamSource(std::shared_ptr<stream::StreamLog> log) {
  return std::make_shared<StreamSource>(std::move(log));
}

std::shared_ptr<SubscriptionSource> MakeCountWindowSource(std::shared_ptr<stream::StreamLog> base,
                                                          const config::WindowSpec& spec,
                                                          uint64_t max_records) {
  assert(spec.type == config::WindowSpec::Type::kCount);
  return std::make_shared<CountWindowSource>(std::move(base), spec, max_records);
}

std::string SubscriptionManager::IdText(const SubscriptionId& id) {
  std::string hex = Hex(id.value());
  if (hex.size() != 32) return hex;
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

SubscriptionManager::SubscriptionManager(Options options) : options_(std::move(options)) {}

SubscriptionManager::~SubscriptionManager() {
  Stop();
}

void SubscriptionManager::Start() {
  std::lock_guard lock(mu_);
  if (started_) return;
  started_ = true;
  delivery_ = std::make_unique<BatchingWorker<>>(
      [this](std::vector<std::monostate>&) { return DeliverRound(); });
}

void SubscriptionManager::Stop() {
  BatchingWorker<>* delivery = nullptr;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    delivery = delivery_.get();
  }
  if (delivery != nullptr) delivery->Stop();
  syncer_.Stop();
}

uint64_t SubscriptionManager::StartOf(const Subscription& sub, std::string_view key) const {
  switch (sub.decl.start) {
    case SubscriptionStartKind::kBeginning: return 0;
    case SubscriptionStartKind::kOffset: return sub.decl.start_value;
    case SubscriptionStartKind::kCurrent:
    case SubscriptionStartKind::kTimestamp: {
      // Computed once at creation and kept in the log, so a restart starts at the same place;
      // partitions that appear later start at 0.
      auto it = sub.start_offsets.find(key);
      return it == sub.start_offsets.end() ? 0 : it->second;
    }
  }
  return 0;
}

void SubscriptionManager::AddPartitions(Subscription& sub) {
  for (const stream::PartitionCount& p : sub.ref.source->Partitions()) {
    if (!sub.state.HasPartition(p.key)) sub.state.AddPartition(p.key, StartOf(sub, p.key));
    sub.state.NoteAvailable(p.key, p.count);
  }
}

void SubscriptionManager::Schedule(const SubPtr& sub) {
  if (sub->queued || sub->deleted || !sub->state.CanGrant()) return;
  sub->queued = true;
  work_.push_back(sub);
  if (delivery_) delivery_->Wake();
}

Status SubscriptionManager::Restore(const Resolver& resolve) {
  auto names = ListDirectory(options_.dir);
  if (!names.ok()) return Status::OK();  // no folder yet: no subscriptions
  for (const std::string& name : *names) {
    if (name.size() > 8 && name.substr(name.size() - 8) == ".log.tmp") {
      // A log being created or rewritten when the broker stopped; the rename never happened.
      std::remove((options_.dir + "/" + name).c_str());
      continue;
    }
    if (name.size() < 4 || name.substr(name.size() - 4) != ".log") continue;
    const std::string path = options_.dir + "/" + name;
    std::vector<SubscriptionRecord> records;
    auto log = SubscriptionLog::Open(path, &records);
    if (!log.ok()) return log.status();
    const SubscriptionDecl& decl = records.front().decl;
    if (name != Hex(decl.id.value()) + ".log") {
      return Status::Corruption(path + " holds subscription " + IdText(decl.id) +
                                ", whose log is " + Hex(decl.id.value()) + ".log; remove the copy");
    }
    auto ref = resolve(decl.stream);
    if (!ref || ref->stream_id != decl.stream_id || !ref->durable) {
      spdlog::info("subscription {}: its stream '{}' no longer exists; removing it",
                   IdText(decl.id), decl.stream);
      HIGGINS_RETURN_IF_ERROR((*log)->Remove());
      continue;
    }
    auto sub = std::make_shared<Subscription>(std::chrono::milliseconds(decl.timeout_ms));
    sub->decl = decl;
    sub->ref = *ref;
    sub->start_offsets.insert(decl.start_offsets.begin(), decl.start_offsets.end());
    for (const SubscriptionRecord& record : records) {
      for (const auto& s : record.state) {
        if (!sub->state.HasPartition(s.key)) sub->state.AddPartition(s.key, StartOf(*sub, s.key));
        sub->state.RestoreAcknowledged(s.key, 0, s.watermark);
        for (const auto& [a, b] : s.acknowledged) sub->state.RestoreAcknowledged(s.key, a, b);
      }
      for (const OffsetRange& r : record.acknowledged) {
        if (!sub->state.HasPartition(r.key)) sub->state.AddPartition(r.key, StartOf(*sub, r.key));
        sub->state.RestoreAcknowledged(r.key, r.start, r.end);
      }
    }
    sub->log = *std::move(log);
    // Registered before the partitions are counted, under the lock: a commit is either counted
    // here or reported by OnCommit afterwards.
    std::lock_guard lock(mu_);
    subscriptions_.emplace(sub->decl.id, sub);
    by_stream_[sub->decl.stream].push_back(sub);
    by_follows_[sub->ref.follows].push_back(sub);
    AddPartitions(*sub);
    sub->state.FinishRestore();
  }
  return Status::OK();
}

Result<SubscriptionId> SubscriptionManager::Create(const std::string& stream,
                                                   const StreamRef& ref, SubscriptionStart from,
                                                   std::chrono::milliseconds timeout) {
  uint64_t timeout_ms = static_cast<uint64_t>(std::max<int64_t>(0, timeout.count()));
  const SubscriptionStartKind start = from.kind;
  const uint64_t value = from.value;
  if (timeout_ms == 0) timeout_ms = static_cast<uint64_t>(options_.default_timeout.count());
  if (timeout_ms > static_cast<uint64_t>(options_.max_timeout.count())) {
    return Status::InvalidArgument("the visibility timeout " + std::to_string(timeout_ms) +
                                   " ms is over the maximum, " +
                                   std::to_string(options_.max_timeout.count()) + " ms");
  }
  auto sub = std::make_shared<Subscription>(std::chrono::milliseconds(timeout_ms));
  sub->ref = ref;
  SubscriptionDecl& decl = sub->decl;
  decl.id = NewId();
  decl.stream = stream;
  decl.stream_id = ref.stream_id;
  decl.start = start;
  decl.start_value = value;
  decl.timeout_ms = timeout_ms;
  std::lock_guard lock(mu_);
  if (subscriptions_.size() >= options_.max_subscriptions) {
    return Status::ResourceExhausted("the broker has " + std::to_string(subscriptions_.size()) +
                                     " subscriptions, its limit; delete some first");
  }
  // Under the lock, so that no commit falls between the snapshot and the first OnCommit.
  if (start == SubscriptionStartKind::kCurrent || start == SubscriptionStartKind::kTimestamp) {
    const int64_t at = static_cast<int64_t>(std::min<uint64_t>(value, INT64_MAX));
    for (const stream::PartitionCount& p : ref.source->Partitions()) {
      decl.start_offsets.emplace_back(p.key, start == SubscriptionStartKind::kCurrent
                                                 ? p.count
                                                 : ref.source->FirstAtOrAfter(p.key, at));
    }
    sub->start_offsets.insert(decl.start_offsets.begin(), decl.start_offsets.end());
  }
  if (ref.durable) {
    HIGGINS_ASSIGN_OR_RETURN(
        sub->log, SubscriptionLog::Create(options_.dir + "/" + Hex(decl.id.value()) + ".log", decl));
  }
  AddPartitions(*sub);
  subscriptions_.emplace(decl.id, sub);
  by_stream_[stream].push_back(sub);
  by_follows_[ref.follows].push_back(sub);
  return decl.id;
}

Result<SubscriptionManager::SubPtr> SubscriptionManager::Find(const SubscriptionId& id,
                                                              std::string_view stream) const {
  auto it = subscriptions_.find(id);
  if (it == subscriptions_.end()) {
    return Status::NotFound("subscription " + IdText(id) + " does not exist");
  }
  if (!stream.empty() && it->second->decl.stream != stream) {
    return Status::NotFound("subscription " + IdText(id) + " is not a subscription of stream " +
                            Quote(stream) + " (it reads '" + it->second->decl.stream + "')");
  }
  return it->second;
}

Result<uint64_t> SubscriptionManager::Take(const SubscriptionId& id, std::string_view stream,
                                           ConsumerId consumer, uint64_t n, PushSink sink) {
  std::lock_guard lock(mu_);
  HIGGINS_ASSIGN_OR_RETURN(SubPtr sub, Find(id, stream));
  sub->sinks[consumer] = std::move(sink);
  const uint64_t demand = sub->state.Take(consumer, n, options_.max_demand);
  Schedule(sub);
  return demand;
}

void SubscriptionManager::Acknowledge(
    const SubscriptionId& id, std::string_view stream, std::vector<OffsetRange> ranges,
    std::function<void(Status, std::vector<OffsetRange> failed)> done) {
  SyncRequest request;
  {
    std::lock_guard lock(mu_);
    auto sub = Find(id, stream);
    if (!sub.ok()) return done(sub.status(), {});
    std::vector<OffsetRange> failed;
    Status s = (*sub)->state.Acknowledge(ranges, &failed);
    if (!s.ok()) return done(s, std::move(failed));
    SubscriptionLog* log = (*sub)->log.get();
    if (log == nullptr) return done(Status::OK(), {});
    SubscriptionRecord record;
    record.type = SubscriptionRecord::Type::kAcknowledge;
    record.acknowledged = std::move(ranges);
    auto position = log->Append(record);
    if (!position.ok()) return done(position.status(), {});
    if (log->size() > std::max(SubscriptionLog::kRotateBytes, 2 * log->rewritten_size())) {
      Status rewritten = log->Rewrite((*sub)->decl, (*sub)->state.Snapshot());
      if (!rewritten.ok()) return done(rewritten, {});
    }
    if (!(*sub)->ref.sync) return done(Status::OK(), {});
    request = SyncRequest{*sub, *position, std::move(done)};
  }
  if (syncer_.Post(request)) return;
  request.done(Status::IOError("the broker is shutting down"), {});
}

BatchingWorker<>::NextRun SubscriptionManager::SyncRound(std::vector<SyncRequest>& batch) {
  // One sync per log covers every acknowledgement of the batch written to it.
  std::map<SubscriptionLog*, std::pair<uint64_t, Status>> logs;
  for (const SyncRequest& r : batch) {
    auto& entry = logs[r.sub->log.get()];
    entry.first = std::max(entry.first, r.position);
  }
  for (auto& [log, entry] : logs) entry.second = log->Sync(entry.first);
  for (SyncRequest& r : batch) r.done(logs[r.sub->log.get()].second, {});
  return std::nullopt;
}

SubscriptionReport SubscriptionManager::Report(const Subscription& sub, bool detailed,
                                               size_t limit) {
  SubscriptionReport report;
  report.decl = sub.decl;
  report.decl.start_offsets.clear();
  report.durable = sub.log != nullptr;
  report.consumers = sub.state.Consumers().size();
  report.unacknowledged = sub.state.Unacknowledged();
  report.pending = sub.state.Pending();
  if (detailed) {
    report.partitions = sub.state.Partitions(limit);
    report.partitions_truncated = sub.state.partition_count() > report.partitions.size();
    report.consumer_list = sub.state.Consumers();
  }
  return report;
}

Result<SubscriptionReport> SubscriptionManager::Get(const SubscriptionId& id,
                                                    std::string_view stream) const {
  std::lock_guard lock(mu_);
  HIGGINS_ASSIGN_OR_RETURN(SubPtr sub, Find(id, stream));
  return Report(*sub, true, options_.max_listed_partitions);
}

std::vector<SubscriptionReport> SubscriptionManager::List(std::string_view stream) const {
  std::lock_guard lock(mu_);
  std::vector<SubscriptionReport> out;
  for (const auto& [id, sub] : subscriptions_) {
    if (!stream.empty() && sub->decl.stream != stream) continue;
    out.push_back(Report(*sub, false, 0));
  }
  std::sort(out.begin(), out.end(), [](const SubscriptionReport& a, const SubscriptionReport& b) {
    return std::tie(a.decl.stream, a.decl.id) < std::tie(b.decl.stream, b.decl.id);
  });
  return out;
}

void SubscriptionManager::Forget(const SubPtr& sub) {
  sub->deleted = true;
  subscriptions_.erase(sub->decl.id);
  for (auto [map, name] :
       {std::pair{&by_stream_, &sub->decl.stream}, std::pair{&by_follows_, &sub->ref.follows}}) {
    auto it = map->find(*name);
    if (it == map->end()) continue;
    std::erase(it->second, sub);
    if (it->second.empty()) map->erase(it);
  }
}

void SubscriptionManager::TellEnded(Subscription& sub, const Status& why) {
  for (auto& [consumer, sink] : sub.sinks) {
    SubscriptionPush push;
    push.subscription_id = sub.decl.id;
    push.stream = sub.decl.stream;
    push.ended = why;
    std::vector<SubscriptionPush> pushes;
    pushes.push_back(std::move(push));
    sink.push(std::move(pushes));
  }
}

Status SubscriptionManager::Delete(const SubscriptionId& id, std::string_view stream) {
  SubPtr sub;
  {
    std::lock_guard lock(mu_);
    HIGGINS_ASSIGN_OR_RETURN(sub, Find(id, stream));
    Forget(sub);
    ended_.emplace_back(sub,
                        Status::NotFound("subscription " + IdText(sub->decl.id) + " was deleted"));
    if (delivery_) delivery_->Wake();
  }
  return sub->log ? sub->log->Remove() : Status::OK();
}

void SubscriptionManager::ConsumerReady(ConsumerId consumer) {
  std::lock_guard lock(mu_);
  for (auto& [id, sub] : subscriptions_) {
    if (sub->sinks.count(consumer) != 0) Schedule(sub);
  }
}

void SubscriptionManager::DropStream(std::string_view stream) {
  std::vector<SubPtr> dropped;
  {
    std::lock_guard lock(mu_);
    auto it = by_stream_.find(stream);
    if (it == by_stream_.end()) return;
    dropped = it->second;
    for (const SubPtr& sub : dropped) {
      Forget(sub);
      ended_.emplace_back(
          sub, Status::NotFound("subscription " + IdText(sub->decl.id) + " ended: stream '" +
                                sub->decl.stream + "' was deleted"));
    }
    if (delivery_) delivery_->Wake();
  }
  for (const SubPtr& sub : dropped) {
    if (!sub->log) continue;
    Status s = sub->log->Remove();
    if (!s.ok()) spdlog::warn("subscription {}: {}", IdText(sub->decl.id), s.ToString());
  }
}

void SubscriptionManager::RemoveConsumer(ConsumerId consumer) {
  std::lock_guard lock(mu_);
  for (auto& [id, sub] : subscriptions_) {
    if (sub->sinks.erase(consumer) == 0) continue;
    sub->state.RemoveConsumer(consumer);
    Schedule(sub);
  }
}

void SubscriptionManager::OnCommit(const std::string& stream,
                                   const std::vector<std::string_view>& keys) {
  std::lock_guard lock(mu_);
  auto it = by_follows_.find(stream);
  if (it == by_follows_.end()) return;
  for (const SubPtr& sub : it->second) {
    for (std::string_view key : keys) {
      if (!sub->state.HasPartition(key)) sub->state.AddPartition(key, StartOf(*sub, key));
      sub->state.NoteAvailable(key, sub->ref.source->Count(key));
    }
    Schedule(sub);
  }
}

BatchingWorker<>::NextRun SubscriptionManager::DeliverRound() {
  struct Work {
    SubPtr sub;
    Grant grant;
    PushSink sink;
  };
  std::unique_lock lock(mu_);
  if (stopping_) return std::nullopt;
  Clock::time_point now = Clock::now();
  if (next_expiry_ && *next_expiry_ <= now) {
    next_expiry_.reset();
    for (auto& [id, sub] : subscriptions_) {
      auto next = sub->state.Expire(now);
      if (next && (!next_expiry_ || *next < *next_expiry_)) next_expiry_ = next;
      Schedule(sub);
    }
  }
  // Grants of a few subscriptions, made under the lock; records read and pushed without it.
  // Only this thread pushes, so a partition's pushes leave in grant order.
  std::vector<Work> batch;
  std::vector<std::pair<SubPtr, Status>> ended;
  ended.swap(ended_);
  while (!work_.empty() && batch.size() < 256) {
    SubPtr sub = std::move(work_.front());
    work_.pop_front();
    sub->queued = false;
    if (sub->deleted) continue;
    auto eligible = [&sub](ConsumerId consumer) {
      auto it = sub->sinks.find(consumer);
      return it == sub->sinks.end() || !it->second.ready || it->second.ready();
    };
    int granted = 0;
    for (; granted < 64; ++granted) {
      auto grant = sub->state.NextGrant(
          now, std::min(options_.max_push_records, sub->ref.source->MaxPerRead()), eligible);
      if (!grant) break;
      const Clock::time_point deadline = now + sub->state.visibility_timeout();
      if (!next_expiry_ || deadline < *next_expiry_) next_expiry_ = deadline;
      auto sink = sub->sinks.find(grant->consumer);
      batch.push_back(
          {sub, *std::move(grant), sink == sub->sinks.end() ? PushSink{} : sink->second});
    }
    // More to grant: back in line behind the others. Otherwise a commit, a take, an expiry
    // or a consumer that is ready again schedules it.
    if (granted == 64) Schedule(sub);
  }
  // Nothing to do: sleep until the next visibility timeout or a wake (Schedule, Delete).
  if (batch.empty() && ended.empty()) return next_expiry_;
  lock.unlock();
  // Consecutive grants of one subscription to one consumer go to its sink in one call, so that
  // a consumer that is behind gets many partitions' records per frame.
  std::vector<SubscriptionPush> pushes;
  for (size_t i = 0; i < batch.size(); ++i) {
    Work& w = batch[i];
    // The consumer left (its records went back when it did), or the subscription ended.
    if (w.sink.push && !w.sub->deleted) {
      auto rows = w.sub->ref.source->Read(w.grant.key, w.grant.start, w.grant.end);
      if (rows.ok()) {
        pushes.push_back(SubscriptionPush{w.sub->decl.id, w.sub->decl.stream, w.grant.key,
                                          *std::move(rows), w.grant.redelivered});
      } else {
        // They stay in flight and go again when the visibility timeout passes.
        spdlog::warn("subscription {}: cannot read '{}' [{}, {}): {}", IdText(w.sub->decl.id),
                     w.grant.key, w.grant.start, w.grant.end, rows.status().ToString());
      }
    }
    const bool last_of_run = i + 1 == batch.size() || batch[i + 1].sub != w.sub ||
                             batch[i + 1].grant.consumer != w.grant.consumer;
    if (last_of_run && !pushes.empty() && w.sink.push) {
      w.sink.push(std::move(pushes));
      pushes.clear();
    }
  }
  for (auto& [sub, why] : ended) TellEnded(*sub, why);
  return Clock::now();  // look again at once: more may be grantable
}

}  // namespace higgins::subscription
