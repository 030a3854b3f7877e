#include "common/all_of.h"

#include <memory>
#include <mutex>
#include <utility>

namespace higgins {

std::function<void(Status)> AllOf(size_t n, std::function<void(Status)> done) {
  struct State {
    std::mutex mu;
    size_t left;
    Status first;
    std::function<void(Status)> done;
  };
  auto state = std::make_shared<State>();
  state->left = n;
  state->done = std::move(done);
  return [state](Status s) {
    {
      std::lock_guard lock(state->mu);
      if (state->left == 0) return;
      if (!s.ok() && state->first.ok()) state->first = std::move(s);
      if (--state->left != 0) return;
    }
    std::function<void(Status)> finish = std::move(state->done);
    finish(std::move(state->first));
  };
}

}  // namespace higgins
