#include "derived/derived_engine.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace higgins::derived {

DerivedEngine::DerivedEngine(udf::Engine* engine, Options options)
    : engine_(engine), options_(options) {}

DerivedEngine::~DerivedEngine() {
  Stop();
}

Status DerivedEngine::Start() {
  const size_t workers = static_cast<size_t>(std::max(options_.workers, 1));
  sandboxes_.resize(workers);
  last_errors_.resize(workers);
  ThreadPool::Hooks hooks;
  hooks.start = [this](size_t i) -> Status {
    auto sandbox = engine_->NewSandbox();
    if (!sandbox.ok()) {
      return sandbox.status().WithContext("starting derived-stream worker " + std::to_string(i));
    }
    sandboxes_[i] = *std::move(sandbox);
    return Status::OK();
  };
  hooks.stop = [this](size_t i) { sandboxes_[i].reset(); };  // on its own thread
  auto pool = ThreadPool::Start(workers, std::move(hooks));
  if (!pool.ok()) {
    Stop();
    return pool.status();
  }
  std::lock_guard lock(mu_);
  pool_ = *std::move(pool);
  std::vector<std::shared_ptr<Slot>> unstarted;
  unstarted.swap(unstarted_);
  for (const auto& slot : unstarted) {
    slot->queued = false;
    ScheduleLocked(slot);
  }
  return Status::OK();
}

void DerivedEngine::Stop() {
  ThreadPool* pool = nullptr;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    pool = pool_.get();
  }
  // Running turns finish; queued ones return at once (stopping_); the sandboxes are released.
  if (pool != nullptr) pool->Stop();
  std::vector<Finished> left;
  {
    std::lock_guard lock(wait_mu_);
    timer_stop_ = true;
    while (!waiters_.empty()) {
      FinishLocked(waiters_.begin()->first, Status::IOError("the broker is shutting down"), &left);
    }
  }
  timer_.Stop();
  for (auto& f : left) f.waiter.done(f.status);
}

void DerivedEngine::RunTurn(const std::shared_ptr<Slot>& slot, size_t worker) {
  std::unique_lock lock(mu_);
  slot->queued = false;
  if (stopping_ || slot->removed) return;
  slot->running = true;
  slot->again = false;
  lock.unlock();
  auto more = slot->stream->Step(sandboxes_[worker].get(), options_.calls_per_turn);
  std::string& last_error = last_errors_[worker];
  if (!more.ok() && more.status().message() != last_error) {
    last_error = more.status().message();
    spdlog::error("stream '{}': processing stopped: {}", slot->stream->name(),
                  more.status().ToString());
  }
  lock.lock();
  slot->running = false;
  if (!slot->removed && ((more.ok() && *more) || slot->again)) ScheduleLocked(slot);
  idle_cv_.notify_all();
}

void DerivedEngine::ScheduleLocked(const std::shared_ptr<Slot>& slot) {
  if (slot->running) {
    slot->again = true;
    return;
  }
  if (slot->queued || slot->removed) return;
  slot->queued = true;
  if (!pool_) {
    unstarted_.push_back(slot);
    return;
  }
  pool_->Post([this, slot](size_t worker) { RunTurn(slot, worker); });
}

void DerivedEngine::Add(std::shared_ptr<DerivedProcessor> stream, std::vector<std::string> inputs) {
  std::lock_guard lock(mu_);
  auto slot = std::make_shared<Slot>();
  slot->stream = std::move(stream);
  slot->inputs = std::move(inputs);
  const std::string name = slot->stream->name();
  slots_[name] = slot;
  ScheduleLocked(slot);
}

void DerivedEngine::Remove(const std::string& name) {
  std::unique_lock lock(mu_);
  auto it = slots_.find(name);
  if (it == slots_.end()) return;
  std::shared_ptr<Slot> slot = it->second;
  slot->removed = true;
  slots_.erase(it);
  idle_cv_.wait(lock, [&] { return !slot->running; });
}

void DerivedEngine::OnCommit(const std::string& stream, const std::vector<std::string_view>& keys) {
  {
    std::lock_guard lock(mu_);
    for (auto& [name, slot] : slots_) {
      if (std::find(slot->inputs.begin(), slot->inputs.end(), stream) != slot->inputs.end()) {
        ScheduleLocked(slot);
      }
    }
  }
  std::vector<Finished> finished;
  {
    std::lock_guard lock(wait_mu_);
    AnswerLocked(stream, keys, &finished);
  }
  for (auto& f : finished) f.waiter.done(f.status);
}

