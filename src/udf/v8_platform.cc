#include "udf/v8_platform.h"

#include <libplatform/libplatform.h>
#include <v8-initialization.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "udf/module_check.h"

namespace higgins::udf {
namespace {

constexpr int kPlatformThreads = 2;

std::mutex g_init_mu;
std::atomic<v8::Platform*> g_platform{nullptr};  // set once, under g_init_mu; never freed
uint32_t g_max_memory_pages = 0;                 // guarded by g_init_mu

}  // namespace

Status InitializeV8(uint32_t max_memory_pages) {
  std::lock_guard lock(g_init_mu);
  if (g_platform.load() != nullptr) {
    if (max_memory_pages != g_max_memory_pages) {
      return Status::Internal("V8 was initialised with max_memory_pages " +
                              std::to_string(g_max_memory_pages) + "; it cannot change to " +
                              std::to_string(max_memory_pages) + " in the same process");
    }
    return Status::OK();
  }
  // --wasm-max-table-size: a table cannot start or grow past kMaxTableElements (table.grow
  // returns -1 inside the module); V8's default of 10 million entries per table let a module
  // fill the isolate's heap.
  const std::string flags = "--wasm-max-mem-pages=" + std::to_string(max_memory_pages) +
                            " --wasm-max-table-size=" + std::to_string(kMaxTableElements);
  v8::V8::SetFlagsFromString(flags.c_str(), flags.size());
  // Released on purpose: V8 keeps using the platform until the process ends.
  v8::Platform* platform = v8::platform::NewDefaultPlatform(kPlatformThreads).release();
  v8::V8::InitializePlatform(platform);
  // When the trap handler cannot be installed V8 falls back to explicit bounds checks (slower,
  // equally safe), so the result is not an error.
  v8::V8::EnableWebAssemblyTrapHandler(/*use_v8_signal_handler=*/true);
  if (!v8::V8::Initialize()) return Status::Internal("V8::Initialize failed");
  g_max_memory_pages = max_memory_pages;
  g_platform.store(platform);
  return Status::OK();
}

v8::Platform* V8Platform() {
  return g_platform.load();
}

}  // namespace higgins::udf

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer does not scan V8's heap (mmap'ed pages it did not allocate), so V8's malloc'ed
// side tables that only its heap points to look leaked at exit. Any binary running V8 under
// AddressSanitizer needs this; it lives here, in the object file every V8 user links.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libnode.so\n";
}
#endif
