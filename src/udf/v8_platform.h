#pragma once

#include <cstdint>

#include "higgins/status.h"

namespace v8 {
class Platform;
}

namespace higgins::udf {

/// Initialises V8 for the whole process, once: the flags --wasm-max-mem-pages=<max_memory_pages>
/// (V8's only memory cap, hence process-wide) and --wasm-max-table-size=kMaxTableElements (so
/// table.grow past it returns -1 in the module instead of filling the heap), a platform with 2 worker threads (background
/// compilation and tier-up; with none, code would stay on the baseline compiler), the
/// WebAssembly trap handler (guard pages and a SIGSEGV handler instead of explicit bounds
/// checks), then V8::Initialize. V8 cannot be initialised twice, so it is never torn down.
///
/// Thread-safe. Errors: Internal when V8 was already initialised with another
/// max_memory_pages.
Status InitializeV8(uint32_t max_memory_pages);

/// The platform InitializeV8 installed (nullptr before). Sandboxes pump its per-isolate task
/// queue (v8::platform::PumpMessageLoop) after each call.
v8::Platform* V8Platform();

}  // namespace higgins::udf
