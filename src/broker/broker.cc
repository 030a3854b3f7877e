#include "broker/broker.h"

#include <algorithm>
#include <filesystem>
#include <set>

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

/// Errors streams get ids that user streams (counted from 1) never reach.
constexpr uint64_t kErrorsStreamIdBit = 1ull << 62;

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
  const BrokerOptions& o = broker->options_;
  broker->engine_ = o.engine;
  if (!broker->engine_) {
    HIGGINS_ASSIGN_OR_RETURN(auto engine, udf::MakeV8Engine(o.engine_options));
    broker->engine_ = std::move(engine);
  }
  udf::ModuleLimits limits;
  limits.max_module_bytes = o.max_module_bytes;
  limits.max_memory_pages = o.engine_options.max_memory_pages;
  HIGGINS_ASSIGN_OR_RETURN(broker->modules_,
                           ModuleRegistry::Open(o.dir + "/modules", broker->engine_.get(), limits));
  DerivedEngine::Options derived_options;
  derived_options.workers = o.derived_workers;
  broker->derived_ = std::make_unique<DerivedEngine>(broker->engine_.get(), derived_options);
  HIGGINS_RETURN_IF_ERROR(broker->derived_->Start());
  HIGGINS_RETURN_IF_ERROR(broker->Restore());
  return broker;
}

void Broker::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  if (derived_) derived_->Stop();
  committer_.Stop();
  std::unique_lock lock(mu_);
  for (const auto* map : {&streams_, &errors_streams_}) {
    for (auto& [name, stream] : *map) {
      Status s = stream->FlushIndex(true);
      if (!s.ok()) spdlog::warn("stream '{}': index flush failed: {}", name, s.ToString());
    }
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
  for (const auto& [name, decl] : topography_.streams()) {
    HIGGINS_RETURN_IF_ERROR(StartProcessor(topography_, decl, streams_.at(name)));
  }
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
  log->SetCommitListener([engine = derived_.get(), name = decl.name](
                             const std::vector<std::string_view>& keys) {
    engine->OnCommit(name, keys);
  });
  return std::shared_ptr<StreamLog>(std::move(log));
}

Status Broker::StartProcessor(const config::Topography& topography, const config::StreamDecl& decl,
                              const std::shared_ptr<StreamLog>& derived) {
  if (decl.kind != config::StreamKind::kMap && decl.kind != config::StreamKind::kReduce) {
    return Status::OK();
  }
  const std::string errors_name = ErrorsStreamName(decl.name);
  std::shared_ptr<StreamLog> errors;
  {
    std::shared_lock lock(mu_);
    if (auto it = errors_streams_.find(errors_name); it != errors_streams_.end()) {
      errors = it->second;
    }
  }
  if (!errors) {
    storage::Storage* storage = storages_.at(decl.storage).get();
    StreamLog::Options options;
    options.name = errors_name;
    options.id = topography.StreamId(decl.name) | kErrorsStreamIdBit;
    options.schema = ErrorsStreamSchema();
    options.partition_key = "partition";
    options.storage = storage;
    if (storage->durable()) {
      options.index_dir = options_.dir + "/index/" + std::to_string(options.id);
    }
    const auto& storage_options = topography.FindStorage(decl.storage)->options;
    auto fsync = storage_options.find("fsync");
    options.sync = fsync == storage_options.end() || fsync->second != "false";
    HIGGINS_ASSIGN_OR_RETURN(auto log, StreamLog::Open(std::move(options)));
    errors = std::shared_ptr<StreamLog>(std::move(log));
    std::unique_lock lock(mu_);
    errors_streams_[errors_name] = errors;
  }
  std::shared_ptr<StreamLog> base;
  {
    std::shared_lock lock(mu_);
    auto it = streams_.find(decl.base);
    if (it == streams_.end()) return Status::Internal("base '" + decl.base + "' is not open");
    base = it->second;
  }
  DerivedStream::Options options;
  options.kind = decl.kind;
  options.fn = decl.fn;
  options.base = std::move(base);
  options.derived = derived;
  options.errors = std::move(errors);
  options.modules = modules_.get();
  options.limits = options_.call_limits;
  derived_->Add(DerivedStream::Start(std::move(options)), {decl.base});
  return Status::OK();
}

