#include "udf/stack_limit.h"

#include <pthread.h>

#include <algorithm>
#include <string>

namespace higgins::udf {
namespace {

constexpr size_t kMinGuestStackBytes = size_t{64} * 1024;

// Lowest address of the calling thread's stack (0 if unknown). Cached per thread: for the main
// thread pthread_getattr_np reads /proc/self/maps.
uintptr_t ThreadStackEnd() {
  thread_local const uintptr_t stack_end = [] {
    uintptr_t end = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) end = reinterpret_cast<uintptr_t>(addr);
      pthread_attr_destroy(&attr);
    }
    return end;
  }();
  return stack_end;
}

}  // namespace

Result<uintptr_t> StackLimitForThisThread() {
  // The frame address, not the address of a local: under AddressSanitizer locals may live on a
  // fake stack in the heap.
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const uintptr_t stack_end = ThreadStackEnd();
  const uintptr_t wanted = here > kGuestStackBytes ? here - kGuestStackBytes : 0;
  const uintptr_t limit = std::max(wanted, stack_end + kHostStackReserveBytes);
  if (limit >= here || here - limit < kMinGuestStackBytes) {
    return Status::Internal(
        "the thread's stack is too small to run WebAssembly: " +
        std::to_string(here > stack_end ? (here - stack_end) >> 10 : 0) + " KiB left, at least " +
        std::to_string((kHostStackReserveBytes + kMinGuestStackBytes) >> 10) + " KiB needed");
  }
  return limit;
}

}  // namespace higgins::udf
