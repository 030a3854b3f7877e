#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace higgins::server {

/// The open sessions of one listener (the native Server, the KafkaListener) and its graceful
/// stop: sessions are added as they are accepted and removed as they close; Stop() hands back
/// the open ones to be stopped and runs its callback once the last has closed. Thread-safe.
template <typename Session>
class SessionSet {
 public:
  enum class Admit { kAdded, kStopping, kFull };

  /// Adds `session` unless the listener is stopping or `limit` sessions are already open;
  /// `*open` gets the number open before this one.
  Admit Add(const std::shared_ptr<Session>& session, size_t limit, size_t* open) {
    std::lock_guard lock(mu_);
    *open = sessions_.size();
    if (stopping_) return Admit::kStopping;
    if (sessions_.size() >= limit) return Admit::kFull;
    sessions_.insert(session);
    return Admit::kAdded;
  }

  /// Forgets a closed session; during a stop, the last one runs the stop's callback.
  void Remove(const Session* session) {
    std::function<void()> done;
    {
      std::lock_guard lock(mu_);
      for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
        if (it->get() == session) {
          sessions_.erase(it);
          break;
        }
      }
      if (stopping_ && sessions_.empty() && on_stopped_) done = std::move(on_stopped_);
    }
    if (done) done();
  }

  /// What Stop leaves to its caller: the sessions to stop, and `done` itself when none was open
  /// (for the caller to run last, once it has finished with the listener).
  struct Stopping {
    std::vector<std::shared_ptr<Session>> open;
    std::function<void()> run_now;
  };
  /// Marks the listener stopping. `done` runs once every open session has been removed, or is
  /// handed back in `run_now` when none is open.
  Stopping Stop(std::function<void()> done) {
    Stopping out;
    std::lock_guard lock(mu_);
    stopping_ = true;
    out.open.assign(sessions_.begin(), sessions_.end());
    if (out.open.empty()) {
      out.run_now = std::move(done);
    } else {
      on_stopped_ = std::move(done);
    }
    return out;
  }

  bool stopping() const {
    std::lock_guard lock(mu_);
    return stopping_;
  }
  size_t size() const {
    std::lock_guard lock(mu_);
    return sessions_.size();
  }

 private:
  mutable std::mutex mu_;
  std::set<std::shared_ptr<Session>> sessions_;
  bool stopping_ = false;
  std::function<void()> on_stopped_;
};

}  // namespace higgins::server