std::string Broker::CheckModuleFor(std::string_view name, config::StreamKind kind) const {
  auto module = modules_->Find(name);
  if (!module) {
    return "module '" + std::string(name) +
           "' has not been uploaded (upload it before the configuration that uses it)";
  }
  const udf::RunKind needed =
      kind == config::StreamKind::kReduce ? udf::RunKind::kReduce : udf::RunKind::kMap;
  if (module->info().run_kind != needed) {
    return "module '" + std::string(name) + "' is a " +
           std::string(udf::RunKindName(module->info().run_kind)) + " module (its run takes " +
           (module->info().run_kind == udf::RunKind::kMap ? "1 argument" : "2 arguments") +
           "); a " + std::string(config::StreamKindName(kind)) + " stream needs a " +
           std::string(udf::RunKindName(needed)) + " module";
  }
  return "";
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
      merged.Merge(configuration, [this](std::string_view name, config::StreamKind kind) {
        return CheckModuleFor(name, kind);
      }));
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
  {
    std::unique_lock lock(mu_);
    for (auto& [name, stream] : opened) streams_[name] = stream;
    topography_ = std::move(merged);
  }
  // Processors start once their streams are visible; added streams come in dependency order
  // within a configuration only by chance, and every base is open by now.
  for (auto& [name, stream] : opened) {
    Status s = StartProcessor(topography_, *topography_.FindStream(name), stream);
    if (!s.ok()) spdlog::error("stream '{}': its processor did not start: {}", name, s.ToString());
  }
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
  std::vector<std::pair<std::shared_ptr<StreamLog>, storage::Storage*>> dropped_errors;
  for (auto& [stream, storage] : dropped) {
    derived_->Remove(stream->name());
    std::unique_lock lock(mu_);
    auto it = errors_streams_.find(ErrorsStreamName(stream->name()));
    if (it != errors_streams_.end()) {
      dropped_errors.emplace_back(it->second, storage);
      errors_streams_.erase(it);
    }
  }
  dropped.insert(dropped.end(), dropped_errors.begin(), dropped_errors.end());
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

Result<uint64_t> Broker::UploadModule(std::string_view name, std::string_view bytes) {
  std::lock_guard config_lock(config_mu_);  // no stream starts using `name` meanwhile
  {
    // A new version must suit the streams that already use the name.
    auto info = engine_->Inspect(bytes);
    std::shared_lock lock(mu_);
    for (const auto& [stream, decl] : topography_.streams()) {
      if (!info.ok() || decl.fn != name) continue;
      const bool reduce = decl.kind == config::StreamKind::kReduce;
      if (reduce != (info->run_kind == udf::RunKind::kReduce)) {
        return Status::InvalidArgument(
            "module '" + std::string(name) + "' is a " +
            std::string(udf::RunKindName(info->run_kind)) + " module, but " +
            std::string(config::StreamKindName(decl.kind)) + " stream '" + stream +
            "' uses that name");
      }
    }
  }
  HIGGINS_ASSIGN_OR_RETURN(auto module, modules_->Upload(name, bytes));
  // Streams whose records failed because the module was missing pick it up with the next
  // commit; nothing is reprocessed.
  return module->version;
}

bool Broker::HasModule(std::string_view name) const { return modules_->Find(name) != nullptr; }

