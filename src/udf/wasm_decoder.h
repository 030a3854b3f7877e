#pragma once

// Included by a C++17 translation unit (wasm_decoder.cc): keep this header free of C++20.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace higgins::udf {

/// What the ABI check (module_check.cc) needs to know of a WebAssembly module, in plain types.
/// libwabt's own types stay in wasm_decoder.cc: its interpreter headers do not compile as C++20
/// (GCC 12: "template-id not allowed for destructor" in wabt/interp/interp-inl.h), so that one
/// file is compiled as C++17.
struct WasmModule {
  enum class Kind { kFunction, kTable, kMemory, kGlobal, kTag };
  struct FunctionType {
    std::vector<std::string> params;  // value type names: "i32", "f64", "v128", "externref"...
    std::vector<std::string> results;
  };
  struct Import {
    std::string module;
    std::string name;
    Kind kind;
  };
  struct Export {
    std::string name;
    Kind kind;
    FunctionType function;  // when kind == kFunction
  };
  struct Memory {
    uint64_t initial_pages = 0;
    std::optional<uint64_t> max_pages;
  };

  std::vector<Import> imports;
  std::vector<Export> exports;
  struct Table {
    uint64_t initial_elements = 0;
    std::optional<uint64_t> max_elements;
  };

  std::vector<Memory> memories;  // defined in the module (imported ones are among `imports`)
  std::vector<Table> tables;     // defined in the module
};

/// Decodes and validates `bytes` with libwabt, with the post-MVP features of docs/udf-abi.md plus
/// SIMD enabled (and multi-memory when `multi_memory`). Validation happens while reading
/// (wabt's ReadBinaryInterp and SharedValidator), with explicit stacks rather than recursion, so
/// deeply nested code cannot exhaust the thread's stack, and libwabt's assertions (on in
/// Debian's build) only see input that passed its checks. Returns false, with `error` set to
/// libwabt's first error and its byte offset, when the binary is not valid, and when libwabt
/// throws (std::bad_alloc, std::length_error...): no exception leaves it. Before libwabt sees the
/// binary, a DataCount section whose count is larger than the whole module is refused (libwabt
/// reserves that many data segments up front). Thread-safe.
bool DecodeWasm(std::string_view bytes, bool multi_memory, WasmModule& out, std::string& error);

}  // namespace higgins::udf