void DerivedEngine::Notify(std::string_view stream, std::span<const std::string> keys) {
  std::vector<Finished> finished;
  {
    std::lock_guard lock(wait_mu_);
    AnswerLocked(stream, keys, &finished);
  }
  for (auto& f : finished) f.waiter.done(f.status);
}

template <typename Keys>
void DerivedEngine::AnswerLocked(std::string_view stream, const Keys& keys,
                                 std::vector<Finished>* finished) {
  if (watching_.empty()) return;
  std::string id;
  for (std::string_view key : keys) {
    WatchId(stream, key, &id);
    auto it = watching_.find(id);
    if (it == watching_.end()) continue;
    Partition& partition = it->second;
    const uint64_t have = partition.have();
    while (!partition.by_count.empty() && partition.by_count.begin()->first <= have) {
      const auto [w, need] = partition.by_count.begin()->second;
      partition.by_count.erase(partition.by_count.begin());
      Waiter& waiter = waiters_.at(w);
      waiter.needs[need].met = true;
      if (--waiter.unmet == 0) FinishLocked(w, Status::OK(), finished);
    }
    if (partition.by_count.empty()) watching_.erase(it);
  }
}

// (stream, partition key), the broker's order everywhere (docs/architecture.md).
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
void DerivedEngine::WatchId(std::string_view stream, std::string_view key, std::string* id) {
  id->assign(stream);
  id->push_back('\0');
  id->append(key);
}

void DerivedEngine::WaitUntil(std::vector<Watch> watches, Clock::time_point deadline,
                              std::function<std::string()> describe,
                              std::function<void(Status)> done) {
  {
    std::lock_guard lock(wait_mu_);
    if (!timer_stop_) {
      Waiter waiter;
      const uint64_t w = next_waiter_;
      for (Watch& watch : watches) {
        if (watch.have() >= watch.count) continue;
        Need& need = waiter.needs.emplace_back();
        WatchId(watch.stream, watch.key, &need.id);
        Partition& partition = watching_[need.id];
        if (!partition.have) partition.have = std::move(watch.have);
        need.entry = partition.by_count.emplace(watch.count, std::pair{w, waiter.needs.size() - 1});
      }
      if (!waiter.needs.empty()) {
        ++next_waiter_;
        waiter.unmet = waiter.needs.size();
        waiter.describe = std::move(describe);
        waiter.done = std::move(done);
        // Its callback takes wait_mu_, so it finds the waiter registered below.
        waiter.timer = timer_.Schedule(deadline, [this, w] { Expire(w); });
        waiters_.emplace(w, std::move(waiter));
        return;
      }
    }
  }
  done(timer_stop_ ? Status::IOError("the broker is shutting down") : Status::OK());
}

size_t DerivedEngine::PendingWaits() const {
  std::lock_guard lock(wait_mu_);
  return waiters_.size();
}

void DerivedEngine::FinishLocked(uint64_t id, Status status, std::vector<Finished>* out) {
  auto it = waiters_.find(id);
  Waiter& waiter = it->second;
  for (const Need& need : waiter.needs) {
    if (need.met) continue;
    auto partition = watching_.find(need.id);
    partition->second.by_count.erase(need.entry);
    if (partition->second.by_count.empty()) watching_.erase(partition);
  }
  timer_.Cancel(waiter.timer);  // a callback already started finds no waiter
  out->push_back(Finished{std::move(waiter), std::move(status)});
  waiters_.erase(it);
}

void DerivedEngine::Expire(uint64_t id) {
  std::vector<Finished> finished;
  {
    std::lock_guard lock(wait_mu_);
    auto it = waiters_.find(id);
    if (it == waiters_.end()) return;  // met, or failed by Stop, since its deadline was set
    FinishLocked(id, Status::DeadlineExceeded(it->second.describe()), &finished);
  }
  for (auto& f : finished) f.waiter.done(f.status);
}

std::map<std::string, std::pair<uint64_t, uint64_t>> DerivedEngine::Counters() const {
  std::lock_guard lock(mu_);
  std::map<std::string, std::pair<uint64_t, uint64_t>> out;
  for (const auto& [name, slot] : slots_) {
    out[name] = {slot->stream->processed(), slot->stream->failed()};
  }
  return out;
}

}  // namespace higgins::derived
