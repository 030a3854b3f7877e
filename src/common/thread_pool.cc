#include "common/thread_pool.h"

#include <algorithm>
#include <future>
#include <memory>
#include <utility>

namespace higgins {

Result<std::unique_ptr<ThreadPool>> ThreadPool::Start(size_t threads, Hooks hooks) {
  std::unique_ptr<ThreadPool> pool(new ThreadPool(std::move(hooks)));
  for (size_t i = 0; i < std::max<size_t>(threads, 1); ++i) {
    // Shared: the thread may still be inside set_value when this one has its answer.
    auto started = std::make_shared<std::promise<Status>>();
    std::future<Status> future = started->get_future();
    pool->threads_.emplace_back([raw = pool.get(), i, started] {
      Status s = raw->hooks_.start ? raw->hooks_.start(i) : Status::OK();
      const bool ok = s.ok();
      started->set_value(std::move(s));
      if (ok) raw->Run(i);
    });
    Status s = future.get();
    if (!s.ok()) {
      pool->Stop();
      return s;
    }
  }
  return pool;
}

ThreadPool::~ThreadPool() {
  Stop();
}

bool ThreadPool::Post(Task task) {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return false;
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
  return true;
}

void ThreadPool::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  std::lock_guard join_lock(join_mu_);
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

void ThreadPool::Run(size_t index) {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
    if (tasks_.empty()) break;  // stopping, and every queued task has run
    Task task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task(index);
    task = nullptr;  // captures released outside the lock
    lock.lock();
  }
  lock.unlock();
  if (hooks_.stop) hooks_.stop(index);
}

}  // namespace higgins
