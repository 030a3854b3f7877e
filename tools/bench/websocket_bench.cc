#include "websocket_bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "codec.h"
#include "cpu_meter.h"
#include "higgins/client.h"
#include "load_runner.h"
#include "report_util.h"
#include "server_process.h"
#include "websocket_fanout.h"
#include "workload.h"

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The fan-out stream, and the HTTP side of the throughput phase; the native side produces to
// bench_mem, which the native target's setup declares (higgins_target.cc) with the same schema.
constexpr char kFanoutStream[] = "ws_fanout";
constexpr char kHttpStream[] = "bench_http";
constexpr char kNativeStream[] = "bench_mem";
constexpr std::string_view kConfiguration = R"([storage.mem]
type = "memory"
[schema.wsb]
id = "string"
seq = "int64"
sent_us = "int64"
payload = "string"
[streams.ws_fanout]
schema = "wsb"
partition_key = "id"
storage = "mem"
[schema.bench]
id = "string"
seq = "int64"
payload = "string"
[streams.bench_http]
schema = "bench"
partition_key = "id"
storage = "mem"
)";

// Descriptors beyond the connections: the broker's client, logs, the load generator's own.
constexpr uint32_t kSpareFiles = 64;

int Fail(const std::string& what) {
  std::fprintf(stderr, "higgins-bench websocket: %s\n", what.c_str());
  return 1;
}

/// Raises the soft limit of open files to the hard one, as the broker does; the soft limit.
rlim_t RaiseFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur;
}

/// One closed-loop produce measurement.
struct Throughput {
  LoadStats stats;
  CpuUse cpu;
  double wall_seconds = 0;  // of the CPU measurement: connect, warm-up, window, drain

  double RecordsPerSecond() const {
    return stats.seconds > 0 ? static_cast<double>(stats.records) / stats.seconds : 0;
  }
  /// CPU µs per record, from the CPU per wall second and the window's rate.
  double MicrosPerRecord(double cpu_seconds) const {
    const double rate = RecordsPerSecond();
    return rate > 0 && wall_seconds > 0 ? cpu_seconds / wall_seconds / rate * 1e6 : 0;
  }
};

/// Where and how one throughput measurement runs.
struct ProducePlan {
  const Target* target = nullptr;
  uint16_t port = 0;
  bool setup = false;  // the target declares its stream first
};

Status MeasureProduce(const ProducePlan& plan, pid_t broker, const WebSocketBenchOptions& o,
                      Throughput* out) {
  {
    HIGGINS_ASSIGN_OR_RETURN(Socket control,
                             Socket::Connect("127.0.0.1", plan.port, std::chrono::seconds(30)));
    HIGGINS_RETURN_IF_ERROR(plan.target->Prepare(&control, false, plan.setup));
  }
  LoadOptions load;
  load.port = plan.port;
  load.connections = static_cast<int>(o.connections);
  load.pipeline = 1;
  load.warmup_seconds = o.throughput_warmup;
  load.seconds = o.throughput_seconds;
  const CpuMeter meter(broker);
  const auto start = Clock::now();
  out->stats = RunLoad(
      *plan.target, load,
      ProduceSources(o.keys, 1, KeyChoice::kRoundRobin, std::make_shared<RequestBudget>(0)));
  out->cpu = meter.Elapsed();
  out->wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (out->stats.errors > 0) {
    return Status::IOError(std::to_string(out->stats.errors) +
                           " produce requests failed; the first: " + out->stats.first_error);
  }
  return Status::OK();
}

double Ms(uint64_t us) {
  return static_cast<double>(us) / 1000.0;
}

double Ratio(double a, double b) {
  return b > 0 ? a / b : 0;
}

/// CPU µs per delivery received.
double PerDelivery(double cpu_seconds, const FanoutResult& f) {
  return f.received > 0 ? cpu_seconds * 1e6 / static_cast<double>(f.received) : 0;
}

bool Clean(const FanoutResult& f) {
  return f.missing == 0 && f.duplicates == 0 && f.out_of_order == 0 && f.gaps == 0 &&
         f.malformed == 0 && f.produce_errors == 0 && f.unanswered == 0 && f.readers_closed == 0;
}

