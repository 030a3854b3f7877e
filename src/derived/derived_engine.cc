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
  timer_ = std::thread([this] { Timer(); });
  for (int i = 0; i < options_.workers; ++i) {
    std::promise<Status> started;
    auto future = started.get_future();
    workers_.emplace_back([this, &started] { Work(&started); });
    Status s = future.get();
    if (!s.ok()) {
      Stop();
      return s.WithContext("starting derived-stream worker " + std::to_string(i));
    }
  }
  return Status::OK();
}

void DerivedEngine::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ && workers_.empty() && !timer_.joinable()) return;
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (auto& worker : workers_) worker.join();
  workers_.clear();
  std::vector<Finished> left;
  {
    std::lock_guard lock(wait_mu_);
    timer_stop_ = true;
    while (!waiters_.empty()) {
      FinishLocked(waiters_.begin()->first, Status::IOError("the broker is shutting down"), &left);
    }
  }
  timer_cv_.notify_all();
  if (timer_.joinable()) timer_.join();
  for (auto& f : left) f.waiter.done(f.status);
}

void DerivedEngine::Work(std::promise<Status>* started) {
  auto sandbox = engine_->NewSandbox();
  started->set_value(sandbox.status());
  if (!sandbox.ok()) return;
  std::string last_error;
  std::unique_lock lock(mu_);
  while (true) {
    work_cv_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
    if (stopping_) break;
    std::shared_ptr<Slot> slot = std::move(ready_.front());
    ready_.pop_front();
    slot->queued = false;
    if (slot->removed) continue;
    slot->running = true;
    slot->again = false;
    lock.unlock();
    auto more = slot->stream->Step(sandbox->get(), options_.calls_per_turn);
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
  lock.unlock();
  sandbox->reset();  // on its own thread
}

void DerivedEngine::ScheduleLocked(const std::shared_ptr<Slot>& slot) {
  if (slot->running) {
    slot->again = true;
    return;
  }
  if (slot->queued || slot->removed) return;
  slot->queued = true;
  ready_.push_back(slot);
  work_cv_.notify_one();
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
        const bool earliest = deadlines_.empty() || deadline < deadlines_.begin()->first;
        waiter.deadline = deadlines_.emplace(deadline, w);
        waiters_.emplace(w, std::move(waiter));
        if (earliest) timer_cv_.notify_one();
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
  deadlines_.erase(waiter.deadline);
  out->push_back(Finished{std::move(waiter), std::move(status)});
  waiters_.erase(it);
}

void DerivedEngine::Timer() {
  std::unique_lock lock(wait_mu_);
  while (!timer_stop_) {
    if (deadlines_.empty()) {
      timer_cv_.wait(lock);
    } else {
      // A copy: the node holding the earliest deadline may be erased while this waits.
      const Clock::time_point next = deadlines_.begin()->first;
      timer_cv_.wait_until(lock, next);
    }
    if (timer_stop_) break;
    std::vector<Finished> finished;
    const auto now = Clock::now();
    while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
      const uint64_t w = deadlines_.begin()->second;
      FinishLocked(w, Status::DeadlineExceeded(waiters_.at(w).describe()), &finished);
    }
    if (finished.empty()) continue;
    lock.unlock();
    for (auto& f : finished) f.waiter.done(f.status);
    lock.lock();
  }
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
