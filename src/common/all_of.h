#pragma once

#include <cstddef>
#include <functional>

#include "higgins/status.h"

namespace higgins {

/// Fan-in of asynchronous completions: returns a callback that may be called `n` times, from any
/// threads, and calls `done` exactly once, on the thread of the n-th call, with the first error
/// among the calls (OK when every call was OK). `n` must be at least 1; calling the returned
/// callback more than `n` times is a programming error (the extra calls are ignored).
std::function<void(Status)> AllOf(size_t n, std::function<void(Status)> done);

}  // namespace higgins
