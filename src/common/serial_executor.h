#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace higgins {

/// One thread running posted tasks in order. The destructor runs the tasks already posted, then
/// joins; a Post racing with it is refused (returns false, the task never runs, not even
/// inline). Used to keep slow administrative requests (module uploads, which compile
/// WebAssembly, and configuration changes, which open streams) off the network threads.
/// Thread-safety: Post may be called from any thread, tasks included. Tasks must not throw (an
/// escaping exception ends the process).
class SerialExecutor {
 public:
  SerialExecutor();
  ~SerialExecutor();
  SerialExecutor(const SerialExecutor&) = delete;
  SerialExecutor& operator=(const SerialExecutor&) = delete;

  /// Queues `task`; false once the destructor has begun.
  bool Post(std::function<void()> task);

 private:
  void Run();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is constructed
};

}  // namespace higgins
