#include "server/kafka/offset_committer.h"

#include <utility>

namespace higgins::server::kafka {

void OffsetCommitter::Submit(std::string group, std::vector<OffsetStore::Commit> commits,
                             Done done) {
  {
    std::lock_guard lock(mu_);
    pending_.push_back({std::move(group), std::move(commits)});
    pending_done_.push_back(std::move(done));
    if (scheduled_) return;
    scheduled_ = true;
  }
  if (!executor_.Post([this] { Flush(); })) {
    std::vector<Done> refused;
    {
      std::lock_guard lock(mu_);
      pending_.clear();
      refused.swap(pending_done_);
      scheduled_ = false;
    }
    for (Done& d : refused)
      d(Status::Internal("the broker is stopping: the offsets were not stored"));
  }
}

void OffsetCommitter::Flush() {
  std::vector<OffsetStore::GroupCommits> batch;
  std::vector<Done> done;
  {
    std::lock_guard lock(mu_);
    batch.swap(pending_);
    done.swap(pending_done_);
    scheduled_ = false;
  }
  const Status s = store_->StoreMany(batch);
  for (Done& d : done) d(s);
}

}  // namespace higgins::server::kafka
