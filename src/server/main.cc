// The `higgins` broker (README, docs/operations.md "Flags"). The composition root:
// picks the concrete storages (through the topography), the listener and the threads.
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "auth/jwt_verifier.h"
#include "broker/broker.h"
#include "server/asio.h"
#include "server/http/http_api.h"
#include "server/http/http_listener.h"
#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_listener.h"
#include "server/kafka/offset_store.h"
#include "server/kafka/producer_ids.h"
#include "server/request_handler.h"
#include "server/server.h"

namespace {

struct Flags {
  uint16_t port = 4932;
  std::string dir = "data";
  std::string bind = "127.0.0.1";
  std::string log_level = "info";
  uint32_t max_frame_bytes = 64u << 20;
  size_t max_connections = 1024;
  int64_t max_records_per_request = 1'000'000;
  uint64_t max_range_records = 10'000;
  int threads = 2;
  int udf_workers = 2;
  uint32_t udf_timeout_ms = 1000;
  uint32_t udf_max_memory_mb = 64;
  uint32_t udf_max_heap_mb = 256;
  uint32_t max_module_mb = 32;
  uint32_t entry_cache_mb = 64;
  size_t max_subscriptions = 1'000;
  uint64_t visibility_timeout_ms = 30'000;
  uint32_t idle_timeout_s = 600;
  uint16_t kafka_port = 9092;          // 0: no Kafka listener
  std::string kafka_advertised_host;   // empty: the bind address (a wildcard: the host name)
  uint16_t kafka_advertised_port = 0;  // 0: kafka_port
  uint16_t http_port = 8080;           // 0: no HTTP listener
  std::string jwt_secret_file;         // docs/auth.md
  std::string jwt_public_key_file;
  bool http_require_token = false;
  higgins::server::http::WsLimits ws_limits;
  higgins::server::ConnectionByteLimits byte_limits;
};

/// protobuf logs every string field with invalid UTF-8 it parses; a client could flood the log
/// that way. Such requests are answered with MALFORMED_MESSAGE already, so its messages go to
/// the debug level.
void ProtobufLog(google::protobuf::LogLevel level, const char* file, int line,
                 const std::string& message) {
  if (level >= google::protobuf::LOGLEVEL_FATAL) {
    spdlog::critical("protobuf {}:{}: {}", file, line, message);
  } else {
    spdlog::debug("protobuf {}:{}: {}", file, line, message);
  }
}

/// What Kafka clients are told to connect to (Metadata's broker list).
std::string AdvertisedHost(const Flags& flags) {
  if (!flags.kafka_advertised_host.empty()) return flags.kafka_advertised_host;
  if (flags.bind != "0.0.0.0" && flags.bind != "::") return flags.bind;
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0 && name[0] != 0) return name;
  return "127.0.0.1";
}

