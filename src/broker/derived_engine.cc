#include "broker/derived_engine.h"

#include <spdlog/spdlog.h>

namespace higgins::broker {

DerivedEngine::DerivedEngine(udf::Engine* engine, Options options)
    : engine_(engine), options_(options) {}

DerivedEngine::~DerivedEngine() { Stop(); }

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
  std::list<Waiter> left;
  {
    std::lock_guard lock(wait_mu_);
    timer_stop_ = true;
    left.swap(waiters_);
  }
  timer_cv_.notify_all();
  if (timer_.joinable()) timer_.join();
  for (auto& w : left) w.done(Status::IOError("the broker is shutting down"));
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

void DerivedEngine::Add(std::shared_ptr<DerivedStream> stream, const std::string& input) {
  std::lock_guard lock(mu_);
  auto slot = std::make_shared<Slot>();
  slot->stream = std::move(stream);
  slot->input = input;
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

void DerivedEngine::OnCommit(const std::string& stream) {
  {
    std::lock_guard lock(mu_);
    for (auto& [name, slot] : slots_) {
      if (slot->input == stream) ScheduleLocked(slot);
    }
  }
  CheckWaiters();
}

void DerivedEngine::WaitUntil(std::function<bool()> caught_up, Clock::time_point deadline,
                              std::function<std::string()> describe,
                              std::function<void(Status)> done) {
  {
    std::lock_guard lock(wait_mu_);
    if (!timer_stop_) {
      if (!caught_up()) {
        waiters_.push_back(
            Waiter{std::move(caught_up), deadline, std::move(describe), std::move(done)});
        timer_cv_.notify_one();
        return;
      }
    }
  }
  done(timer_stop_ ? Status::IOError("the broker is shutting down") : Status::OK());
}

void DerivedEngine::CheckWaiters() {
  std::list<Waiter> finished;
  std::vector<Status> outcomes;
  {
    std::lock_guard lock(wait_mu_);
    if (waiters_.empty()) return;
    const auto now = Clock::now();
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      if (it->caught_up()) {
        outcomes.push_back(Status::OK());
      } else if (it->deadline <= now) {
        outcomes.push_back(Status::DeadlineExceeded(it->describe()));
      } else {
        ++it;
        continue;
      }
      auto next = std::next(it);
      finished.splice(finished.end(), waiters_, it);
      it = next;
    }
  }
  size_t i = 0;
  for (auto& w : finished) w.done(outcomes[i++]);
}

void DerivedEngine::Timer() {
  std::unique_lock lock(wait_mu_);
  while (!timer_stop_) {
    auto next = Clock::time_point::max();
    for (const auto& w : waiters_) next = std::min(next, w.deadline);
    if (next == Clock::time_point::max()) {
      timer_cv_.wait(lock);
    } else {
      timer_cv_.wait_until(lock, next);
    }
    if (timer_stop_) break;
    lock.unlock();
    CheckWaiters();
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

}  // namespace higgins::broker
