#include "stream/group_committer.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace higgins::stream {

int64_t GroupCommitter::SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

GroupCommitter::GroupCommitter(Clock clock)
    : clock_(clock ? std::move(clock) : Clock(SystemNowMs)),
      worker_([this](std::vector<Job>& jobs) {
        CommitGroup(jobs);
        return BatchingWorker<Job>::NextRun();
      }) {}

GroupCommitter::~GroupCommitter() {
  Stop();
}

void GroupCommitter::Submit(std::shared_ptr<StreamLog> stream, PreparedProduce prepared,
                            Done done) {
  Job job{std::move(stream), std::move(prepared), std::move(done)};
  if (worker_.Post(job)) return;
  job.done(Status::ResourceExhausted("the broker is shutting down"));
}

void GroupCommitter::Stop() {
  worker_.Stop();
}

CommitterStats GroupCommitter::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

void GroupCommitter::CommitGroup(std::vector<Job>& jobs) {
  struct Outcome {
    Result<ProduceResult> result = Status::Internal("not committed");
    PendingEntries pending;
  };
  std::vector<Outcome> outcomes(jobs.size());
  std::vector<storage::BucketLog*> touched;
  std::vector<std::vector<storage::BucketLog*>> touched_by_job(jobs.size());
  const int64_t now = clock_();
  for (size_t i = 0; i < jobs.size(); ++i) {
    Job& job = jobs[i];
    Status failure = job.stream->failure();
    if (!failure.ok()) {
      outcomes[i].result = failure;
      continue;
    }
    if (Status refused = job.stream->CheckAppend(); !refused.ok()) {
      outcomes[i].result = refused;  // nothing appended: the stream stays online
      continue;
    }
    outcomes[i].result =
        job.stream->Append(job.prepared, now, &outcomes[i].pending, &touched_by_job[i]);
    if (!outcomes[i].result.ok()) {
      if (job.stream->failure().ok()) job.stream->MarkFailed(outcomes[i].result.status());
      outcomes[i].result = job.stream->failure();
    }
    for (auto* log : touched_by_job[i]) {
      if (std::find(touched.begin(), touched.end(), log) == touched.end()) touched.push_back(log);
    }
  }
  std::vector<std::pair<storage::BucketLog*, Status>> sync_status;
  sync_status.reserve(touched.size());
  for (auto* log : touched) sync_status.emplace_back(log, log->Sync());
  for (size_t i = 0; i < jobs.size(); ++i) {
    Job& job = jobs[i];
    if (outcomes[i].result.ok()) {
      for (auto* log : touched_by_job[i]) {
        auto it = std::find_if(sync_status.begin(), sync_status.end(),
                               [&](const auto& p) { return p.first == log; });
        if (storage::IsUploadPending(it->second)) {
          outcomes[i].result = it->second;  // published below, but not acknowledged
          continue;
        }
        if (!it->second.ok()) {
          job.stream->MarkFailed(it->second);
          outcomes[i].result = job.stream->failure();
          break;
        }
      }
    }
    if (outcomes[i].result.ok() || storage::IsUploadPending(outcomes[i].result.status())) {
      Status s = job.stream->Publish(outcomes[i].pending);
      if (!s.ok())
        spdlog::warn("stream '{}': index write failed: {}", job.stream->name(), s.ToString());
    }
  }
  // Hand the index records to the files (no fsync: an index tail lost in a crash is rebuilt from
  // the data at start).
  std::vector<StreamLog*> streams;
  for (auto& job : jobs) {
    if (std::find(streams.begin(), streams.end(), job.stream.get()) == streams.end()) {
      streams.push_back(job.stream.get());
    }
  }
  for (StreamLog* stream : streams) {
    Status s = stream->FlushIndex(false);
    if (!s.ok()) spdlog::warn("stream '{}': index write failed: {}", stream->name(), s.ToString());
  }
  {
    std::lock_guard lock(mu_);
    stats_.groups += 1;
    stats_.requests += jobs.size();
    stats_.syncs += touched.size();
  }
  for (size_t i = 0; i < jobs.size(); ++i) jobs[i].done(std::move(outcomes[i].result));
}

}  // namespace higgins::stream
