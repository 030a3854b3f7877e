// higgins-bench: a load generator for the Higgins broker and, with the same connection and
// pipelining code, for Redis Streams (docs/performance.md, "Broker throughput against Redis
// Streams"). Prints one result line, or one JSON object with --json.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>

#include "derived_lag.h"
#include "derived_throughput.h"
#include "kafka_bench.h"
#include "load_runner.h"
#include "report_util.h"
#include "s3_bench.h"
#include "subscribe_bench.h"
#include "websocket_bench.h"
#include "workload.h"

namespace higgins::bench {
namespace {

struct Flags {
  std::string host = "127.0.0.1";
  uint16_t port = 4932;
  std::string target = "higgins";
  std::string workload = "produce";
  size_t record_bytes = 100;
  uint32_t rows_per_request = 1;
  uint32_t keys = 1;
  std::string key_choice = "round-robin";
  int concurrency = 4;
  int pipeline = 1;
  double duration = 10;
  uint64_t count = 0;
  double warmup = 0;
  std::string stream = "bench_mem";
  std::string format = "json";
  bool setup = false;
  bool reset = false;
  uint64_t prefill = 1'000'000;
  uint32_t prefill_batch = 1000;
  int timeout_ms = 60'000;
  bool json = false;
};

void Report(const Flags& f, const LoadStats& s) {
  const double secs = s.seconds > 0 ? s.seconds : 1;
  const double records_per_s = static_cast<double>(s.records) / secs;
  const double mb_per_s = records_per_s * static_cast<double>(f.record_bytes) / 1e6;
  const double requests_per_s = static_cast<double>(s.requests) / secs;
  const double wire_mb_per_s = static_cast<double>(s.bytes_sent) / secs / 1e6;
  const double p50 = s.LatencyMicros(0.50), p99 = s.LatencyMicros(0.99);
  const double p999 = s.LatencyMicros(0.999);
  if (f.json) {
    std::printf(
        "{\"target\":\"%s\",\"workload\":\"%s\",\"stream\":\"%s\",\"format\":\"%s\","
        "\"record_bytes\":%zu,\"rows_per_request\":%u,\"keys\":%u,\"concurrency\":%d,"
        "\"pipeline\":%d,\"seconds\":%.3f,\"requests\":%llu,\"records\":%llu,"
        "\"records_per_s\":%.1f,\"mb_per_s\":%.3f,\"wire_mb_per_s\":%.3f,"
        "\"requests_per_s\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"p999_us\":%.1f,"
        "\"errors\":%llu,\"first_error\":\"%s\"}\n",
        f.target.c_str(), f.workload.c_str(), JsonEscape(f.stream).c_str(), f.format.c_str(),
        f.record_bytes, f.rows_per_request, f.keys, f.concurrency, f.pipeline, s.seconds,
        static_cast<unsigned long long>(s.requests), static_cast<unsigned long long>(s.records),
        records_per_s, mb_per_s, wire_mb_per_s, requests_per_s, p50, p99, p999,
        static_cast<unsigned long long>(s.errors), JsonEscape(s.first_error).c_str());
  } else {
    std::printf(
        "%s %s %s rows/req=%u keys=%u conns=%d pipeline=%d: %.0f rec/s, %.2f MB/s, %.0f req/s, "
        "latency us p50=%.0f p99=%.0f p999=%.0f, errors=%llu\n",
        f.target.c_str(), f.workload.c_str(), f.stream.c_str(), f.rows_per_request, f.keys,
        f.concurrency, f.pipeline, records_per_s, mb_per_s, requests_per_s, p50, p99, p999,
        static_cast<unsigned long long>(s.errors));
    if (!s.first_error.empty()) std::printf("first error: %s\n", s.first_error.c_str());
  }
  std::fflush(stdout);
}

/// Produces --prefill records (--prefill-batch per request) and returns where they landed.
Result<std::shared_ptr<const Catalog>> Prefill(const Target& target, const Flags& f,
                                               LoadOptions options) {
  options.warmup_seconds = 0;
  options.until_exhausted = true;
  options.collect_positions = true;
  LoadStats stats = RunLoad(target, options, PrefillSources(f.keys, f.prefill, f.prefill_batch));
  if (stats.errors > 0) {
    return Status::IOError("prefill: " + std::to_string(stats.errors) +
                           " failed requests; first error: " + stats.first_error);
  }
  auto catalog = std::make_shared<const Catalog>(f.keys, stats.produced);
  if (catalog->size != f.prefill) {
    return Status::Internal("prefill: " + std::to_string(catalog->size) + " of " +
                            std::to_string(f.prefill) + " rows acknowledged");
  }
  std::fprintf(stderr, "prefilled %llu records in %.1f s (%.0f rec/s)\n",
               static_cast<unsigned long long>(catalog->size), stats.seconds,
               static_cast<double>(catalog->size) / std::max(stats.seconds, 1e-9));
  return catalog;
}

int Run(const Flags& f) {
  auto shape = MakeShape({.stream = f.stream,
                          .keys = f.keys,
                          .record_bytes = f.record_bytes,
                          .arrow = f.format == "arrow"});
  std::unique_ptr<Target> target =
      f.target == "redis" ? MakeRedisTarget(shape) : MakeHigginsTarget(shape);
  {
    auto control = Socket::Connect(f.host, f.port, std::chrono::milliseconds(f.timeout_ms));
    Status s = control.ok() ? target->Prepare(&*control, f.reset, f.setup) : control.status();
    if (!s.ok()) {
      std::fprintf(stderr, "higgins-bench: %s\n", s.ToString().c_str());
      return 1;
    }
  }
  LoadOptions options;
  options.host = f.host;
  options.port = f.port;
  options.connections = f.concurrency;
  options.pipeline = f.pipeline;
  options.warmup_seconds = f.warmup;
  options.seconds = f.duration;
  options.until_exhausted = f.count > 0;
  options.read_timeout_ms = f.timeout_ms;
  const KeyChoice choice = f.key_choice == "uniform" ? KeyChoice::kUniform : KeyChoice::kRoundRobin;
  auto budget = std::make_shared<RequestBudget>(f.count);
  SourceFactory sources;
  if (f.workload == "query") {
    auto catalog = Prefill(*target, f, options);
    if (!catalog.ok()) {
      std::fprintf(stderr, "higgins-bench: %s\n", catalog.status().ToString().c_str());
      return 1;
    }
    sources = QuerySources(*catalog, f.rows_per_request, choice, budget);
  } else if (f.workload == "ping") {
    sources = PingSources(budget);
  } else {
    sources = ProduceSources(f.keys, f.rows_per_request, choice, budget);
  }
  LoadStats stats = RunLoad(*target, options, sources);
  Report(f, stats);
  return stats.errors == 0 ? 0 : 3;
}

/// An option showing its default in --help and checked by `check`.
template <typename T>
CLI::Option* Checked(CLI::App* app, const std::string& name, T& value, const std::string& help,
                     const CLI::Validator& check) {
  return app->add_option(name, value, help)->capture_default_str()->check(check);
}

}  // namespace
}  // namespace higgins::bench

