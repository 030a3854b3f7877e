#include "broker/broker.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "broker/storage_factory.h"
#include "common/all_of.h"
#include "common/file_util.h"
#include "common/quote.h"
#include "config/configuration.h"
#include "derived/derived_lag.h"
#include "higgins/arrow/ipc/reader.h"
#include "stream/window_view.h"

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

// How many declared streams the NotFound of an unknown stream lists.
constexpr size_t kListedStreams = 10;

// NotFound for stream `name`, listing the declared streams (in name order, the first
// kListedStreams) so that a mistyped name is seen at once.
Status NoSuchStream(
    std::string_view name,
    const std::map<std::string, std::shared_ptr<stream::StreamLog>, std::less<>>& streams) {
  std::string message = "stream " + Quote(name) + " does not exist (";
  if (streams.empty()) return Status::NotFound(message + "no streams are declared)");
  message += "declared streams: ";
  size_t listed = 0;
  for (const auto& [stream_name, log] : streams) {
    if (listed == kListedStreams) break;
    message += (listed++ == 0 ? "" : ", ") + stream_name;
  }
  if (streams.size() > listed) {
    message += " and " + std::to_string(streams.size() - listed) + " more";
  }
  return Status::NotFound(message + ")");
}

}  // namespace

Broker::Broker(BrokerOptions options) : options_(std::move(options)), committer_(options_.clock) {
  subscription::SubscriptionManager::Options sub;
  sub.dir = options_.dir + "/subscriptions";
  sub.max_subscriptions = options_.max_subscriptions;
  sub.max_demand = options_.max_subscription_demand;
  sub.max_push_records = std::min<uint64_t>(options_.max_push_records, options_.max_range_records);
  sub.default_timeout = options_.default_visibility_timeout;
  sub.max_listed_partitions = options_.max_listed_partitions;
  subscriptions_ = std::make_unique<subscription::SubscriptionManager>(std::move(sub));
}

Broker::~Broker() {
  Shutdown();
}

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
  HIGGINS_ASSIGN_OR_RETURN(
      broker->modules_,
      derived::ModuleRegistry::Open(o.dir + "/modules", broker->engine_.get(), limits));
  derived::DerivedEngine::Options derived_options;
  derived_options.workers = o.derived_workers;
  broker->derived_ =
      std::make_unique<derived::DerivedEngine>(broker->engine_.get(), derived_options);
  HIGGINS_RETURN_IF_ERROR(broker->derived_->Start());
  HIGGINS_RETURN_IF_ERROR(broker->Restore());
  HIGGINS_RETURN_IF_ERROR(broker->subscriptions_->Restore(
      [b = broker.get()](
          const std::string& name) -> std::optional<subscription::SubscriptionManager::StreamRef> {
        auto ref = b->SubscriptionRef(name);
        if (!ref.ok()) return std::nullopt;
        return *std::move(ref);
      }));
  broker->subscriptions_->Start();
  return broker;
}

Result<subscription::SubscriptionManager::StreamRef> Broker::SubscriptionRef(
    std::string_view stream) const {
  HIGGINS_ASSIGN_OR_RETURN(auto log, FindStream(stream));
  auto window = FindWindow(stream);
  if (!window)
    return subscription::SubscriptionManager::StreamRef{subscription::MakeStreamSource(log),
                                                        log->id(), log->durable(),
                                                        std::string(stream), log->syncs()};
  if (window->spec.type != config::WindowSpec::Type::kCount) {
    return Status::NotSupported(
        "'" + std::string(stream) +
        "' is a time window stream, which subscriptions cannot follow yet (count windows they "
        "can); subscribe to its base stream '" +
        window->base_name + "' or query the window stream");
  }
  if (window->spec.interval > options_.max_range_records) {
    return Status::NotSupported("'" + std::string(stream) + "' has windows of " +
                                std::to_string(window->spec.interval) +
                                " records, more than a push may carry (--max-range-records, " +
                                std::to_string(options_.max_range_records) +
                                "); subscribe to its base stream '" + window->base_name + "'");
  }
  return subscription::SubscriptionManager::StreamRef{
      subscription::MakeCountWindowSource(window->base, window->spec, options_.max_range_records),
      log->id(), window->base->durable(), window->base_name, window->base->syncs()};
}

