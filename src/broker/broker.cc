#include "broker/broker.h"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "common/file_util.h"
#include "config/configuration.h"

namespace higgins::broker {
namespace {

namespace fs = std::filesystem;

constexpr char kTopographyFile[] = "topography.toml";

Status MakeDirs(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::IOError("create " + path + ": " + ec.message());
  return Status::OK();
}

// A module is stored as <name>.wasm, written through <name>.wasm.tmp: with those suffixes the
// file name must fit the file system's limit of 255 bytes.
constexpr size_t kMaxModuleNameBytes = 255 - sizeof(".wasm.tmp") + 1;  // 246

bool ValidModuleName(std::string_view name) {
  if (name.empty() || name.size() > kMaxModuleNameBytes || name == "." || name == "..") {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

Broker::Broker(BrokerOptions options)
    : options_(std::move(options)), committer_(options_.clock) {}

Broker::~Broker() { Shutdown(); }

Result<std::unique_ptr<Broker>> Broker::Open(BrokerOptions options) {
  HIGGINS_RETURN_IF_ERROR(MakeDirs(options.dir + "/modules"));
  // Two brokers on one folder would assign the same offsets twice and lose records.
  HIGGINS_ASSIGN_OR_RETURN(FileLock lock, FileLock::Acquire(options.dir + "/LOCK"));
  std::unique_ptr<Broker> broker(new Broker(std::move(options)));
  broker->lock_.emplace(std::move(lock));
  HIGGINS_RETURN_IF_ERROR(broker->Restore());
  return broker;
}

void Broker::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  committer_.Stop();
  std::unique_lock lock(mu_);
  for (auto& [name, stream] : streams_) {
    Status s = stream->FlushIndex(true);
    if (!s.ok()) spdlog::warn("stream '{}': index flush failed: {}", name, s.ToString());
  }
}

Status Broker::Restore() {
  auto text = ReadFileToString(options_.dir + "/" + kTopographyFile);
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound) return Status::OK();
    return text.status();
  }
  auto topography = config::Topography::Deserialize(*text);
  if (!topography.ok()) {
    return topography.status().WithContext(options_.dir + "/" + kTopographyFile);
  }
  HIGGINS_RETURN_IF_ERROR(OpenStorages(*topography));
  for (const auto& [name, decl] : topography->streams()) {
    HIGGINS_ASSIGN_OR_RETURN(auto stream, OpenStream(*topography, decl));
    streams_.emplace(name, std::move(stream));
  }
  topography_ = *std::move(topography);
  spdlog::info("restored {} storages, {} schemas, {} streams from {}", storages_.size(),
               topography_.schemas().size(), streams_.size(), options_.dir);
  return Status::OK();
}

Status Broker::OpenStorages(const config::Topography& topography) {
  for (const auto& [name, decl] : topography.storages()) {
    if (storages_.count(name) != 0) continue;
    std::unique_ptr<storage::Storage> storage;
    if (decl.type == "memory") {
      storage = storage::MakeMemoryStorage();
    } else if (decl.type == "file") {
      storage::FileStorageOptions file_options;
      auto it = decl.options.find("segment_bytes");
      if (it != decl.options.end()) file_options.segment_bytes = std::stoull(it->second);
      HIGGINS_ASSIGN_OR_RETURN(storage, storage::MakeFileStorage(
                                            options_.dir + "/storage/" + name, file_options));
    } else {
      return Status::NotSupported("storage '" + name + "': type '" + decl.type +
                                  "' is not available in this version of the broker");
    }
    storages_.emplace(name, std::move(storage));
  }
  return Status::OK();
}

Result<std::shared_ptr<StreamLog>> Broker::OpenStream(const config::Topography& topography,
                                                      const config::StreamDecl& decl) {
  storage::Storage* storage = storages_.at(decl.storage).get();
  StreamLog::Options options;
  options.name = decl.name;
  options.id = topography.StreamId(decl.name);
  options.schema = topography.FindSchema(decl.schema)->schema;
  options.partition_key = decl.partition_key;
  options.buckets = decl.buckets;
  options.storage = storage;
  if (storage->durable()) {
    options.index_dir = options_.dir + "/index/" + std::to_string(options.id);
    options.cache_bytes = options_.entry_cache_bytes;
  }
  options.max_records_per_request = options_.max_records_per_request;
  const auto& storage_options = topography.FindStorage(decl.storage)->options;
  auto fsync = storage_options.find("fsync");
  options.sync = fsync == storage_options.end() || fsync->second != "false";
  HIGGINS_ASSIGN_OR_RETURN(auto log, StreamLog::Open(std::move(options)));
  return std::shared_ptr<StreamLog>(std::move(log));
}

Status Broker::PersistTopography(const config::Topography& topography) {
  return WriteFileAtomically(options_.dir + "/" + kTopographyFile, topography.Serialize());
}

Result<config::MergeOutcome> Broker::CreateConfiguration(std::string_view toml) {
  std::lock_guard config_lock(config_mu_);
  HIGGINS_ASSIGN_OR_RETURN(config::Configuration configuration,
                           config::ParseConfiguration(toml));
  config::Topography merged;
  {
    std::shared_lock lock(mu_);
    merged = topography_;
  }
  HIGGINS_ASSIGN_OR_RETURN(
      config::MergeOutcome outcome,
      merged.Merge(configuration, [this](std::string_view name) { return HasModule(name); }));
  // New storages and streams are opened before anything becomes visible, so a failure leaves
  // the broker as it was.
  for (const auto& name : outcome.added_storages) {
    const auto* decl = merged.FindStorage(name);
    if (decl->type != "memory" && decl->type != "file") {
      return Status::NotSupported("storage '" + name + "': type '" + decl->type +
                                  "' is not available in this version of the broker");
    }
  }
  std::vector<std::pair<std::string, std::shared_ptr<StreamLog>>> opened;
  Status status = OpenStorages(merged);
  for (size_t i = 0; status.ok() && i < outcome.added_streams.size(); ++i) {
    const std::string& name = outcome.added_streams[i];
    auto stream = OpenStream(merged, *merged.FindStream(name));
    status = stream.status();
    if (stream.ok()) opened.emplace_back(name, *std::move(stream));
  }
  if (status.ok()) status = PersistTopography(merged);
  if (!status.ok()) {
    for (const auto& name : outcome.added_storages) storages_.erase(name);
    return status;
  }
  std::unique_lock lock(mu_);
  for (auto& [name, stream] : opened) streams_[name] = std::move(stream);
  topography_ = std::move(merged);
  spdlog::info("configuration merged: {} storages, {} schemas, {} streams added",
               outcome.added_storages.size(), outcome.added_schemas.size(),
               outcome.added_streams.size());
  return outcome;
}

Status Broker::DeleteConfiguration(std::string_view key) {
  std::lock_guard config_lock(config_mu_);
  config::Topography updated;
  {
    std::shared_lock lock(mu_);
    updated = topography_;
  }
  HIGGINS_RETURN_IF_ERROR(updated.Delete(key));
  HIGGINS_RETURN_IF_ERROR(PersistTopography(updated));
  std::vector<std::pair<std::shared_ptr<StreamLog>, storage::Storage*>> dropped;
  std::unique_ptr<storage::Storage> dropped_storage;
  {
    std::unique_lock lock(mu_);
    for (auto it = streams_.begin(); it != streams_.end();) {
      if (updated.FindStream(it->first) == nullptr) {
        const auto* decl = topography_.FindStream(it->first);
        dropped.emplace_back(it->second, storages_.at(decl->storage).get());
        it = streams_.erase(it);
      } else {
        ++it;
      }
    }
    for (auto it = storages_.begin(); it != storages_.end();) {
      if (updated.FindStorage(it->first) == nullptr) {
        dropped_storage = std::move(it->second);
        it = storages_.erase(it);
      } else {
        ++it;
      }
    }
    topography_ = std::move(updated);
  }
  for (auto& [stream, storage] : dropped) {
    stream->MarkDeleted();  // produces already holding the stream now fail with NotFound
    const uint64_t id = stream->id();
    Status s = storage->DropStream(id);
    if (!s.ok()) spdlog::warn("stream '{}': deleting its data failed: {}", stream->name(), s.ToString());
    std::error_code ec;
    fs::remove_all(options_.dir + "/index/" + std::to_string(id), ec);
    spdlog::info("stream '{}' deleted", stream->name());
  }
  return Status::OK();
}

std::string Broker::TopographyToml() const {
  std::shared_lock lock(mu_);
  return topography_.ToToml();
}

Status Broker::UploadModule(std::string_view name, std::string_view bytes) {
  if (!ValidModuleName(name)) {
    return Status::InvalidArgument("module name '" + std::string(name.substr(0, 300)) +
                                   "' is not 1 to " + std::to_string(kMaxModuleNameBytes) +
                                   " characters of A-Z a-z 0-9 _ . -");
  }
  if (bytes.empty()) return Status::InvalidArgument("module '" + std::string(name) + "' is empty");
  if (bytes.size() > options_.max_module_bytes) {
    return Status::ResourceExhausted("module '" + std::string(name) + "' has " +
                                     std::to_string(bytes.size()) + " bytes, more than the limit of " +
                                     std::to_string(options_.max_module_bytes));
  }
  std::lock_guard config_lock(config_mu_);
  HIGGINS_RETURN_IF_ERROR(
      WriteFileAtomically(options_.dir + "/modules/" + std::string(name) + ".wasm", bytes));
  spdlog::info("module '{}' stored ({} bytes)", name, bytes.size());
  return Status::OK();
}

bool Broker::HasModule(std::string_view name) const {
  if (!ValidModuleName(name)) return false;
  std::error_code ec;
  return fs::is_regular_file(options_.dir + "/modules/" + std::string(name) + ".wasm", ec);
}

Result<std::shared_ptr<StreamLog>> Broker::FindStream(std::string_view name) const {
  std::shared_lock lock(mu_);
  auto it = streams_.find(name);
  if (it == streams_.end()) {
    return Status::NotFound("stream '" + std::string(name) + "' does not exist");
  }
  return it->second;
}

void Broker::Produce(std::string_view stream_name, std::string_view payload, PayloadFormat format,
                     GroupCommitter::Done done) {
  auto stream = FindStream(stream_name);
  if (!stream.ok()) return done(stream.status());
  {
    std::shared_lock lock(mu_);
    const auto* decl = topography_.FindStream(stream_name);
    if (decl != nullptr && decl->kind != config::StreamKind::kSource) {
      return done(Status::InvalidArgument(
          "stream '" + std::string(stream_name) + "' is derived (" +
          std::string(config::StreamKindName(decl->kind)) +
          "): its records are produced by the broker, not by clients"));
    }
  }
  Status failure = (*stream)->failure();
  if (!failure.ok()) return done(failure);
  auto prepared = (*stream)->Prepare(payload, format);
  if (!prepared.ok()) {
    return done(prepared.status().WithContext("produce to stream '" + std::string(stream_name) +
                                              "'"));
  }
  if (!(*stream)->syncs()) {
    // Nothing to wait for: commit on this thread, sparing two thread hand-offs per request.
    const int64_t now = options_.clock ? options_.clock() : GroupCommitter::SystemNowMs();
    return done((*stream)->CommitUnsynced(*prepared, now));
  }
  committer_.Submit(*std::move(stream), *std::move(prepared), std::move(done));
}

Result<std::vector<StreamInfo>> Broker::Metadata(std::string_view name) const {
  std::shared_lock lock(mu_);
  std::vector<StreamInfo> out;
  for (const auto& [stream_name, stream] : streams_) {
    if (!name.empty() && stream_name != name) continue;
    StreamInfo info;
    info.name = stream_name;
    info.decl = *topography_.FindStream(stream_name);
    info.schema = stream->schema();
    info.partitions = stream->index().Partitions(options_.max_listed_partitions,
                                                 &info.partition_count, &info.record_count);
    info.partitions_truncated = info.partitions.size() < info.partition_count;
    out.push_back(std::move(info));
  }
  if (!name.empty() && out.empty()) {
    return Status::NotFound("stream '" + std::string(name) + "' does not exist");
  }
  return out;
}

}  // namespace higgins::broker