int Run(const Flags& flags) {
  auto level = spdlog::level::from_str(flags.log_level);
  spdlog::set_level(level);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  google::protobuf::SetLogHandler(&ProtobufLog);

  higgins::broker::BrokerOptions options;
  options.dir = flags.dir;
  options.max_records_per_request = flags.max_records_per_request;
  options.max_range_records = flags.max_range_records;
  options.max_subscriptions = flags.max_subscriptions;
  options.default_visibility_timeout = std::chrono::milliseconds(flags.visibility_timeout_ms);
  options.derived_workers = flags.udf_workers;
  options.call_limits.deadline = std::chrono::milliseconds(flags.udf_timeout_ms);
  options.engine_options.max_memory_pages = flags.udf_max_memory_mb * 16;  // 64 KiB pages
  options.engine_options.max_heap_bytes = size_t{flags.udf_max_heap_mb} << 20;
  options.max_module_bytes = size_t{flags.max_module_mb} << 20;
  options.entry_cache_bytes = size_t{flags.entry_cache_mb} << 20;
  auto broker = higgins::broker::Broker::Open(options);
  if (!broker.ok()) {
    spdlog::critical("cannot open {}: {}", flags.dir, broker.status().ToString());
    return 1;
  }
  higgins::server::RequestHandler handler(broker->get(), flags.max_frame_bytes);

  // One io_context per thread: a session stays on its thread, so its work needs no wake-ups
  // of other threads.
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::vector<asio::io_context*> context_ptrs;
  using WorkGuard = asio::executor_work_guard<asio::io_context::executor_type>;
  std::vector<WorkGuard> work;
  for (int i = 0; i < flags.threads; ++i) {
    contexts.push_back(std::make_unique<asio::io_context>(1));
    context_ptrs.push_back(contexts.back().get());
    work.push_back(asio::make_work_guard(*contexts.back()));
  }
  asio::io_context& io = *contexts[0];
  auto stop_all = [&] {
    for (auto& w : work) w.reset();
    for (auto& c : contexts) c->stop();
  };
  // One byte budget for every listener's connections (docs/operations.md, "Connection memory").
  higgins::server::ByteBudget budget(flags.byte_limits);
  higgins::server::ServerOptions server_options;
  server_options.bind = flags.bind;
  server_options.port = flags.port;
  server_options.max_frame_bytes = flags.max_frame_bytes;
  server_options.max_connections = flags.max_connections;
  server_options.budget = &budget;
  server_options.idle_timeout = std::chrono::seconds(flags.idle_timeout_s);
  higgins::server::Server server(context_ptrs, &handler, server_options);
  if (auto s = server.Start(); !s.ok()) {
    spdlog::critical("{}", s.ToString());
    return 1;
  }
  spdlog::info("higgins listening on {}:{} with data in {}", flags.bind, server.port(), flags.dir);
  // The Kafka listener (docs/kafka.md), over the same broker and byte budget.
  higgins::server::kafka::KafkaHandlerOptions kafka_options;
  kafka_options.advertised_host = AdvertisedHost(flags);
  kafka_options.advertised_port =
      flags.kafka_advertised_port != 0 ? flags.kafka_advertised_port : flags.kafka_port;
  // Consumer groups' committed offsets (docs/storage-format.md, "Kafka committed offsets").
  std::unique_ptr<higgins::server::kafka::OffsetStore> offsets;
  if (flags.kafka_port != 0) {
    // Idempotent producers' ids, never given out twice (docs/storage-format.md, "Kafka
    // producer ids").
    auto ids = higgins::server::kafka::ClaimProducerIds(flags.dir + "/kafka/producer-ids");
    if (!ids.ok()) {
      spdlog::critical("cannot claim Kafka producer ids: {}", ids.status().ToString());
      return 1;
    }
    kafka_options.producer_ids = *ids;
    auto opened = higgins::server::kafka::OffsetStore::Open(flags.dir + "/kafka/offsets.log");
    if (!opened.ok()) {
      spdlog::critical("cannot open {}/kafka/offsets.log: {}", flags.dir,
                       opened.status().ToString());
      return 1;
    }
    offsets = *std::move(opened);
  }
  higgins::server::kafka::KafkaHandler kafka_handler(broker->get(), kafka_options, offsets.get());
  higgins::server::kafka::KafkaListenerOptions listener_options;
  listener_options.bind = flags.bind;
  listener_options.port = flags.kafka_port;
  listener_options.max_frame_bytes = flags.max_frame_bytes;
  listener_options.max_connections = flags.max_connections;
  listener_options.budget = &budget;
  listener_options.idle_timeout = std::chrono::seconds(flags.idle_timeout_s);
  std::unique_ptr<higgins::server::kafka::KafkaListener> kafka;
  if (flags.kafka_port != 0) {
    kafka = std::make_unique<higgins::server::kafka::KafkaListener>(context_ptrs, &kafka_handler,
                                                                    listener_options);
    if (auto s = kafka->Start(); !s.ok()) {
      spdlog::critical("{} (--kafka-port=0 turns the Kafka listener off)", s.ToString());
      return 1;
    }
    spdlog::info("Kafka listener on {}:{}, advertised as {}:{}", flags.bind, kafka->port(),
                 kafka_options.advertised_host, kafka_options.advertised_port);
  }

  // The HTTP listener (docs/http.md), over the same broker and byte budget.
  higgins::server::http::HttpApiOptions http_api_options;
  http_api_options.max_body_bytes = flags.max_frame_bytes;
  // The key that checks WebSocket and HTTP tokens (docs/auth.md); its bytes are never logged.
  std::unique_ptr<higgins::auth::JwtVerifier> verifier;
  if (!flags.jwt_secret_file.empty() || !flags.jwt_public_key_file.empty()) {
    auto loaded = !flags.jwt_secret_file.empty()
                      ? higgins::auth::JwtVerifier::FromSecretFile(flags.jwt_secret_file)
                      : higgins::auth::JwtVerifier::FromPublicKeyFile(flags.jwt_public_key_file);
    if (!loaded.ok()) {
      spdlog::critical("JWT key: {}", loaded.status().ToString());
      return 1;
    }
    verifier = *std::move(loaded);
    spdlog::info("JWT key loaded: tokens signed with {} are accepted",
                 verifier->AllowedAlgorithms());
  }
  http_api_options.verifier = verifier.get();
  http_api_options.require_token = flags.http_require_token;
  higgins::server::http::HttpApi http_api(broker->get(), http_api_options);
  std::unique_ptr<higgins::server::http::HttpListener> http;
  if (flags.http_require_token && !verifier) {
    spdlog::critical("--http-require-token needs --jwt-secret-file or --jwt-public-key-file");
    return 1;
  }
  if (flags.http_port != 0) {
    higgins::server::http::HttpListenerOptions http_options;
    http_options.bind = flags.bind;
    http_options.port = flags.http_port;
    http_options.max_body_bytes = flags.max_frame_bytes;
    http_options.max_connections = flags.max_connections;
    http_options.budget = &budget;
    http_options.idle_timeout = std::chrono::seconds(flags.idle_timeout_s);
    http_options.ws_limits = flags.ws_limits;
    http = std::make_unique<higgins::server::http::HttpListener>(context_ptrs, &http_api,
                                                                 http_options);
    if (auto s = http->Start(); !s.ok()) {
      spdlog::critical("{} (--http-port=0 turns the HTTP listener off)", s.ToString());
      return 1;
    }
    spdlog::info("HTTP listener on {}:{}", flags.bind, http->port());
  }

  asio::signal_set signals(io, SIGINT, SIGTERM);
  asio::steady_timer deadline(io);
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: answering in-flight requests, then stopping", signal);
    // Every listener answers what it has read, then the threads stop.
    auto listeners = std::make_shared<std::atomic<int>>(1 + (kafka ? 1 : 0) + (http ? 1 : 0));
    auto one_stopped = [&, listeners] {
      if (--*listeners == 0) asio::post(io, stop_all);
    };
    server.Stop(one_stopped);
    if (kafka) kafka->Stop(one_stopped);
    if (http) http->Stop(one_stopped);
    deadline.expires_after(std::chrono::seconds(10));
    deadline.async_wait([&](const boost::system::error_code& e) {
      if (!e) {
        spdlog::warn("connections still open after 10 s; stopping anyway");
        stop_all();
      }
    });
  });

  std::vector<std::thread> threads;
  for (size_t i = 1; i < contexts.size(); ++i) {
    threads.emplace_back([&, i] { contexts[i]->run(); });
  }
  io.run();
  for (auto& t : threads) t.join();
  (*broker)->Shutdown();
  spdlog::info("stopped");
  return 0;
}