void Broker::ListenToCommits(stream::StreamLog& log) {
  log.SetCommitListener([engine = derived_.get(), subscriptions = subscriptions_.get(),
                         waiters = &commit_waiters_,
                         name = log.name()](const std::vector<std::string_view>& keys) {
    engine->OnCommit(name, keys);
    subscriptions->OnCommit(name, keys);
    waiters->Notify(name);
  });
}

void Broker::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  subscriptions_->Stop();
  if (derived_) derived_->Stop();
  committer_.Stop();
  std::unique_lock lock(mu_);
  auto flush = [](const std::string& name, stream::StreamLog& stream) {
    Status s = stream.FlushIndex(true);
    if (!s.ok()) spdlog::warn("stream '{}': index flush failed: {}", name, s.ToString());
  };
  for (auto& [name, stream] : streams_) flush(name, *stream);
  for (auto& [name, errors] : errors_streams_) flush(name, *errors.log);
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
    HIGGINS_ASSIGN_OR_RETURN(std::unique_ptr<storage::Storage> storage,
                             OpenStorage(name, decl, options_.dir));
    storages_.emplace(name, std::move(storage));
  }
  return Status::OK();
}

Result<std::shared_ptr<stream::StreamLog>> Broker::OpenStream(const config::Topography& topography,
                                                              const config::StreamDecl& decl) {
  storage::Storage* storage = storages_.at(decl.storage).get();
  stream::StreamLog::Options options;
  options.name = decl.name;
  options.id = topography.IdOf(decl.name);
  options.schema = topography.FindSchema(decl.schema)->schema;
  options.partition_key = decl.partition_key;
  options.buckets = decl.buckets;
  options.storage = storage;
  if (storage->durable()) {
    options.index_dir = options_.dir + "/index/" + ToString(options.id);
    options.cache_bytes = options_.entry_cache_bytes;
  }
  options.max_records_per_request = options_.max_records_per_request;
  options.sync = topography.FindStorage(decl.storage)->syncs();
  HIGGINS_ASSIGN_OR_RETURN(auto log, stream::StreamLog::Open(std::move(options)));
  ListenToCommits(*log);
  return std::shared_ptr<stream::StreamLog>(std::move(log));
}

Status Broker::StartJoin(const config::StreamDecl& decl,
                         const std::shared_ptr<stream::StreamLog>& derived) {
  derived::JoinStream::Options options;
  std::vector<std::string> inputs = JoinParticipants(decl);
  {
    std::shared_lock lock(mu_);
    for (const std::string& name : inputs) {
      auto it = streams_.find(name);
      if (it == streams_.end()) return Status::Internal("participant '" + name + "' is not open");
      options.participants.push_back(it->second);
    }
  }
  const arrow::Schema& schema = *derived->schema();
  for (size_t f = 0; f < schema.num_fields(); ++f) {
    derived::JoinStream::Source& source = options.sources.emplace_back();
    for (const config::JoinField& entry : decl.map) {
      if (entry.out != schema.field(f).name) continue;
      const auto participant = std::find(inputs.begin(), inputs.end(), entry.participant);
      if (participant == inputs.end()) {
        return Status::Internal("join map '" + entry.out + "' names no participant");
      }
      source.participant = static_cast<size_t>(participant - inputs.begin());
      const auto field =
          options.participants[source.participant]->schema()->FieldIndex(entry.field);
      if (!field) return Status::Internal("join map '" + entry.out + "' names no field");
      source.field = static_cast<int>(*field);
    }
  }
  options.derived = derived;
  if (derived->durable()) {
    // The intent log syncs when the join stream does (its storage's `fsync` option).
    HIGGINS_ASSIGN_OR_RETURN(options.intents, derived::JoinIntentLog::Open(
                                                  options_.dir + "/index/" +
                                                      ToString(derived->id()) + "/join-intent.log",
                                                  derived->syncs()));
  }
  options.on_progress = [engine = derived_.get(), name = decl.name](
                            size_t participant, std::span<const std::string> keys) {
    engine->Notify(derived::JoinProgressId(name, participant), keys);
  };
  HIGGINS_ASSIGN_OR_RETURN(std::shared_ptr<derived::JoinStream> join,
                           derived::JoinStream::Start(std::move(options)));
  {
    std::unique_lock lock(mu_);
    joins_[decl.name] = join;
  }
  derived_->Add(std::move(join), std::move(inputs));
  return Status::OK();
}

