// higgins-bench subscribe: Higgins subscriptions beside NATS JetStream push consumers, in the
// same run and from the same load generator (subscribe_bench.h; docs/performance.md,
// "Subscriptions against NATS JetStream"). This file starts the servers, orders the runs and
// reports; subscribe_runs.cc measures.
#include "subscribe_bench.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>

#include "report_util.h"
#include "server_process.h"
#include "subscribe_runs.h"
#include "subscribe_target.h"

namespace higgins::bench {
namespace {

std::vector<std::string> SplitList(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    if (comma != 0) out.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

bool Has(const std::vector<std::string>& list, std::string_view item) {
  for (const std::string& x : list) {
    if (x == item) return true;
  }
  return false;
}

/// nats-server (o.nats_server) with JetStream on a temporary store_dir and o.jetstream_sync as
/// its sync_interval, listening on 127.0.0.1 only.
Status StartNatsServer(ServerProcess* server, const SubscribeOptions& o) {
  const std::string& binary = o.nats_server;
  const std::string& sync_interval = o.jetstream_sync;
  HIGGINS_RETURN_IF_ERROR(server->Prepare("higgins-bench-nats"));
  const std::string config = server->root() + "/nats.conf";
  {
    std::ofstream out(config);
    out << "listen: 127.0.0.1:" << server->port() << "\n"
        << "jetstream {\n  store_dir: \"" << server->root() << "/js\"\n";
    if (!sync_interval.empty()) out << "  sync_interval: " << sync_interval << "\n";
    out << "}\n";
    if (!out) return Status::IOError("cannot write " + config);
  }
  HIGGINS_RETURN_IF_ERROR(server->Spawn({binary, "-c", config}));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (server->Exited()) {
      return Status::IOError("nats-server exited at start; its log:\n" + server->Log());
    }
    if (WaitForPort(server->port(), std::chrono::milliseconds::zero())) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::IOError("nats-server did not listen within 30 s; its log:\n" + server->Log());
}

double Us(const std::vector<uint64_t>& sorted, double q) {
  return QuantileUs(sorted, q);
}
double MaxUs(const std::vector<uint64_t>& sorted) {
  return sorted.empty() ? 0 : static_cast<double>(sorted.back()) / 1000.0;
}

void Report(const SubscribeRun& r, const SubscribeOptions& o) {
  const auto& l = r.latency_ns;
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  if (o.json) {
    std::printf(
        "{\"mode\":\"subscribe\",\"phase\":\"%s\",\"system\":\"%s\",\"rate\":%.1f,"
        "\"seconds\":%.3f,\"keys\":%u,\"record_bytes\":%zu,\"window\":%u,\"max_in_flight\":%u,"
        "\"sent\":%llu,\"received\":%llu,\"measured\":%zu,\"records_per_s\":%.1f,"
        "\"produced_per_s\":%.1f,\"first_push_s\":%.4f,\"subscribe_s\":%.4f,\"p50_us\":%.1f,\"p99_"
        "us\":%.1f,"
        "\"p999_us\":%.1f,\"max_us\":%.1f,\"stalls\":%llu,\"late_sends\":%llu,"
        "\"max_send_delay_us\":%.1f,\"missing\":%llu,\"redelivered\":%llu,\"errors\":%llu,"
        "\"first_error\":\"%s\"}\n",
        r.phase.c_str(), r.system.c_str(), r.rate, r.seconds, o.keys, o.record_bytes, o.window,
        o.max_in_flight, u(r.sent), u(r.received), l.size(), r.delivered_per_s, r.produced_per_s,
        r.first_push_s, r.subscribe_s, Us(l, 0.5), Us(l, 0.99), Us(l, 0.999), MaxUs(l), u(r.stalls),
        u(r.late_sends), static_cast<double>(r.max_send_delay_ns) / 1000.0, u(r.missing),
        u(r.redelivered), u(r.errors), JsonEscape(r.first_error).c_str());
  } else if (r.phase == "drain") {
    std::printf(
        "subscribe drain %-20s %llu records: %.0f rec/s from the first push to the last (first "
        "push %.1f ms after the subscribe call, which took %.1f ms); prefill %.0f rec/s; "
        "missing=%llu redelivered=%llu errors=%llu\n",
        r.system.c_str(), u(r.sent), r.delivered_per_s, r.first_push_s * 1000, r.subscribe_s * 1000,
        r.produced_per_s, u(r.missing), u(r.redelivered), u(r.errors));
  } else {
    char what[64];
    if (r.phase == "latency") {
      std::snprintf(what, sizeof(what), "rate=%.0f", r.rate);
    } else {
      std::snprintf(what, sizeof(what), "closed loop, produced %.0f rec/s,", r.produced_per_s);
    }
    std::printf(
        "subscribe %s %-20s %s delivered %.0f rec/s; push latency us p50=%.0f p99=%.0f "
        "p999=%.0f max=%.0f; stalls=%llu late sends=%llu (max delay %.0f us) missing=%llu "
        "redelivered=%llu errors=%llu\n",
        r.phase.c_str(), r.system.c_str(), what, r.delivered_per_s, Us(l, 0.5), Us(l, 0.99),
        Us(l, 0.999), MaxUs(l), u(r.stalls), u(r.late_sends),
        static_cast<double>(r.max_send_delay_ns) / 1000.0, u(r.missing), u(r.redelivered),
        u(r.errors));
  }
  if (!o.json && !r.first_error.empty()) std::printf("first error: %s\n", r.first_error.c_str());
  std::fflush(stdout);
}

double Ratio(double a, double b) {
  return b > 0 ? a / b : 0;
}

/// Higgins / JetStream for every pair of runs of the same phase and rate.
void ReportRatios(const std::vector<SubscribeRun>& runs, const SubscribeOptions& o) {
  const bool js_syncs = o.jetstream_sync == "always";
  struct Pair {
    const char* higgins;
    const char* jetstream;
    const char* durability;
  };
  const Pair pairs[] = {
      {"higgins-file-nosync", "jetstream-file",
       js_syncs ? "weaker: Higgins does not fsync, JetStream does"
                : "same: both write before acknowledging, neither fsyncs"},
      {"higgins-file", "jetstream-file",
       js_syncs ? "same: both fsync before acknowledging"
                : "stricter: Higgins fsyncs before acknowledging, JetStream does not"},
      {"higgins-memory", "jetstream-memory", "same: memory"},
  };
  const auto find = [&](const SubscribeRun& like, const char* system) -> const SubscribeRun* {
    for (const SubscribeRun& r : runs) {
      if (r.system == system && r.phase == like.phase && r.rate == like.rate) return &r;
    }
    return nullptr;
  };
  bool header = false;
  for (const SubscribeRun& h : runs) {
    for (const Pair& p : pairs) {
      if (h.system != p.higgins) continue;
      const SubscribeRun* j = find(h, p.jetstream);
      if (j == nullptr) continue;
      const double p50 = Ratio(Us(h.latency_ns, 0.5), Us(j->latency_ns, 0.5));
      const double p99 = Ratio(Us(h.latency_ns, 0.99), Us(j->latency_ns, 0.99));
      const double p999 = Ratio(Us(h.latency_ns, 0.999), Us(j->latency_ns, 0.999));
      const double rate = Ratio(h.delivered_per_s, j->delivered_per_s);
      const double produced = Ratio(h.produced_per_s, j->produced_per_s);
      if (o.json) {
        std::printf(
            "{\"mode\":\"subscribe\",\"phase\":\"ratio\",\"of\":\"%s\",\"rate\":%.1f,"
            "\"higgins\":\"%s\",\"jetstream\":\"%s\",\"durability\":\"%s\",\"p50\":%.3f,"
            "\"p99\":%.3f,\"p999\":%.3f,\"records_per_s\":%.3f,\"produced_per_s\":%.3f}\n",
            h.phase.c_str(), h.rate, p.higgins, p.jetstream, p.durability, p50, p99, p999, rate,
            produced);
        continue;
      }
      if (!header) {
        std::printf(
            "ratios Higgins / JetStream in this run (latency: below 1 is better for "
            "Higgins; rec/s: above 1 is)\n");
        header = true;
      }
      if (h.phase == "drain") {
        std::printf("ratio drain %s / %s: delivered rec/s %.2f; prefill rec/s %.2f [%s]\n",
                    p.higgins, p.jetstream, rate, produced, p.durability);
      } else {
        char what[48] = "closed loop";
        if (h.phase == "latency") std::snprintf(what, sizeof(what), "rate=%.0f", h.rate);
        char also[48] = "";
        if (h.phase == "concurrent")
          std::snprintf(also, sizeof(also), " (produced %.2f)", produced);
        std::printf(
            "ratio %s %s %s / %s: p50 %.2f p99 %.2f p999 %.2f; delivered rec/s %.2f%s [%s]\n",
            h.phase.c_str(), what, p.higgins, p.jetstream, p50, p99, p999, rate, also,
            p.durability);
      }
    }
  }
  std::fflush(stdout);
}

}  // namespace

int RunSubscribe(const SubscribeOptions& o) {
  const std::vector<std::string> phases = SplitList(o.phases);
  ServerProcess broker;
  const std::string binary = o.broker_path.empty() ? DefaultBrokerPath() : o.broker_path;
  if (Status s = StartBroker(&broker, binary, o.broker_args); !s.ok()) {
    std::fprintf(stderr, "higgins-bench subscribe: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<std::unique_ptr<SubscribeTarget>> higgins, jetstream;
  for (const std::string& storage : SplitList(o.higgins_storages)) {
    auto target = MakeHigginsTarget(broker.port(), storage, o.timeout_ms);
    if (!target.ok()) {
      std::fprintf(stderr, "higgins-bench subscribe: %s\n", target.status().ToString().c_str());
      return 1;
    }
    higgins.push_back(*std::move(target));
  }
  ServerProcess nats;
  const std::vector<std::string> js_storages = SplitList(o.jetstream_storages);
  if (!js_storages.empty() && !JetStreamAvailable()) {
    std::printf("subscribe: JetStream skipped: higgins-bench was built without libnats\n");
  } else if (!js_storages.empty()) {
    if (Status s = StartNatsServer(&nats, o); !s.ok()) {
      std::printf("subscribe: JetStream skipped: %s\n", s.ToString().c_str());
    } else {
      for (const std::string& storage : js_storages) {
        auto target = MakeJetStreamTarget(nats.port(), storage, o.timeout_ms);
        if (!target.ok()) {
          std::fprintf(stderr, "higgins-bench subscribe: %s\n", target.status().ToString().c_str());
          return 1;
        }
        jetstream.push_back(*std::move(target));
      }
    }
  }
  if (!o.json) {
    std::printf("subscribe: %s (pid %d) on port %u\n", binary.c_str(),
                static_cast<int>(broker.pid()), broker.port());
    if (!jetstream.empty()) {
      std::printf("subscribe: %s%s (pid %d) on port %u\n", o.nats_server.c_str(),
                  o.jetstream_sync.empty() ? "" : (" sync_interval " + o.jetstream_sync).c_str(),
                  static_cast<int>(nats.pid()), nats.port());
    }
    std::fflush(stdout);
  }
  // Systems alternate within each rate, so that the machine's noise falls on all of them alike.
  std::vector<SubscribeTarget*> systems;
  for (size_t i = 0; i < std::max(higgins.size(), jetstream.size()); ++i) {
    if (i < higgins.size()) systems.push_back(higgins[i].get());
    if (i < jetstream.size()) systems.push_back(jetstream[i].get());
  }

  std::vector<SubscribeRun> runs;
  bool failed = false;
  const auto keep = [&](Result<SubscribeRun> run, const SubscribeTarget& t) {
    if (!run.ok()) {
      std::fprintf(stderr, "higgins-bench subscribe: %s: %s\n", t.name().c_str(),
                   run.status().ToString().c_str());
      failed = true;
      return;
    }
    Report(*run, o);
    failed |= run->errors > 0 || run->missing > 0;
    runs.push_back(*std::move(run));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the servers settle
  };
  if (Has(phases, "latency")) {
    for (double rate : o.rates) {
      for (SubscribeTarget* t : systems) keep(RunLatency(*t, o, rate), *t);
    }
  }
  if (Has(phases, "drain")) {
    for (SubscribeTarget* t : systems) keep(RunDrain(*t, o), *t);
  }
  if (Has(phases, "concurrent")) {
    for (SubscribeTarget* t : systems) keep(RunLatency(*t, o, 0), *t);
  }
  ReportRatios(runs, o);
  if (failed && !o.json) {
    std::fprintf(stderr, "broker log:\n%s\n", broker.Log().c_str());
  }
  return failed ? 3 : 0;
}

}  // namespace higgins::bench