void PrintJson(const WebSocketBenchOptions& o, const FanoutResult* f, const Throughput* http,
               const Throughput* native) {
  std::printf(
      "{\"readers\":%u,\"rate\":%.1f,\"seconds\":%.3f,\"keys\":%u,\"record_bytes\":%u,"
      "\"producer_connections\":%u,\"reader_threads\":%u,\"batch\":%s,\"connections\":%u",
      o.readers, o.rate, o.seconds, o.keys, o.record_bytes, o.producer_connections,
      o.reader_threads, o.batch ? "true" : "false", o.connections);
  if (f != nullptr) {
    const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    std::printf(
        ",\"readers_live\":%u,\"records_scheduled\":%llu,\"records_produced\":%llu,"
        "\"produce_errors\":%llu,\"unanswered\":%llu,\"deliveries_expected\":%llu,"
        "\"deliveries_received\":%llu,\"messages_received\":%llu,\"missing\":%llu,\"unacknowledged_"
        "received\":%llu,"
        "\"duplicates\":%llu,\"out_of_order\":%llu,\"gaps\":%llu,"
        "\"malformed\":%llu,\"readers_closed\":%u,\"latency_ms_p50\":%.3f,"
        "\"latency_ms_p99\":%.3f,\"latency_ms_p999\":%.3f,\"latency_ms_max\":%.3f,"
        "\"post_ms_p50\":%.3f,\"post_ms_p99\":%.3f,\"max_send_lateness_ms\":%.3f,"
        "\"produce_seconds\":%.3f,\"drain_wait_seconds\":%.3f,\"fanout_window_seconds\":%.3f,"
        "\"fanout_broker_cpu_s\":%.2f,\"fanout_bench_cpu_s\":%.2f,"
        "\"fanout_broker_runnable_wait_s\":%.2f,\"fanout_bench_runnable_wait_s\":%.2f,"
        "\"deliveries_per_s\":%.0f,"
        "\"broker_cpu_us_per_delivery\":%.2f,\"bench_cpu_us_per_delivery\":%.2f,"
        "\"connect_seconds\":%.3f,"
        "\"first_error\":\"%s\",\"first_close\":\"%s\"",
        f->readers, u(f->scheduled), u(f->produced), u(f->produce_errors), u(f->unanswered),
        u(f->expected), u(f->received), u(f->messages), u(f->missing),
        u(f->unacknowledged_received), u(f->duplicates), u(f->out_of_order), u(f->gaps),
        u(f->malformed), f->readers_closed, Ms(f->latency_us.Quantile(0.50)),
        Ms(f->latency_us.Quantile(0.99)), Ms(f->latency_us.Quantile(0.999)),
        Ms(f->latency_us.max()), Ms(f->post_us.Quantile(0.50)), Ms(f->post_us.Quantile(0.99)),
        Ms(f->max_send_lateness_us), f->produce_seconds, f->drain_wait_seconds, f->window_seconds,
        f->cpu.server, f->cpu.client, f->runnable_wait.server, f->runnable_wait.client,
        Ratio(static_cast<double>(f->received), f->window_seconds), PerDelivery(f->cpu.server, *f),
        PerDelivery(f->cpu.client, *f), f->connect_seconds, JsonEscape(f->first_error).c_str(),
        JsonEscape(f->first_close).c_str());
  }
  if (http != nullptr && native != nullptr) {
    const auto row = [](const char* name, const Throughput& t) {
      std::printf(
          ",\"%s_records_per_s\":%.1f,\"%s_p50_us\":%.1f,\"%s_p99_us\":%.1f,"
          "\"%s_broker_cpu_us_per_record\":%.2f,\"%s_bench_cpu_us_per_record\":%.2f",
          name, t.RecordsPerSecond(), name, t.stats.LatencyMicros(0.50), name,
          t.stats.LatencyMicros(0.99), name, t.MicrosPerRecord(t.cpu.server), name,
          t.MicrosPerRecord(t.cpu.client));
    };
    row("http", *http);
    row("native", *native);
    std::printf(",\"http_native_ratio\":%.3f",
                Ratio(http->RecordsPerSecond(), native->RecordsPerSecond()));
  }
  std::printf("}\n");
}