std::vector<std::string> Broker::JoinParticipants(const config::StreamDecl& decl) {
  std::vector<std::string> out = {decl.base};
  for (const std::string& name : decl.join) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

Status Broker::StartProcessor(const config::Topography& topography, const config::StreamDecl& decl,
                              const std::shared_ptr<stream::StreamLog>& derived) {
  if (decl.kind == config::StreamKind::kJoin) return StartJoin(decl, derived);
  if (decl.kind != config::StreamKind::kMap && decl.kind != config::StreamKind::kReduce) {
    return Status::OK();
  }
  const std::string errors_name = derived::ErrorsStreamName(decl.name);
  std::shared_ptr<stream::StreamLog> errors;
  {
    std::shared_lock lock(mu_);
    if (auto it = errors_streams_.find(errors_name); it != errors_streams_.end()) {
      errors = it->second.log;
    }
  }
  if (!errors) {
    storage::Storage* storage = storages_.at(decl.storage).get();
    stream::StreamLog::Options options;
    options.name = errors_name;
    options.id = ErrorsStreamIdOf(topography.IdOf(decl.name));
    options.schema = derived::ErrorsStreamSchema();
    options.partition_key = "partition";
    options.storage = storage;
    if (storage->durable()) {
      options.index_dir = options_.dir + "/index/" + ToString(options.id);
    }
    options.sync = topography.FindStorage(decl.storage)->syncs();
    HIGGINS_ASSIGN_OR_RETURN(auto log, stream::StreamLog::Open(std::move(options)));
    ListenToCommits(*log);
    errors = std::shared_ptr<stream::StreamLog>(std::move(log));
    std::unique_lock lock(mu_);
    errors_streams_[errors_name] = ErrorsStream{decl.name, errors};
  }
  std::shared_ptr<stream::StreamLog> base;
  {
    std::shared_lock lock(mu_);
    auto it = streams_.find(decl.base);
    if (it == streams_.end()) return Status::Internal("base '" + decl.base + "' is not open");
    base = it->second;
  }
  derived::DerivedStream::Options options;
  options.kind = decl.kind;
  options.fn = decl.fn;
  options.base = std::move(base);
  options.derived = derived;
  options.errors = std::move(errors);
  options.modules = modules_.get();
  options.limits = options_.call_limits;
  derived_->Add(derived::DerivedStream::Start(std::move(options)), {decl.base});
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
  // Owner-only: it holds the storages' credentials.
  return WriteFileAtomically(options_.dir + "/" + kTopographyFile, topography.Serialize(), 0600);
}

uint64_t Broker::LagLocked(const config::StreamDecl& decl, const stream::StreamLog& derived) const {
  std::vector<std::string> names;
  if (decl.kind == config::StreamKind::kJoin) {
    names = JoinParticipants(decl);
  } else if (decl.kind == config::StreamKind::kMap || decl.kind == config::StreamKind::kReduce) {
    names.push_back(decl.base);
  } else {
    return 0;
  }
  std::vector<const stream::StreamLog*> inputs;
  for (const std::string& name : names) {
    auto it = streams_.find(name);
    if (it != streams_.end()) inputs.push_back(it->second.get());
  }
  return derived::DerivedLag(derived, inputs);
}

Result<ConfigurationOutcome> Broker::CreateConfiguration(std::string_view toml) {
  std::lock_guard config_lock(config_mu_);
  HIGGINS_ASSIGN_OR_RETURN(config::Configuration configuration, config::ParseConfiguration(toml));
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
  std::vector<std::pair<std::string, std::shared_ptr<stream::StreamLog>>> opened;
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
  ConfigurationOutcome result;
  {
    std::unique_lock lock(mu_);
    for (auto& [name, stream] : opened) streams_[name] = stream;
    topography_ = std::move(merged);
    // A new derived stream is empty, so its lag before its processor starts is what its inputs
    // hold now: its catch-up.
    for (auto& [name, stream] : opened) {
      const config::StreamDecl& decl = *topography_.FindStream(name);
      if (decl.kind == config::StreamKind::kMap || decl.kind == config::StreamKind::kReduce ||
          decl.kind == config::StreamKind::kJoin) {
        result.catch_ups.push_back({name, LagLocked(decl, *stream)});
      }
    }
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
  for (const CatchUp& catch_up : result.catch_ups) {
    if (catch_up.records > 0) {
      spdlog::info("stream '{}': catching up on {} records of its inputs", catch_up.stream,
                   catch_up.records);
    }
  }
  result.merged = std::move(outcome);
  return result;
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
  std::vector<std::pair<std::shared_ptr<stream::StreamLog>, storage::Storage*>> dropped;
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
  std::vector<std::pair<std::shared_ptr<stream::StreamLog>, storage::Storage*>> dropped_errors;
  for (auto& [stream, storage] : dropped) {
    derived_->Remove(stream->name());
    std::unique_lock lock(mu_);
    joins_.erase(stream->name());
    auto it = errors_streams_.find(derived::ErrorsStreamName(stream->name()));
    if (it != errors_streams_.end()) {
      dropped_errors.emplace_back(it->second.log, storage);
      errors_streams_.erase(it);
    }
  }
  dropped.insert(dropped.end(), dropped_errors.begin(), dropped_errors.end());
  for (auto& [stream, storage] : dropped) {
    subscriptions_->DropStream(stream->name());
    stream->MarkDeleted();  // produces already holding the stream now fail with NotFound
    const StreamId id = stream->id();
    Status s = storage->DropStream(id);
    if (!s.ok())
      spdlog::warn("stream '{}': deleting its data failed: {}", stream->name(), s.ToString());
    std::error_code ec;
    fs::remove_all(options_.dir + "/index/" + ToString(id), ec);
    spdlog::info("stream '{}' deleted", stream->name());
  }
  return Status::OK();
}

std::string Broker::TopographyToml() const {
  std::shared_lock lock(mu_);
  return topography_.ToToml(/*redact_credentials=*/true);
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
        return Status::InvalidArgument("module '" + std::string(name) + "' is a " +
                                       std::string(udf::RunKindName(info->run_kind)) +
                                       " module, but " +
                                       std::string(config::StreamKindName(decl.kind)) +
                                       " stream '" + stream + "' uses that name");
      }
    }
  }
  HIGGINS_ASSIGN_OR_RETURN(auto module, modules_->Upload(name, bytes));
  // Streams whose records failed because the module was missing pick it up with the next
  // commit; nothing is reprocessed.
  return module->version;
}

