#include "sync_fault.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace higgins::test {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool EndsWithOneOf(const std::string& name, const std::vector<std::string>& suffixes) {
  for (const std::string& s : suffixes) {
    if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

SyncFault::SyncFault(std::string control_dir) : dir_(std::move(control_dir)) {
  fs::create_directories(dir_);
}

std::string SyncFault::ShimPath() {
  return HIGGINS_SYNC_FAULT_SHIM;
}

bool SyncFault::LoadedHere() {
  return ::dlsym(RTLD_DEFAULT, "higgins_sync_fault_loaded") != nullptr;
}

std::vector<std::pair<std::string, std::string>> SyncFault::Environment() const {
  const char* asan = std::getenv("ASAN_OPTIONS");
  std::string asan_options = asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : "";
  asan_options += "verify_asan_link_order=0";
  return {
      {"LD_PRELOAD", ShimPath()}, {"HIGGINS_SYNC_FAULT_DIR", dir_}, {"ASAN_OPTIONS", asan_options}};
}

void SyncFault::SetSlow(bool slow) {
  const std::string path = dir_ + "/slow";
  if (slow) {
    fs::remove(dir_ + "/held");
    std::ofstream(path).put('\n');
  } else {
    fs::remove(path);
  }
}

bool SyncFault::WaitUntilHeld(std::string_view path_part, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (ReadAll(dir_ + "/held").find(path_part) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

std::map<std::string, uint64_t> SyncFault::SyncedSizes() const {
  std::map<std::string, uint64_t> sizes;
  std::istringstream lines(ReadAll(dir_ + "/synced.log"));
  std::string line;
  while (std::getline(lines, line)) {
    const size_t space = line.find(' ');
    if (space == std::string::npos) continue;  // never: the shim writes whole lines
    sizes[line.substr(space + 1)] = std::stoull(line.substr(0, space));
  }
  return sizes;
}

std::vector<std::string> SyncFault::CutToSynced(const std::string& root,
                                                const std::vector<std::string>& suffixes) const {
  const std::map<std::string, uint64_t> synced = SyncedSizes();
  std::vector<std::string> cut;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || !EndsWithOneOf(entry.path().filename(), suffixes)) continue;
    const std::string path = fs::canonical(entry.path()).string();
    const uint64_t size = entry.file_size();
    auto it = synced.find(path);
    const uint64_t keep = it == synced.end() ? 0 : it->second;
    if (keep >= size) continue;  // synced whole (or rewritten since: leave it)
    fs::resize_file(entry.path(), keep);
    cut.push_back(path + ": " + std::to_string(size) + " -> " + std::to_string(keep) + " bytes");
  }
  return cut;
}

}  // namespace higgins::test