namespace {

int Main(int argc, char** argv) {
  using higgins::bench::Checked;
  std::signal(SIGPIPE, SIG_IGN);
  higgins::bench::Flags f;
  CLI::App app{
      "higgins-bench: load generator for the Higgins broker and Redis Streams "
      "(docs/performance.md)"};
  app.add_option("--host", f.host, "server address")->capture_default_str();
  app.add_option("--port", f.port, "server port")->capture_default_str();
  Checked(&app, "--target", f.target, "higgins or redis (RESP: XADD / XRANGE)",
          CLI::IsMember({"higgins", "redis"}));
  Checked(&app, "--workload", f.workload,
          "produce; query (prefill, then point reads of existing records); or ping "
          "(the round trip alone: Higgins PING, Redis PING)",
          CLI::IsMember({"produce", "query", "ping"}));
  Checked(&app, "--record-bytes", f.record_bytes,
          "approximate NDJSON size of one record (sizes its payload field)",
          CLI::Range(size_t{1}, size_t{16} << 20));
  Checked(&app, "--rows-per-request", f.rows_per_request,
          "records per produce request, or point reads per query request (Redis: that "
          "many commands pipelined as one request)",
          CLI::Range(1u, 1'000'000u));
  Checked(&app, "--keys", f.keys, "partition keys k0..k{n-1}", CLI::Range(1u, 100'000'000u));
  Checked(&app, "--key-choice", f.key_choice, "round-robin or uniform",
          CLI::IsMember({"round-robin", "uniform"}));
  Checked(&app, "--concurrency", f.concurrency, "connections (one thread each)",
          CLI::Range(1, 4096));
  Checked(&app, "--pipeline", f.pipeline, "requests in flight per connection", CLI::Range(1, 1024));
  auto* duration = Checked(&app, "--duration", f.duration, "measured seconds", CLI::PositiveNumber);
  app.add_option("--count", f.count, "requests in total (warm-up included) instead of --duration")
      ->excludes(duration)
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup", f.warmup, "seconds of load before measuring")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--stream", f.stream, "stream (Redis: key prefix <stream>:<key>)")
      ->capture_default_str();
  app.add_option("--format", f.format, "Higgins produce payload: json (NDJSON) or arrow (IPC)")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "arrow"}));
  app.add_flag("--setup", f.setup,
               "Higgins: upload the bench configuration first (streams bench_mem, bench_file)");
  app.add_flag("--reset", f.reset,
               "drop old data first. Higgins: delete and re-declare the stream. Redis: FLUSHDB "
               "(the whole database)");
  Checked(&app, "--prefill", f.prefill, "query workload: records produced before measuring",
          CLI::PositiveNumber);
  Checked(&app, "--prefill-batch", f.prefill_batch, "query workload: records per prefill request",
          CLI::Range(1u, 1'000'000u));
  Checked(&app, "--timeout-ms", f.timeout_ms, "longest wait for a reply", CLI::Range(1, 3'600'000));
  app.add_flag("--json", f.json, "print the result as one JSON object");

  higgins::bench::DerivedLagOptions lag;
  auto* lag_cmd = app.add_subcommand(
      "derived-lag",
      "the time from a produce's acknowledgement until its record can be read from a map stream "
      "(UDF), under open-loop load; --host, --port, --timeout-ms and --json apply too");
  lag_cmd->fallthrough();  // the options above (--port, --json, ...) may follow the subcommand
  lag_cmd
      ->add_option("--module", lag.module_path,
                   "the map's WebAssembly module: the SDK example double.wasm "
                   "(<build>/sdk/examples/double.wasm)")
      ->required()
      ->check(CLI::ExistingFile);
  lag_cmd->add_option("--storage", lag.storage, "storage of both streams: memory or file")
      ->capture_default_str()
      ->check(CLI::IsMember({"memory", "file"}));
  Checked(lag_cmd, "--rate", lag.rate, "records per second, on a fixed schedule",
          CLI::Range(1.0, 10'000'000.0));
  Checked(lag_cmd, "--batch", lag.batch, "records per produce request", CLI::Range(1u, 100'000u));
  Checked(lag_cmd, "--keys", lag.keys, "partition keys k0..k{n-1}, round-robin",
          CLI::Range(1u, 100'000'000u));
  Checked(lag_cmd, "--seconds", lag.seconds, "measured seconds per phase", CLI::PositiveNumber);
  Checked(lag_cmd, "--warmup", lag.warmup_seconds, "unmeasured seconds before each phase",
          CLI::NonNegativeNumber);
  Checked(lag_cmd, "--probe-connections", lag.query_connections,
          "connections carrying the probe queries", CLI::Range(1, 64));
  Checked(lag_cmd, "--max-in-flight", lag.max_in_flight,
          "unacknowledged produce requests at most (the broker allows 1024)", CLI::Range(1, 1024));
  Checked(lag_cmd, "--phases", lag.phases,
          "both (baseline: probe the source without waiting; then derived: probe "
          "the map stream with wait_for_derived), baseline or derived",
          CLI::IsMember({"both", "baseline", "derived"}));

  higgins::bench::DerivedThroughputOptions tput;
  auto* tput_cmd = app.add_subcommand(
      "derived-throughput",
      "join and window throughput beside plain produce throughput in the same run, against a "
      "broker it starts (temporary --dir); --timeout-ms and --json apply too, and --host and "
      "--port with --external");
  tput_cmd->fallthrough();
  Checked(tput_cmd, "--storage", tput.storage,
          "storage of every stream: file (fsynced before each acknowledgement) or "
          "memory",
          CLI::IsMember({"memory", "file"}));
  Checked(tput_cmd, "--batch", tput.batch, "records per produce request", CLI::Range(1u, 100'000u));
  Checked(tput_cmd, "--concurrency", tput.concurrency,
          "requests in flight: connections, each sending its next request when the "
          "previous one is answered",
          CLI::Range(1, 256));
  Checked(tput_cmd, "--keys", tput.keys, "partition keys k0..k{n-1}, round-robin",
          CLI::Range(1u, 100'000'000u));
  Checked(tput_cmd, "--seconds", tput.seconds, "seconds of producing per phase",
          CLI::PositiveNumber);
  Checked(tput_cmd, "--query-seconds", tput.query_seconds,
          "seconds of each query measurement of the window phase (window, then base)",
          CLI::PositiveNumber);
  Checked(tput_cmd, "--catch-up-timeout", tput.catch_up_timeout_seconds,
          "longest wait, in seconds, for the join to catch up after producing",
          CLI::PositiveNumber);
  tput_cmd
      ->add_option("--phases", tput.phases,
                   "comma-separated subset of plain (both baselines), join and window")
      ->capture_default_str();
  tput_cmd->add_option("--broker", tput.broker_path,
                       "the higgins binary to start (default: next to higgins-bench, or "
                       "<build>/src/server/higgins)");
  tput_cmd->add_option(
      "--broker-arg", tput.broker_args,
      "an extra flag for the started broker (repeatable), e.g. --broker-arg=--threads=2");
  tput_cmd->add_flag("--external", tput.external,
                     "use the broker at --host/--port instead of starting one");
  higgins::bench::SubscribeOptions sub;
  auto* sub_cmd = app.add_subcommand(
      "subscribe",
      "push delivery through subscriptions beside NATS JetStream push consumers, in the same run: "
      "latency from the scheduled send to the push at fixed rates (open loop), drain throughput "
      "of a prefilled stream, and produce + consume closed loop; starts a broker and a "
      "nats-server (temporary folders); --timeout-ms and --json apply too");
  sub_cmd->fallthrough();
  sub_cmd
      ->add_option("--phases", sub.phases,
                   "comma-separated subset of latency, drain and concurrent")
      ->capture_default_str();
  sub_cmd->add_option("--rates", sub.rates, "records per second of the latency runs")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(1.0, 10'000'000.0));
  Checked(sub_cmd, "--seconds", sub.seconds, "measured seconds of each latency and concurrent run",
          CLI::PositiveNumber);
  Checked(sub_cmd, "--warmup", sub.warmup_seconds, "unmeasured seconds before each",
          CLI::NonNegativeNumber);
  Checked(sub_cmd, "--keys", sub.keys, "partition keys (subjects) k0..k{n-1}, round-robin",
          CLI::Range(1u, 1'000'000u));
  Checked(sub_cmd, "--record-bytes", sub.record_bytes, "bytes of each record's JSON text",
          CLI::Range(size_t{1}, size_t{1} << 20));
  Checked(sub_cmd, "--window", sub.window,
          "records pushed and not acknowledged at most (Higgins demand, JetStream "
          "MaxAckPending)",
          CLI::Range(1u, 1'000'000u));
  Checked(sub_cmd, "--max-in-flight", sub.max_in_flight,
          "records sent and not acknowledged at most (the broker reads 1024 "
          "requests ahead)",
          CLI::Range(1u, 1024u));
  Checked(sub_cmd, "--drain-records", sub.drain_records, "records of the drain phase's prefill",
          CLI::PositiveNumber);
  Checked(sub_cmd, "--drain-timeout", sub.drain_timeout_seconds,
          "seconds without a push after which the consumer is given up on", CLI::PositiveNumber);
  sub_cmd
      ->add_option("--higgins-storages", sub.higgins_storages,
                   "comma-separated: file (fsync before each acknowledgement), file-nosync "
                   "(fsync = false), memory")
      ->capture_default_str();
  sub_cmd
      ->add_option("--jetstream-storages", sub.jetstream_storages,
                   "comma-separated: file, memory (\"\" for none)")
      ->capture_default_str();
  sub_cmd->add_option("--jetstream-sync", sub.jetstream_sync,
                      "JetStream's sync_interval, e.g. always (nats-server >= 2.10); default: "
                      "the server's");
  sub_cmd->add_option("--nats-server", sub.nats_server, "the nats-server binary")
      ->capture_default_str();
  sub_cmd->add_option("--broker", sub.broker_path,
                      "the higgins binary to start (default: next to higgins-bench, or "
                      "<build>/src/server/higgins)");
  sub_cmd->add_option("--broker-arg", sub.broker_args,
                      "an extra flag for the started broker (repeatable)");
  higgins::bench::S3BenchOptions s3b;
  auto* s3_cmd = app.add_subcommand(
      "s3",
      "s3 storage against a local S3 server (npm s3rver) it starts with a broker: produce "
      "throughput beside file storage, acknowledgement-to-object time, cold and warm reads");
  s3_cmd->fallthrough();
  s3_cmd->add_option("--s3rver", s3b.s3rver_path,
                     "the s3rver program (default: tools/interop/node_modules/.bin/s3rver of the "
                     "source tree)");
  s3_cmd->add_option("--broker", s3b.broker_path, "the higgins binary to start");
  s3_cmd->add_option("--seconds", s3b.seconds, "seconds of each produce measurement")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  Checked(s3_cmd, "--concurrency", s3b.concurrency, "closed-loop produce connections",
          CLI::Range(1, 256));
  Checked(s3_cmd, "--batch", s3b.batch, "records per produce request", CLI::Range(1u, 100'000u));
  Checked(s3_cmd, "--keys", s3b.keys, "partition keys, round-robin", CLI::Range(1u, 1'000'000u));
  Checked(s3_cmd, "--segment-max-age-ms", s3b.segment_max_age_ms,
          "the s3 storage's segment_max_age_ms", CLI::Range(1u, 3'600'000u));
  Checked(s3_cmd, "--probes", s3b.probes, "single-record produces timed to their object",
          CLI::Range(1u, 1'000'000u));
  Checked(s3_cmd, "--probe-interval-ms", s3b.probe_interval_ms, "time between probes",
          CLI::Range(1u, 60'000u));
  Checked(s3_cmd, "--queries", s3b.queries, "point queries of each read measurement",
          CLI::Range(1u, 1'000'000u));
  higgins::bench::KafkaBenchOptions kb;
  auto* kafka_cmd = app.add_subcommand(
      "kafka",
      "the Kafka listener with librdkafka beside the native protocol, against a broker it "
      "starts: produce and consume records/s, produce->consume latency");
  kafka_cmd->fallthrough();
  kafka_cmd->add_option("--broker", kb.broker_path, "the higgins binary to start");
  kafka_cmd->add_option("--broker-arg", kb.broker_args,
                        "an extra flag for the started broker (repeatable)");
  Checked(kafka_cmd, "--storage", kb.storage, "storage of the streams",
          CLI::IsMember({"memory", "file"}));
  Checked(kafka_cmd, "--records", kb.records, "records of each throughput phase",
          CLI::Range(uint64_t{1}, uint64_t{100'000'000}));
  Checked(kafka_cmd, "--record-bytes", kb.record_bytes, "about this many bytes of JSON per record",
          CLI::Range(48u, 1'000'000u));
  Checked(kafka_cmd, "--batch", kb.batch, "native: records per produce request",
          CLI::Range(1u, 100'000u));
  Checked(kafka_cmd, "--in-flight", kb.in_flight, "native: requests in flight per connection",
          CLI::Range(1u, 1024u));
  Checked(kafka_cmd, "--connections", kb.connections,
          "native connections and Kafka producers (one connection and thread each), the "
          "records split across them",
          CLI::Range(1u, 64u));
  Checked(kafka_cmd, "--latency-rate", kb.latency_rate, "records/s of the latency phase",
          CLI::Range(1.0, 1e6));
  kafka_cmd
      ->add_option("--jetstream-port", kb.jetstream_port,
                   "a nats-server with JetStream on 127.0.0.1: the same records produced to and "
                   "consumed from a memory stream there too (0: none)")
      ->capture_default_str();
  kafka_cmd->add_option("--kafka-set", kb.kafka_producer_settings,
                        "name=value: a librdkafka setting of the throughput phase's producers, "
                        "after (and over) the defaults (repeatable)");
  kafka_cmd->add_option("--jetstream-pid", kb.jetstream_pid,
                        "that nats-server's pid: its CPU time per record is reported (0: not)");
  Checked(kafka_cmd, "--jetstream-max-pending", kb.jetstream_max_pending,
          "JetStream: unacknowledged publishes per connection (js_PublishAsync waits beyond)",
          CLI::Range(1u, 10'000'000u));
  Checked(kafka_cmd, "--jetstream-consumer", kb.jetstream_consumer,
          "JetStream consume: ordered (push, no acks) or pull (AckNone, --jetstream-fetch at a "
          "time)",
          CLI::IsMember({"ordered", "pull"}));
  Checked(kafka_cmd, "--jetstream-fetch", kb.jetstream_fetch,
          "JetStream pull consumer: messages per fetch", CLI::Range(1u, 1'000'000u));
  higgins::bench::WebSocketBenchOptions wsb;
  auto* ws_cmd = app.add_subcommand(
      "websocket",
      "WebSocket channels and HTTP produce, against a broker it starts: R readers of one stream "
      "while records are POSTed at a fixed rate (every delivery checked and timed), then "
      "one-record produces over HTTP beside the native protocol");
  ws_cmd->fallthrough();
  ws_cmd->add_option("--broker", wsb.broker_path, "the higgins binary to start");
  ws_cmd->add_option("--broker-arg", wsb.broker_args,
                     "an extra flag for the started broker (repeatable)");
  ws_cmd->add_option("--phases", wsb.phases, "comma-separated subset of fanout and throughput")
      ->capture_default_str();
  Checked(ws_cmd, "--readers", wsb.readers, "fan-out: WebSocket readers of the stream",
          CLI::Range(1u, 100'000u));
  Checked(ws_cmd, "--rate", wsb.rate, "fan-out: records/s, one per POST, on a fixed schedule",
          CLI::Range(1.0, 1'000'000.0));
  Checked(ws_cmd, "--seconds", wsb.seconds, "fan-out: seconds of producing",
          CLI::Range(0.001, 3600.0));
  Checked(ws_cmd, "--drain-seconds", wsb.drain_seconds,
          "fan-out: longest wait for deliveries after the last acknowledgement",
          CLI::Range(0.0, 3600.0));
  Checked(ws_cmd, "--producer-connections", wsb.producer_connections,
          "fan-out: keep-alive HTTP connections the records are POSTed on, round-robin, "
          "pipelined",
          CLI::Range(1u, 64u));
  Checked(ws_cmd, "--reader-threads", wsb.reader_threads,
          "fan-out: threads running the readers (one io_context each)", CLI::Range(1u, 64u));
  ws_cmd->add_flag("--batch", wsb.batch,
                   "fan-out: readers connect with batch=true (each message a JSON array of the "
                   "records pushed together)");
  Checked(ws_cmd, "--keys", wsb.keys, "partition keys k0..k{n-1}, round-robin",
          CLI::Range(1u, 1'000'000u));
  Checked(ws_cmd, "--record-bytes", wsb.record_bytes, "about this many bytes of JSON per record",
          CLI::Range(48u, 1'000'000u));
  Checked(ws_cmd, "--connections", wsb.connections,
          "throughput: connections (one thread each), one request in flight each",
          CLI::Range(1u, 256u));
  Checked(ws_cmd, "--throughput-seconds", wsb.throughput_seconds,
          "throughput: measured seconds of each protocol", CLI::PositiveNumber);
  Checked(ws_cmd, "--throughput-warmup", wsb.throughput_warmup,
          "throughput: unmeasured seconds before each", CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  if (*ws_cmd) {
    wsb.json = f.json;
    return higgins::bench::RunWebSocketBench(wsb);
  }
  if (*kafka_cmd) {
    kb.json = f.json;
    return higgins::bench::RunKafkaBench(kb);
  }
  if (*s3_cmd) {
    s3b.json = f.json;
    return higgins::bench::RunS3Bench(s3b);
  }
  if (*sub_cmd) {
    sub.timeout_ms = f.timeout_ms;
    sub.json = f.json;
    return higgins::bench::RunSubscribe(sub);
  }
  if (*tput_cmd) {
    tput.host = f.host;
    tput.port = f.port;
    tput.timeout_ms = f.timeout_ms;
    tput.json = f.json;
    return higgins::bench::RunDerivedThroughput(tput);
  }
  if (*lag_cmd) {
    lag.host = f.host;
    lag.port = f.port;
    lag.timeout_ms = f.timeout_ms;
    lag.json = f.json;
    return higgins::bench::RunDerivedLag(lag);
  }
  return higgins::bench::Run(f);
}

}  // namespace

int main(int argc, char** argv) {
  // An exception nothing handled (a bug, or std::bad_alloc) fails the run with its reason
  // rather than aborting through std::terminate.
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "higgins-bench: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "higgins-bench: unknown exception\n");
  }
  return 1;
}
