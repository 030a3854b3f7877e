#include "broker/commit_waiters.h"

#include <algorithm>

namespace higgins::broker {

uint64_t CommitWaiters::Add(std::string_view stream, Wake wake) {
  std::lock_guard lock(mu_);
  const uint64_t id = next_id_++;
  auto it = waits_.find(stream);
  if (it == waits_.end()) it = waits_.emplace(std::string(stream), decltype(it->second)()).first;
  it->second.emplace_back(id, std::move(wake));
  count_.fetch_add(1, std::memory_order_relaxed);
  return id;
}

void CommitWaiters::Cancel(std::string_view stream, uint64_t id) {
  std::lock_guard lock(mu_);
  auto it = waits_.find(stream);
  if (it == waits_.end()) return;
  auto& list = it->second;
  auto found =
      std::find_if(list.begin(), list.end(), [id](const auto& w) { return w.first == id; });
  if (found == list.end()) return;
  list.erase(found);
  count_.fetch_sub(1, std::memory_order_relaxed);
  if (list.empty()) waits_.erase(it);
}

void CommitWaiters::Notify(std::string_view stream) {
  if (count_.load(std::memory_order_relaxed) == 0) return;
  std::vector<std::pair<uint64_t, Wake>> woken;
  {
    std::lock_guard lock(mu_);
    auto it = waits_.find(stream);
    if (it == waits_.end()) return;
    woken = std::move(it->second);
    waits_.erase(it);
    count_.fetch_sub(woken.size(), std::memory_order_relaxed);
  }
  for (auto& [id, wake] : woken) wake();
}

}  // namespace higgins::broker