void PrintFanout(const WebSocketBenchOptions& o, const FanoutResult& f) {
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf(
      "WebSocket fan-out: %u readers of one stream (%u partitions, %u reader thread(s), %s), "
      "%.0f records/s for %.0f s, one record per POST on %u keep-alive connection(s)\n",
      f.readers, o.keys, o.reader_threads,
      o.batch ? "batch=true: arrays of records" : "one record per message", o.rate, o.seconds,
      o.producer_connections);
  std::printf("  readers connected and live in %.2f s\n", f.connect_seconds);
  std::printf(
      "  records produced:     %llu of %llu (%llu failed, %llu unanswered), the last "
      "acknowledged %.2f s after the first send; POST p50 %.2f ms, p99 %.2f ms; producer "
      "behind schedule by %.2f ms at most\n",
      u(f.produced), u(f.scheduled), u(f.produce_errors), u(f.unanswered), f.produce_seconds,
      Ms(f.post_us.Quantile(0.50)), Ms(f.post_us.Quantile(0.99)), Ms(f.max_send_lateness_us));
  std::printf("  deliveries expected:  %llu (readers x records produced)\n", u(f.expected));
  std::printf(
      "  deliveries received:  %llu in %llu messages: missing %llu, duplicates %llu, out of order "
      "%llu, gaps "
      "%llu, malformed %llu, of unacknowledged records %llu; %u reader(s) closed before the "
      "end%s%s\n",
      u(f.received), u(f.messages), u(f.missing), u(f.duplicates), u(f.out_of_order), u(f.gaps),
      u(f.malformed), u(f.unacknowledged_received), f.readers_closed,
      f.first_close.empty() ? "" : ", the first: ", f.first_close.c_str());
  std::printf(
      "  publish->receive latency (from the scheduled send): p50 %.2f ms, p99 %.2f ms, "
      "p99.9 %.2f ms, max %.2f ms\n",
      Ms(f.latency_us.Quantile(0.50)), Ms(f.latency_us.Quantile(0.99)),
      Ms(f.latency_us.Quantile(0.999)), Ms(f.latency_us.max()));
  std::printf("  drain: waited %.2f s after the last acknowledgement (at most %.1f s)\n",
              f.drain_wait_seconds, o.drain_seconds);
  std::printf(
      "  CPU over the %.1f s of producing and draining (%.0f deliveries/s): broker %.2f s "
      "(%.2f cores, %.2f us per delivery), higgins-bench %.2f s (%.2f cores, %.2f us)\n",
      f.window_seconds, Ratio(static_cast<double>(f.received), f.window_seconds), f.cpu.server,
      Ratio(f.cpu.server, f.window_seconds), PerDelivery(f.cpu.server, f), f.cpu.client,
      Ratio(f.cpu.client, f.window_seconds), PerDelivery(f.cpu.client, f));
  std::printf(
      "  waiting for a CPU (runnable, summed over threads; the machine's other work): broker "
      "%.2f s, higgins-bench %.2f s\n",
      f.runnable_wait.server, f.runnable_wait.client);
  if (!f.first_error.empty()) std::printf("  first produce error: %s\n", f.first_error.c_str());
}

void PrintThroughput(const WebSocketBenchOptions& o, const Throughput& http,
                     const Throughput& native) {
  std::printf(
      "One-record produce, %u connections, one request in flight each, %.1f s (after %.1f s of "
      "warm-up):\n",
      o.connections, o.throughput_seconds, o.throughput_warmup);
  const auto row = [](const char* name, const Throughput& t) {
    std::printf(
        "  %-28s %9.0f records/s, p50 %.0f us, p99 %.0f us; CPU us/record broker %.1f, "
        "higgins-bench %.1f\n",
        name, t.RecordsPerSecond(), t.stats.LatencyMicros(0.50), t.stats.LatencyMicros(0.99),
        t.MicrosPerRecord(t.cpu.server), t.MicrosPerRecord(t.cpu.client));
  };
  row("HTTP POST (application/json)", http);
  row("native ProduceRequest", native);
  std::printf("  HTTP / native: %.2f\n", Ratio(http.RecordsPerSecond(), native.RecordsPerSecond()));
}

}  // namespace

