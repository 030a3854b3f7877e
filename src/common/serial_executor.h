#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace higgins {

/// One thread running posted tasks in order. The destructor runs the tasks already posted, then
/// joins. Used to keep slow administrative requests (module uploads, which compile
/// WebAssembly, and configuration changes, which open streams) off the network threads.
/// Thread-safety: Post may be called from any thread.
class SerialExecutor {
 public:
  SerialExecutor();
  ~SerialExecutor();
  SerialExecutor(const SerialExecutor&) = delete;
  SerialExecutor& operator=(const SerialExecutor&) = delete;

  void Post(std::function<void()> task);

 private:
  void Run();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the rest is constructed
};

}  // namespace higgins