Result<std::shared_ptr<StreamLog>> Broker::FindStream(std::string_view name) const {
  std::shared_lock lock(mu_);
  auto it = streams_.find(name);
  if (it == streams_.end()) {
    it = errors_streams_.find(name);
    if (it == errors_streams_.end()) {
      return Status::NotFound("stream '" + std::string(name) + "' does not exist");
    }
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
    if (decl == nullptr) {
      return done(Status::InvalidArgument(
          "stream '" + std::string(stream_name) +
          "' holds the errors of a derived stream: its records are written by the broker"));
    }
    if (decl->kind != config::StreamKind::kSource) {
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
  for (const auto* map : {&streams_, &errors_streams_}) {
  for (const auto& [stream_name, stream] : *map) {
    if (!name.empty() && stream_name != name) continue;
    StreamInfo info;
    info.name = stream_name;
    if (const auto* decl = topography_.FindStream(stream_name)) {
      info.decl = *decl;
      info.kind = std::string(config::StreamKindName(decl->kind));
    } else {
      const auto* derived = topography_.FindStream(
          std::string_view(stream_name).substr(0, stream_name.size() - sizeof("/errors") + 1));
      info.kind = "errors";
      info.decl.name = stream_name;
      info.decl.partition_key = stream->partition_key();
      info.decl.buckets = stream->buckets();
      if (derived != nullptr) info.decl.storage = derived->storage;
    }
    info.schema = stream->schema();
    info.partitions = stream->index().Partitions(options_.max_listed_partitions,
                                                 &info.partition_count, &info.record_count);
    info.partitions_truncated = info.partitions.size() < info.partition_count;
    out.push_back(std::move(info));
  }
  }
  if (!name.empty() && out.empty()) {
    return Status::NotFound("stream '" + std::string(name) + "' does not exist");
  }
  return out;
}

std::vector<std::shared_ptr<StreamLog>> Broker::DerivedFrom(std::string_view stream) const {
  std::vector<std::shared_ptr<StreamLog>> out;
  std::vector<std::string_view> frontier{stream};
  std::set<std::string_view> seen;
  while (!frontier.empty()) {
    const std::string_view input = frontier.back();
    frontier.pop_back();
    for (const auto& [name, decl] : topography_.streams()) {
      const bool udf =
          decl.kind == config::StreamKind::kMap || decl.kind == config::StreamKind::kReduce;
      if (!udf || decl.base != input || !seen.insert(name).second) continue;
      if (auto it = streams_.find(name); it != streams_.end()) out.push_back(it->second);
      frontier.push_back(name);
    }
  }
  return out;
}

void Broker::Wait(std::vector<std::shared_ptr<StreamLog>> streams,
                  std::vector<std::pair<std::string, uint64_t>> needed,
                  std::chrono::milliseconds timeout, std::function<void(Status)> done) {
  if (streams.empty() || needed.empty()) return done(Status::OK());
  timeout = std::clamp(timeout, std::chrono::milliseconds(0), options_.max_wait_for_derived);
  auto shared = std::make_shared<std::pair<std::vector<std::shared_ptr<StreamLog>>,
                                           std::vector<std::pair<std::string, uint64_t>>>>(
      std::move(streams), std::move(needed));
  auto describe = [shared, timeout] {
    std::string behind;
    for (const auto& stream : shared->first) {
      for (const auto& [key, count] : shared->second) {
        const uint64_t have = stream->index().Count(key);
        if (have < count) {
          if (!behind.empty()) behind += ", ";
          behind += "'" + stream->name() + "' partition '" + key + "' has " +
                    std::to_string(have) + " of " + std::to_string(count) + " records";
          break;
        }
      }
    }
    return "derived streams did not catch up within " + std::to_string(timeout.count()) +
           " ms: " + behind;
  };
  std::vector<DerivedEngine::Watch> watches;
  for (const auto& stream : shared->first) {
    for (const auto& [key, count] : shared->second) {
      watches.push_back({stream->name(), key, count,
                         [stream, key = key] { return stream->index().Count(key); }});
    }
  }
  derived_->WaitUntil(std::move(watches), DerivedEngine::Clock::now() + timeout,
                      std::move(describe), std::move(done));
}

void Broker::WaitForDerived(std::string_view stream, const ProduceResult& produced,
                            std::chrono::milliseconds timeout, std::function<void(Status)> done) {
  std::vector<std::shared_ptr<StreamLog>> streams;
  {
    std::shared_lock lock(mu_);
    streams = DerivedFrom(stream);
  }
  std::vector<uint64_t> counts(produced.partitions.size(), 0);
  for (size_t r = 0; r < produced.offsets.size(); ++r) {
    uint64_t& c = counts[produced.partition_indexes[r]];
    c = std::max(c, produced.offsets[r] + 1);
  }
  std::vector<std::pair<std::string, uint64_t>> needed;
  for (size_t i = 0; i < counts.size(); ++i) needed.emplace_back(produced.partitions[i], counts[i]);
  Wait(std::move(streams), std::move(needed), timeout, std::move(done));
}

void Broker::WaitForQuery(std::string_view stream, std::string_view key,
                          std::chrono::milliseconds timeout, std::function<void(Status)> done) {
  std::shared_ptr<StreamLog> target;
  std::shared_ptr<StreamLog> source;
  {
    std::shared_lock lock(mu_);
    const config::StreamDecl* decl = topography_.FindStream(stream);
    auto udf = [](const config::StreamDecl* d) {
      return d != nullptr &&
             (d->kind == config::StreamKind::kMap || d->kind == config::StreamKind::kReduce);
    };
    if (!udf(decl)) return done(Status::OK());
    target = streams_.at(decl->name);
    while (udf(decl)) decl = topography_.FindStream(decl->base);
    if (decl == nullptr) return done(Status::OK());
    source = streams_.at(decl->name);
  }
  const uint64_t count = source->index().Count(key);
  Wait({target}, {{std::string(key), count}}, timeout, std::move(done));
}

}  // namespace higgins::broker
