#pragma once

#include <cstddef>
#include <cstdint>

#include "higgins/result.h"

namespace higgins::udf {

/// Stack that JS and wasm frames may use below the point where the host enters V8 (V8's own
/// default, --stack-size, is 984 KiB). Deep recursion in a module stops with "RangeError:
/// Maximum call stack size exceeded" when it is used up.
inline constexpr size_t kGuestStackBytes = size_t{512} * 1024;
/// Stack always left free at the far end of the thread's stack, below V8's limit: the C++ of V8's
/// runtime (stack-overflow handling, error objects, GC) runs there after a guest hits the limit.
inline constexpr size_t kHostStackReserveBytes = size_t{128} * 1024;

/// The stack limit to give V8 (Isolate::SetStackLimit) for code entered from the caller's
/// current depth: kGuestStackBytes below the caller's frame, but never closer than
/// kHostStackReserveBytes to the end of the thread's stack (read with pthread_getattr_np). V8
/// otherwise assumes 984 KiB of stack below its entry point, and a guest recursing on a thread
/// with a smaller stack would run past the stack's end and crash the process. Threads with at
/// least 1 MiB of stack (std::thread's default is 8 MiB) get the full kGuestStackBytes.
///
/// Errors: Internal when the thread has less than 64 KiB of stack for the guest.
Result<uintptr_t> StackLimitForThisThread();

}  // namespace higgins::udf
