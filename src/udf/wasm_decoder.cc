// Compiled as C++17: see wasm_decoder.h.

#include "udf/wasm_decoder.h"

#include <exception>
#include <optional>

#include "wabt/binary-reader.h"
#include "wabt/cast.h"
#include "wabt/feature.h"
#include "wabt/interp/binary-reader-interp.h"
#include "wabt/interp/interp.h"

namespace higgins::udf {
namespace {

namespace interp = wabt::interp;

// The post-MVP features of docs/udf-abi.md plus SIMD, and nothing else: what V8 10.2 runs by
// default minus the proposals a UDF has no use for (threads, exceptions, tail calls, memory64...).
wabt::Features UdfFeatures(bool multi_memory) {
  wabt::Features features;
  features.disable_exceptions();
  features.disable_threads();
  features.disable_function_references();
  features.disable_tail_call();
  features.disable_annotations();
  features.disable_code_metadata();
  features.disable_gc();
  features.disable_memory64();
  features.disable_extended_const();
  features.disable_relaxed_simd();
  features.enable_mutable_globals();
  features.enable_sat_float_to_int();
  features.enable_sign_extension();
  features.enable_multi_value();
  features.enable_bulk_memory();
  features.enable_reference_types();
  features.enable_simd();
  features.set_multi_memory_enabled(multi_memory);
  return features;
}

WasmModule::Kind KindOf(wabt::ExternalKind kind) {
  switch (kind) {
    case wabt::ExternalKind::Func: return WasmModule::Kind::kFunction;
    case wabt::ExternalKind::Table: return WasmModule::Kind::kTable;
    case wabt::ExternalKind::Memory: return WasmModule::Kind::kMemory;
    case wabt::ExternalKind::Global: return WasmModule::Kind::kGlobal;
    case wabt::ExternalKind::Tag: return WasmModule::Kind::kTag;
  }
  return WasmModule::Kind::kTag;
}

std::vector<std::string> TypeNames(const interp::ValueTypes& types) {
  std::vector<std::string> out;
  out.reserve(types.size());
  for (const auto& type : types) out.push_back(type.GetName());
  return out;
}

// The unsigned LEB128 of at most 32 bits at `pos`, which moves past it; nullopt (pos
// unspecified) when malformed or cut.
std::optional<uint64_t> ReadU32(std::string_view bytes, size_t& pos) {
  uint64_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (pos >= bytes.size()) return std::nullopt;
    const uint8_t byte = static_cast<uint8_t>(bytes[pos++]);
    value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80u) == 0) {
      if (value > UINT32_MAX) return std::nullopt;
      return value;
    }
  }
  return std::nullopt;
}

// libwabt reserves as many data segments as a DataCount section declares, before checking
// anything: 2^28 of them made it allocate gigabytes (or throw). Each segment takes at least one
// byte, so a count larger than the module cannot be right. Walks the section headers only;
// anything malformed is left for libwabt to report.
bool CheckDataCount(std::string_view bytes, std::string& error) {
  constexpr uint8_t kDataCountSection = 12;
  size_t pos = 8;  // magic and version
  while (pos < bytes.size()) {
    const uint8_t id = static_cast<uint8_t>(bytes[pos++]);
    const std::optional<uint64_t> size = ReadU32(bytes, pos);
    if (!size || *size > bytes.size() - pos) return true;
    const size_t end = pos + *size;
    if (id == kDataCountSection) {
      const size_t at = pos;
      const std::optional<uint64_t> count = ReadU32(bytes, pos);
      if (count && *count > bytes.size()) {
        error = "the DataCount section declares " + std::to_string(*count) +
                " data segments, more than the module's " + std::to_string(bytes.size()) +
                " bytes can hold (at byte offset " + std::to_string(at) + ")";
        return false;
      }
    }
    pos = end;
  }
  return true;
}

bool DecodeWasmUnguarded(std::string_view bytes, bool multi_memory, WasmModule& out,
                         std::string& error) {
  if (!CheckDataCount(bytes, error)) return false;
  wabt::ReadBinaryOptions options(UdfFeatures(multi_memory), /*log_stream=*/nullptr,
                                  /*read_debug_names=*/false, /*stop_on_first_error=*/true,
                                  /*fail_on_custom_section_error=*/false);
  wabt::Errors errors;
  interp::ModuleDesc desc;
  const wabt::Result result =
      interp::ReadBinaryInterp("module", bytes.data(), bytes.size(), options, &errors, &desc);
  if (wabt::Failed(result) || !errors.empty()) {
    error = errors.empty() ? std::string("libwabt could not decode it")
                           : errors.front().message + " (at byte offset " +
                                 std::to_string(errors.front().loc.offset) + ")";
    return false;
  }
  out = WasmModule();
  for (const interp::ImportDesc& import : desc.imports) {
    out.imports.push_back({import.type.module, import.type.name, KindOf(import.type.type->kind)});
  }
  for (const interp::ExportDesc& e : desc.exports) {
    WasmModule::Export exported{e.type.name, KindOf(e.type.type->kind), {}};
    if (const auto* func = wabt::dyn_cast<interp::FuncType>(e.type.type.get())) {
      exported.function = {TypeNames(func->params), TypeNames(func->results)};
    }
    out.exports.push_back(std::move(exported));
  }
  for (const interp::MemoryDesc& memory : desc.memories) {
    WasmModule::Memory m;
    m.initial_pages = memory.type.limits.initial;
    if (memory.type.limits.has_max) m.max_pages = memory.type.limits.max;
    out.memories.push_back(m);
  }
  for (const interp::TableDesc& table : desc.tables) {
    WasmModule::Table t;
    t.initial_elements = table.type.limits.initial;
    if (table.type.limits.has_max) t.max_elements = table.type.limits.max;
    out.tables.push_back(t);
  }
  return true;
}

}  // namespace

bool DecodeWasm(std::string_view bytes, bool multi_memory, WasmModule& out, std::string& error) {
  try {
    return DecodeWasmUnguarded(bytes, multi_memory, out, error);
  } catch (const std::exception& e) {
    error = std::string("libwabt failed on it: ") + e.what();
  } catch (...) {
    error = "libwabt failed on it";
  }
  out = WasmModule();
  return false;
}

}  // namespace higgins::udf