int RunBroker(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  // Segments, index files, subscription logs and connections are all open files: take the
  // whole of the hard limit rather than the usual soft 1024.
  if (rlimit limit{}; getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  Flags flags;
  CLI::App app{"higgins: a streaming broker (docs/operations.md)"};
  app.add_option("--port", flags.port, "TCP port to listen on")->capture_default_str();
  app.add_option("--dir", flags.dir, "folder for the topography, modules, index and file storage")
      ->capture_default_str();
  app.add_option("--bind", flags.bind, "address to listen on")->capture_default_str();
  app.add_option("--log-level", flags.log_level, "trace, debug, info, warn, error, critical, off")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.add_option("--max-frame-bytes", flags.max_frame_bytes, "largest request or reply frame")
      ->capture_default_str()
      ->check(CLI::Range(1024u, 1u << 30));
  app.add_option("--max-connections", flags.max_connections, "open connections at most")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  app.add_option("--max-records-per-request", flags.max_records_per_request,
                 "records one produce may carry")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 31));
  app.add_option("--max-range-records", flags.max_range_records,
                 "records one RANGE query returns at most")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, uint64_t{10'000'000}));
  app.add_option("--max-subscriptions", flags.max_subscriptions,
                 "subscriptions the broker keeps at most")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{1'000'000}));
  app.add_option("--visibility-timeout-ms", flags.visibility_timeout_ms,
                 "visibility timeout of subscriptions created without one: records pushed and "
                 "not acknowledged within it are pushed again")
      ->capture_default_str()
      ->check(CLI::Range(uint64_t{1}, uint64_t{86'400'000}));
  app.add_option("--idle-timeout", flags.idle_timeout_s,
                 "seconds after which a connection that sent and received nothing is closed "
                 "(not one consuming a subscription); 0: never")
      ->capture_default_str()
      ->check(CLI::Range(0u, 7u * 86'400));
  constexpr size_t kMinByteLimit = size_t{64} << 10;
  constexpr size_t kMaxByteLimit = size_t{1} << 40;
  app.add_option("--max-request-bytes-per-connection",
                 flags.byte_limits.request_bytes_per_connection,
                 "bytes of requests read from one connection and not yet answered; reading "
                 "pauses at the limit")
      ->capture_default_str()
      ->check(CLI::Range(kMinByteLimit, kMaxByteLimit));
  app.add_option("--max-reply-bytes-per-connection", flags.byte_limits.reply_bytes_per_connection,
                 "bytes of replies and pushes not yet written to one connection; its requests "
                 "and reading pause at the limit")
      ->capture_default_str()
      ->check(CLI::Range(kMinByteLimit, kMaxByteLimit));
  app.add_option("--max-request-bytes-total", flags.byte_limits.request_bytes_total,
                 "bytes of requests read and not yet answered, all connections together")
      ->capture_default_str()
      ->check(CLI::Range(kMinByteLimit, kMaxByteLimit));
  app.add_option("--max-reply-bytes-total", flags.byte_limits.reply_bytes_total,
                 "bytes of replies and pushes not yet written, all connections together")
      ->capture_default_str()
      ->check(CLI::Range(kMinByteLimit, kMaxByteLimit));
  app.add_option("--kafka-port", flags.kafka_port,
                 "TCP port of the Kafka listener (docs/kafka.md); 0: no Kafka listener")
      ->capture_default_str();
  app.add_option("--http-port", flags.http_port,
                 "TCP port of the HTTP API, WebSocket channels and web console (docs/http.md); "
                 "0: none")
      ->capture_default_str();
  auto* secret =
      app.add_option("--jwt-secret-file", flags.jwt_secret_file,
                     "file holding the shared secret (32 bytes at least) of HS256/384/512 "
                     "tokens for WebSocket channels and the HTTP API (docs/auth.md)");
  app.add_option("--jwt-public-key-file", flags.jwt_public_key_file,
                 "PEM public key (RSA or EC) of RS256/384/512 or ES256/384/512 tokens "
                 "(docs/auth.md)")
      ->excludes(secret);
  app.add_flag("--http-require-token", flags.http_require_token,
               "every HTTP API request needs Authorization: Bearer <jwt> whose claims allow it "
               "(needs --jwt-secret-file or --jwt-public-key-file)");
  app.add_option("--ws-max-message-bytes", flags.ws_limits.max_message_bytes,
                 "largest WebSocket message a client may send; larger ones close the "
                 "connection with 1009")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1024}, size_t{1} << 30));
  app.add_option("--ws-max-queued-bytes", flags.ws_limits.max_queued_bytes,
                 "pushes waiting to be written to one WebSocket reader; over it the reader is "
                 "too slow and is closed with 1013")
      ->capture_default_str()
      ->check(CLI::Range(size_t{64} << 10, size_t{1} << 34));
  app.add_option_function<uint32_t>(
         "--ws-push-interval-ms",
         [&flags](uint32_t ms) { flags.ws_limits.push_interval = std::chrono::milliseconds(ms); },
         "shortest time between two pushes of a stream to its WebSocket readers: records "
         "committed within it leave together, one socket write per reader (default 20; 0 "
         "pushes every commit)")
      ->check(CLI::Range(0, 1000));
  app.add_option("--kafka-advertised-host", flags.kafka_advertised_host,
                 "host name Kafka clients are told to connect to (default: the --bind address, "
                 "or the machine's host name when it binds every address)");
  app.add_option("--kafka-advertised-port", flags.kafka_advertised_port,
                 "port Kafka clients are told to connect to (default: --kafka-port), when they "
                 "reach the broker through a proxy or a forwarded port");
  app.add_option("--threads", flags.threads, "network threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--udf-workers", flags.udf_workers,
                 "threads running map and reduce UDFs (each with its own V8 isolate)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app.add_option("--udf-timeout-ms", flags.udf_timeout_ms,
                 "longest one UDF call may run before it is stopped")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3'600'000u));
  app.add_option("--udf-max-memory-mb", flags.udf_max_memory_mb,
                 "largest linear memory of one UDF instance")
      ->capture_default_str()
      ->check(CLI::Range(1u, 4096u));
  app.add_option("--udf-max-heap-mb", flags.udf_max_heap_mb,
                 "V8 heap of each UDF worker's V8 isolate (compiled code and the "
                 "engine's own objects, not the modules' linear memory)")
      ->capture_default_str()
      ->check(CLI::Range(16u, 16384u));
  app.add_option("--max-module-mb", flags.max_module_mb, "largest UDF module accepted")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--entry-cache-mb", flags.entry_cache_mb,
                 "decoded record batches kept in memory per stream on durable storage, for "
                 "reads (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 65536u));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return Run(flags);
  } catch (const std::exception& e) {
    spdlog::critical("fatal: {}", e.what());
    return 1;
  }
}

}  // namespace

// An exception escaping the broker (a library's std::bad_alloc, say) ends it with a message and
// exit status 1 rather than std::terminate's abort.
int main(int argc, char** argv) {
  try {
    return RunBroker(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "higgins: stopped by an unexpected error: %s\n", e.what());
    return 1;
  }
}