int RunWebSocketBench(const WebSocketBenchOptions& o) {
  const bool fanout = o.phases.find("fanout") != std::string::npos;
  const bool throughput = o.phases.find("throughput") != std::string::npos;
  if (!fanout && !throughput) return Fail("--phases: neither fanout nor throughput");
  const uint32_t connections = o.readers + o.producer_connections + o.connections;
  const rlim_t files = RaiseFileLimit();
  if (fanout && files < connections + kSpareFiles) {
    return Fail("open-file limit " + std::to_string(files) + " is too low for " +
                std::to_string(o.readers) + " readers (raise the hard limit: ulimit -Hn)");
  }
  auto http_port = FreeTcpPort();
  if (!http_port.ok()) return Fail(http_port.status().ToString());
  std::vector<std::string> args = o.broker_args;
  args.push_back("--http-port=" + std::to_string(*http_port));
  const bool limited = std::any_of(args.begin(), args.end(), [](const std::string& arg) {
    return arg.rfind("--max-connections", 0) == 0;
  });
  if (!limited) {
    args.push_back("--max-connections=" + std::to_string(std::max(1024u, connections + 16)));
  }
  ServerProcess server;
  const std::string binary = o.broker_path.empty() ? DefaultBrokerPath() : o.broker_path;
  if (Status s = StartBroker(&server, binary, args); !s.ok()) return Fail(s.ToString());
  {
    ClientOptions options;
    options.port = server.port();
    auto client = Client::Connect(options);
    Status s = client.ok() ? (*client)->UploadConfiguration(kConfiguration) : client.status();
    if (!s.ok()) return Fail(s.ToString());
  }
  const auto failed = [&](const Status& s) {
    Fail(s.ToString());
    std::fprintf(stderr, "broker log:\n%s\n", server.Log().c_str());
    return 1;
  };
  FanoutResult fanned;
  if (fanout) {
    FanoutOptions f;
    f.http_port = *http_port;
    f.stream = kFanoutStream;
    f.readers = o.readers;
    f.rate = o.rate;
    f.seconds = o.seconds;
    f.keys = o.keys;
    f.record_bytes = o.record_bytes;
    f.producer_connections = o.producer_connections;
    f.reader_threads = o.reader_threads;
    f.batch = o.batch;
    f.drain_seconds = o.drain_seconds;
    if (Status s = RunFanout(f, server.pid(), &fanned); !s.ok()) return failed(s);
  }
  Throughput http;
  Throughput native;
  if (throughput) {
    const ShapeOptions shape{.stream = kHttpStream, .keys = o.keys, .record_bytes = o.record_bytes};
    auto http_target = MakeHttpTarget(MakeShape(shape));
    const ProducePlan over_http{.target = http_target.get(), .port = *http_port};
    if (Status s = MeasureProduce(over_http, server.pid(), o, &http); !s.ok()) {
      return failed(s);
    }
    ShapeOptions native_shape = shape;
    native_shape.stream = kNativeStream;
    auto native_target = MakeHigginsTarget(MakeShape(native_shape));
    const ProducePlan over_native{
        .target = native_target.get(), .port = server.port(), .setup = true};
    if (Status s = MeasureProduce(over_native, server.pid(), o, &native); !s.ok()) {
      return failed(s);
    }
  }
  if (o.json) {
    PrintJson(o, fanout ? &fanned : nullptr, throughput ? &http : nullptr,
              throughput ? &native : nullptr);
  } else {
    if (fanout) PrintFanout(o, fanned);
    if (throughput) PrintThroughput(o, http, native);
  }
  return !fanout || Clean(fanned) ? 0 : 3;
}

}  // namespace higgins::bench