bool Broker::HasModule(std::string_view name) const {
  return modules_->Find(name) != nullptr;
}

Result<std::shared_ptr<stream::StreamLog>> Broker::FindStream(std::string_view name) const {
  std::shared_lock lock(mu_);
  if (auto it = streams_.find(name); it != streams_.end()) return it->second;
  if (auto it = errors_streams_.find(name); it != errors_streams_.end()) return it->second.log;
  return NoSuchStream(name, streams_);
}

// (stream name, payload) is the order of every produce API; swapped, the payload names no
// stream and the produce fails with NotFound.
Result<std::shared_ptr<stream::StreamLog>> Broker::ProducibleStream(std::string_view stream_name) {
  HIGGINS_ASSIGN_OR_RETURN(auto stream, FindStream(stream_name));
  {
    std::shared_lock lock(mu_);
    const auto* decl = topography_.FindStream(stream_name);
    if (decl == nullptr) {
      return Status::InvalidArgument(
          "stream " + Quote(stream_name) +
          " holds the errors of a derived stream: its records are written by the broker");
    }
    if (decl->kind != config::StreamKind::kSource) {
      return Status::InvalidArgument("stream " + Quote(stream_name) + " is derived (" +
                                     std::string(config::StreamKindName(decl->kind)) +
                                     "): its records are produced by the broker, not by clients");
    }
  }
  HIGGINS_RETURN_IF_ERROR(stream->failure());
  return stream;
}

void Broker::Commit(std::shared_ptr<stream::StreamLog> stream, stream::PreparedProduce prepared,
                    ProduceDone done) {
  if (!stream->syncs()) {
    // Nothing to wait for: commit on this thread, sparing two thread hand-offs per request.
    return done(stream->CommitNow(prepared, NowMs()));
  }
  committer_.Submit(std::move(stream), std::move(prepared), std::move(done));
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
void Broker::Produce(std::string_view stream_name, std::string_view payload,
                     stream::PayloadFormat format, ProduceDone done) {
  auto stream = ProducibleStream(stream_name);
  if (!stream.ok()) return done(stream.status());
  auto prepared = (*stream)->Prepare(payload, format);
  if (!prepared.ok()) {
    return done(prepared.status().WithContext("produce to stream " + Quote(stream_name)));
  }
  Commit(*std::move(stream), *std::move(prepared), std::move(done));
}

namespace {

/// Payloads above this are produced alone: their own batch already amortises the per-request
/// cost, and preparing them one after another before one commit would only hold back the
/// commit (on file storage, the fsync) that could run while the next one is decoded.
constexpr size_t kMaxCoalescedPayloadBytes = size_t{16} << 10;
/// A coalesced run is cut once its payloads add up to this.
constexpr size_t kMaxCoalescedRunBytes = size_t{1} << 20;

bool Coalescible(const BrokerApi::ProduceItem& item) {
  if (item.payload.size() > kMaxCoalescedPayloadBytes) return false;
  return item.format == stream::PayloadFormat::kJson ||
         (item.format == stream::PayloadFormat::kAuto && !arrow::ipc::LooksLikeIpc(item.payload));
}

}  // namespace

void Broker::ProduceMany(std::string_view stream_name, std::span<ProduceItem> items) {
  if (items.size() == 1) {
    return Produce(stream_name, items[0].payload, items[0].format, std::move(items[0].done));
  }
  if (items.empty()) return;
  auto stream = ProducibleStream(stream_name);
  if (!stream.ok()) {
    for (auto& item : items) item.done(stream.status());
    return;
  }
  size_t i = 0;
  while (i < items.size()) {
    size_t end = i;
    size_t bytes = 0;
    while (end < items.size() && Coalescible(items[end]) && bytes < kMaxCoalescedRunBytes) {
      bytes += items[end].payload.size();
      ++end;
    }
    if (end - i >= 2) {
      ProduceCoalesced(*stream, stream_name, items.subspan(i, end - i));
      i = end;
    } else {
      Produce(stream_name, items[i].payload, items[i].format, std::move(items[i].done));
      ++i;
    }
  }
}

void Broker::ProduceCoalesced(const std::shared_ptr<stream::StreamLog>& stream,
                              std::string_view stream_name, std::span<ProduceItem> items) {
  std::vector<std::string_view> payloads;
  payloads.reserve(items.size());
  for (const auto& item : items) payloads.push_back(item.payload);
  auto prepared = stream->PrepareJson(payloads);
  if (!prepared.ok()) {
    // Some payload is bad: one by one, so that it alone fails, with its own error.
    for (auto& item : items) Produce(stream_name, item.payload, item.format, std::move(item.done));
    return;
  }
  std::vector<ProduceDone> dones;
  dones.reserve(items.size());
  for (auto& item : items) dones.push_back(std::move(item.done));
  std::vector<int64_t> request_rows = prepared->request_rows;
  Commit(stream, *std::move(prepared),
         [dones = std::move(dones),
          request_rows = std::move(request_rows)](Result<stream::ProduceResult> result) {
           Result<std::vector<stream::ProduceResult>> parts =
               result.ok() ? stream::SplitResult(*result, request_rows)
                           : Result<std::vector<stream::ProduceResult>>(result.status());
           for (size_t k = 0; k < dones.size(); ++k) {
             if (parts.ok()) {
               dones[k](std::move((*parts)[k]));
             } else {
               dones[k](parts.status());
             }
           }
         });
}

std::optional<Broker::WindowSource> Broker::FindWindow(std::string_view name) const {
  std::shared_lock lock(mu_);
  const config::StreamDecl* decl = topography_.FindStream(name);
  if (decl == nullptr || decl->kind != config::StreamKind::kWindow || !decl->window) {
    return std::nullopt;
  }
  const config::StreamDecl* base = topography_.FindStream(decl->base);
  auto it = streams_.find(decl->base);
  if (base == nullptr || it == streams_.end()) return std::nullopt;
  return WindowSource{base->name, it->second, *decl->window,
                      base->kind == config::StreamKind::kSource};
}

int64_t Broker::NowMs() const {
  return options_.clock ? options_.clock() : stream::GroupCommitter::SystemNowMs();
}

stream::PartitionListing Broker::WindowPartitions(const config::StreamDecl& decl) const {
  auto base = streams_.find(decl.base);
  if (base == streams_.end() || !decl.window) return {};
  stream::PartitionListing listing = base->second->index().Partitions(SIZE_MAX);
  listing.records = 0;  // windows, not base records
  for (stream::PartitionCount& p : listing.partitions) {
    p.count = stream::WindowCount(*base->second, *decl.window, p.key);
    listing.records += p.count;
  }
  listing.partitions.resize(std::min(listing.partitions.size(), options_.max_listed_partitions));
  return listing;
}

Result<std::vector<StreamInfo>> Broker::Metadata(std::string_view name) const {
  std::shared_lock lock(mu_);
  std::vector<StreamInfo> out;
  // `errors_of`: for an errors stream, the map or reduce stream it belongs to.
  auto describe = [&](const std::string& stream_name, const stream::StreamLog& stream,
                      const std::string* errors_of) {
    if (!name.empty() && stream_name != name) return;
    StreamInfo info;
    info.name = stream_name;
    if (errors_of == nullptr) {
      if (const auto* decl = topography_.FindStream(stream_name)) info.decl = *decl;
      info.kind = std::string(config::StreamKindName(info.decl.kind));
    } else {
      info.kind = "errors";
      info.decl.name = stream_name;
      info.decl.partition_key = stream.partition_key();
      info.decl.buckets = stream.buckets();
      if (const auto* derived = topography_.FindStream(*errors_of)) {
        info.decl.storage = derived->storage;
      }
    }
    info.schema = stream.schema();
    stream::PartitionListing listing =
        info.decl.kind == config::StreamKind::kWindow
            ? WindowPartitions(info.decl)
            : stream.index().Partitions(options_.max_listed_partitions);
    info.partitions = std::move(listing.partitions);
    info.partition_count = listing.total;
    info.record_count = listing.records;
    info.partitions_truncated = info.partitions.size() < info.partition_count;
    if (errors_of == nullptr) info.lag = LagLocked(info.decl, stream);
    out.push_back(std::move(info));
  };
  for (const auto& [stream_name, stream] : streams_) describe(stream_name, *stream, nullptr);
  for (const auto& [stream_name, errors] : errors_streams_) {
    describe(stream_name, *errors.log, &errors.derived);
  }
  if (!name.empty() && out.empty()) {
    return NoSuchStream(name, streams_);
  }
  return out;
}

void Broker::WaitFor(std::vector<Need> needs, Deadline deadline, std::function<void(Status)> done) {
  if (needs.empty()) return done(Status::OK());
  auto shared = std::make_shared<std::vector<Need>>(std::move(needs));
  auto describe = [shared, timeout = deadline.timeout] {
    std::string behind;
    for (const Need& need : *shared) {
      const uint64_t have = need.watch.have();
      if (have >= need.watch.count) continue;
      if (!behind.empty()) behind += ", ";
      behind += need.what + " partition " + Quote(need.watch.key) + " has " + std::to_string(have) +
                " of " + std::to_string(need.watch.count) + " records";
    }
    return "derived streams did not catch up within " + std::to_string(timeout.count()) +
           " ms: " + behind;
  };
  std::vector<derived::DerivedEngine::Watch> watches;
  for (const Need& need : *shared) watches.push_back(need.watch);
  derived_->WaitUntil(std::move(watches), deadline.at, std::move(describe), std::move(done));
}

Broker::Deadline Broker::MakeDeadline(std::chrono::milliseconds timeout) const {
  timeout = std::clamp(timeout, std::chrono::milliseconds(0), options_.max_wait_for_derived);
  return Deadline{derived::DerivedEngine::Clock::now() + timeout, timeout};
}

Broker::Need Broker::ProcessedNeed(const std::string& stream,
                                   const std::shared_ptr<stream::StreamLog>& log,
                                   const std::shared_ptr<derived::JoinStream>& join,
                                   size_t participant, const std::string& input,
                                   const std::string& key, uint64_t count) {
  if (join) {
    return {"'" + stream + "' (joining '" + input + "')",
            {derived::JoinProgressId(stream, participant), key, count,
             [join, participant, key] { return join->Processed(participant, key); }}};
  }
  return {"'" + stream + "'", {stream, key, count, [log, key] { return log->index().Count(key); }}};
}

void Broker::WaitDownstream(const std::string& stream,
                            const std::map<std::string, uint64_t>& needed, Deadline deadline,
                            std::function<void(Status)> done) {
  // The streams fed directly by `stream`: map and reduce streams must hold `needed` records
  // per key; joins must have joined that many of `stream`'s records per key. Then the same for
  // the streams fed by those, with a join's own counts once it has caught up.
  struct Dependent {
    std::string name;
    std::shared_ptr<stream::StreamLog> log;
    std::shared_ptr<derived::JoinStream> join;  // null for map and reduce
    size_t participant = 0;
  };
  std::vector<Dependent> dependents;
  {
    std::shared_lock lock(mu_);
    for (const auto& [name, decl] : topography_.streams()) {
      auto log = streams_.find(name);
      if (log == streams_.end()) continue;
      if ((decl.kind == config::StreamKind::kMap || decl.kind == config::StreamKind::kReduce) &&
          decl.base == stream) {
        dependents.push_back({name, log->second, nullptr, 0});
      } else if (decl.kind == config::StreamKind::kJoin) {
        const std::vector<std::string> participants = JoinParticipants(decl);
        auto p = std::find(participants.begin(), participants.end(), stream);
        auto join = joins_.find(name);
        if (p == participants.end() || join == joins_.end()) continue;
        dependents.push_back(
            {name, log->second, join->second, static_cast<size_t>(p - participants.begin())});
      }
    }
  }
  if (dependents.empty() || needed.empty()) return done(Status::OK());
  auto all = AllOf(dependents.size(), std::move(done));
  for (Dependent& d : dependents) {
    std::vector<Need> needs;
    needs.reserve(needed.size());
    for (const auto& [key, count] : needed) {
      needs.push_back(ProcessedNeed(d.name, d.log, d.join, d.participant, stream, key, count));
    }
    WaitFor(std::move(needs), deadline, [this, d, needed, deadline, all](const Status& s) {
      if (!s.ok()) return all(s);
      std::map<std::string, uint64_t> next = needed;
      if (d.join) {
        for (auto& [key, count] : next) count = d.log->index().Count(key);
      }
      WaitDownstream(d.name, next, deadline, all);
    });
  }
}

void Broker::WaitUpstream(const std::string& stream, const std::string& key, Deadline deadline,
                          std::function<void(Status)> done) {
  // Each input of `stream` first catches up itself; then `stream` must have processed every
  // record the input holds for `key` at that moment.
  config::StreamDecl decl;
  std::shared_ptr<stream::StreamLog> log;
  std::shared_ptr<derived::JoinStream> join;
  {
    std::shared_lock lock(mu_);
    const config::StreamDecl* found = topography_.FindStream(stream);
    if (found == nullptr || found->kind == config::StreamKind::kSource) return done(Status::OK());
    decl = *found;
    if (auto it = streams_.find(stream); it != streams_.end()) log = it->second;
    if (auto it = joins_.find(stream); it != joins_.end()) join = it->second;
  }
  if (decl.kind == config::StreamKind::kWindow) {
    return WaitUpstream(decl.base, key, deadline, std::move(done));  // a view of its base
  }
  if (!log || (decl.kind == config::StreamKind::kJoin && !join)) return done(Status::OK());
  const std::vector<std::string> inputs = decl.kind == config::StreamKind::kJoin
                                              ? JoinParticipants(decl)
                                              : std::vector<std::string>{decl.base};
  auto all = AllOf(inputs.size(), std::move(done));
  for (size_t p = 0; p < inputs.size(); ++p) {
    WaitUpstream(
        inputs[p], key, deadline,
        [this, p, input = inputs[p], stream, key, log, join, deadline, all](const Status& s) {
          if (!s.ok()) return all(s);
          auto input_log = FindStream(input);
          if (!input_log.ok()) return all(input_log.status());
          const uint64_t count = (*input_log)->index().Count(key);
          std::vector<Need> needs;
          needs.push_back(ProcessedNeed(stream, log, join, p, input, key, count));
          WaitFor(std::move(needs), deadline, all);
        });
  }
}

void Broker::WaitForDerived(std::string_view stream, const stream::ProduceResult& produced,
                            std::chrono::milliseconds timeout, std::function<void(Status)> done) {
  std::map<std::string, uint64_t> needed;
  for (size_t r = 0; r < produced.offsets.size(); ++r) {
    uint64_t& c = needed[produced.partitions[produced.partition_indexes[r]]];
    c = std::max(c, produced.offsets[r] + 1);
  }
  WaitDownstream(std::string(stream), needed, MakeDeadline(timeout), std::move(done));
}

void Broker::WaitForQuery(std::string_view stream, std::string_view key,
                          std::chrono::milliseconds timeout, std::function<void(Status)> done) {
  WaitUpstream(std::string(stream), std::string(key), MakeDeadline(timeout), std::move(done));
}

}  // namespace higgins::broker
