// higgins-bench s3: produce throughput on s3 storage beside file storage, the time from an
// acknowledgement to the object holding the record, and cold and warm point reads (s3_bench.h;
// docs/performance.md, "S3 storage").
//
// Threads: produce measurements run `concurrency` closed-loop workers, one connection each. The
// visibility measurement runs the probe producer on the calling thread and a poller thread that
// lists the objects with the s3 client (src/s3) and reads their footers (src/storage).
#include "s3_bench.h"

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "higgins/client.h"
#include "report_util.h"
#include "s3/s3_client.h"
#include "server_process.h"
#include "storage/s3_storage.h"

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr char kBucket[] = "bench";

uint64_t Ns(Clock::duration d) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

struct Measure {
  std::string name;
  uint64_t requests = 0, rows = 0, errors = 0;
  std::string first_error;
  double seconds = 0;
  std::vector<uint64_t> latency_ns;  // sorted
  double per_s() const { return seconds > 0 ? static_cast<double>(rows) / seconds : 0; }
};

void Print(const S3BenchOptions& o, const Measure& m, const char* unit) {
  if (o.json) {
    std::printf(
        "{\"measure\":\"%s\",\"requests\":%llu,\"rows\":%llu,\"errors\":%llu,\"seconds\":%.3f,"
        "\"per_s\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f}\n",
        m.name.c_str(), static_cast<unsigned long long>(m.requests),
        static_cast<unsigned long long>(m.rows), static_cast<unsigned long long>(m.errors),
        m.seconds, m.per_s(), QuantileUs(m.latency_ns, 0.5), QuantileUs(m.latency_ns, 0.99),
        QuantileUs(m.latency_ns, 1.0));
  } else {
    std::printf(
        "%-16s %8llu %-8s %10.0f/s  p50 %9.1f us  p99 %9.1f us  max %9.1f us  errors %llu\n",
        m.name.c_str(), static_cast<unsigned long long>(m.rows), unit, m.per_s(),
        QuantileUs(m.latency_ns, 0.5), QuantileUs(m.latency_ns, 0.99),
        QuantileUs(m.latency_ns, 1.0), static_cast<unsigned long long>(m.errors));
  }
  if (!m.first_error.empty())
    std::fprintf(stderr, "%s: first error: %s\n", m.name.c_str(), m.first_error.c_str());
}

class S3Bench {
 public:
  explicit S3Bench(const S3BenchOptions& o) : o_(o) {}

  Status Start() {
    HIGGINS_RETURN_IF_ERROR(s3rver_.Prepare("higgins-bench-s3rver"));
    const std::string s3rver =
        o_.s3rver_path.empty()
            ? std::string(HIGGINS_SOURCE_DIR) + "/tools/interop/node_modules/.bin/s3rver"
            : o_.s3rver_path;
    // s3rver's listing continuation tokens use DES, which Node 17+ offers only with OpenSSL's
    // legacy provider (without it, a truncated listing is an HTTP 500).
    ::setenv("NODE_OPTIONS", "--openssl-legacy-provider", 1);
    HIGGINS_RETURN_IF_ERROR(s3rver_.Spawn({s3rver, "-d", s3rver_.root() + "/objects", "-p",
                                           std::to_string(s3rver_.port()), "--address", "127.0.0.1",
                                           "--configure-bucket", kBucket, "--silent"}));
    if (!WaitForPort(s3rver_.port(), std::chrono::seconds(30))) {
      return Status::IOError("s3rver did not start: " + s3rver_.Log());
    }
    const std::string endpoint = "http://127.0.0.1:" + std::to_string(s3rver_.port());
    s3::S3Options s3o;
    s3o.endpoint = endpoint;
    s3o.bucket = kBucket;
    s3o.access_key_id = s3o.secret_access_key = "S3RVER";
    HIGGINS_ASSIGN_OR_RETURN(store_, s3::MakeS3ObjectStore(s3o));

    HIGGINS_RETURN_IF_ERROR(
        StartBroker(&broker_, o_.broker_path.empty() ? DefaultBrokerPath() : o_.broker_path,
                    {"--entry-cache-mb=0"}));
    HIGGINS_ASSIGN_OR_RETURN(control_, Connect());
    const std::string s3_block =
        "type = \"s3\"\naws_endpoint = \"" + endpoint +
        "\"\naws_access_key_id = \"S3RVER\"\n"
        "aws_secret_access_key = \"S3RVER\"\nbucket = \"" +
        kBucket + "\"\nsegment_max_age_ms = " + std::to_string(o_.segment_max_age_ms) + "\n";
    return control_->UploadConfiguration(
        "[storage.disk]\ntype = \"file\"\n\n[storage.objects]\n" + s3_block +
        "prefix = \"bulk/\"\n\n[storage.probe_objects]\n" + s3_block +
        "prefix = \"probe/\"\n\n"
        "[schema.bench_event]\nid = \"string\"\nseq = \"int64\"\npayload = \"string\"\n\n"
        "[streams.bench_file]\nschema = \"bench_event\"\npartition_key = \"id\"\n"
        "storage = \"disk\"\nbuckets = 1\n\n"
        "[streams.bench_s3]\nschema = \"bench_event\"\npartition_key = \"id\"\n"
        "storage = \"objects\"\nbuckets = 1\n\n"
        "[streams.bench_probe]\nschema = \"bench_event\"\npartition_key = \"id\"\n"
        "storage = \"probe_objects\"\nbuckets = 1\n");
  }

  Result<std::unique_ptr<Client>> Connect() {
    ClientOptions options;
    options.port = broker_.port();
    return Client::Connect(options);
  }

  /// Request r: `batch` records, keys round-robin, so that entry r holds offset r / ... of each
  /// key.
  std::string Rows(uint64_t r) const {
    std::string json;
    for (uint32_t j = 0; j < o_.batch; ++j) {
      const uint64_t n = r * o_.batch + j;
      json += "{\"id\":\"k" + std::to_string(n % o_.keys) + "\",\"seq\":" + std::to_string(n) +
              ",\"payload\":\"payload-of-about-sixty-bytes-for-record-" + std::to_string(n) +
              "-xxxxxxxx\"}\n";
    }
    return json;
  }

  /// Produces to `stream` for o_.seconds from o_.concurrency clients (unnamed: Run names it).
  Result<Measure> Produce(const std::string& stream) {
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < o_.concurrency; ++i) {
      HIGGINS_ASSIGN_OR_RETURN(auto c, Connect());
      clients.push_back(std::move(c));
    }
    std::atomic<uint64_t>& next = next_request_[stream];
    std::vector<Measure> parts(clients.size());
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(o_.seconds));
    std::vector<std::thread> workers;
    for (size_t w = 0; w < clients.size(); ++w) {
      workers.emplace_back([&, w] {
        Measure& m = parts[w];
        for (auto now = Clock::now(); now < end; now = Clock::now()) {
          const uint64_t r = next.fetch_add(1);
          auto reply = clients[w]->ProduceJson(stream, Rows(r));
          if (!reply.ok()) {
            if (m.errors++ == 0) m.first_error = reply.status().ToString();
            continue;
          }
          ++m.requests;
          m.rows += reply->num_rows();
          m.latency_ns.push_back(Ns(Clock::now() - now));
        }
      });
    }
    for (auto& t : workers) t.join();
    Measure out;
    out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    for (auto& p : parts) {
      out.requests += p.requests;
      out.rows += p.rows;
      out.errors += p.errors;
      if (out.first_error.empty()) out.first_error = p.first_error;
      out.latency_ns.insert(out.latency_ns.end(), p.latency_ns.begin(), p.latency_ns.end());
    }
    std::sort(out.latency_ns.begin(), out.latency_ns.end());
    produced_[stream] += out.rows;
    return out;
  }

  /// The end sequence of every object under `prefix` whose footer reads.
  std::map<std::string, uint64_t> ListObjects(const std::string& prefix,
                                              std::map<std::string, uint64_t> known) {
    auto listed = store_->List(prefix);
    if (!listed.ok()) return known;
    const auto schema = arrow::MakeSchema({{"id", arrow::DataType::Utf8()},
                                           {"seq", arrow::DataType::Int64()},
                                           {"payload", arrow::DataType::Utf8()}});
    for (const s3::ObjectInfo& object : *listed) {
      if (known.count(object.key) != 0) continue;
      const std::string name = object.key.substr(object.key.rfind('/') + 1);
      const auto base = storage::ParseSegmentObjectName(name);
      const size_t cut = object.key.rfind('/', object.key.rfind('/') - 1);
      const std::string stream_part = object.key.substr(prefix.size(), cut - prefix.size());
      if (!base) continue;
      auto info = storage::ReadSegmentObjectFooter(
          *store_, object, *schema, StreamId(std::stoull(stream_part)), BucketId(0), *base);
      if (info.ok()) known[object.key] = info->end_sequence().value();
    }
    return known;
  }

  Result<Measure> Visibility() {
    Measure m;
    std::mutex mu;
    std::vector<Clock::time_point> acked(o_.probes);
    std::vector<Clock::time_point> visible(o_.probes);
    std::vector<bool> seen(o_.probes, false);
    std::atomic<bool> done{false};
    std::thread poller([&] {
      std::map<std::string, uint64_t> objects;
      uint64_t covered = 0;
      while (!done.load()) {
        objects = ListObjects("probe/", std::move(objects));
        const auto now = Clock::now();
        uint64_t end = 0;
        for (const auto& [key, e] : objects) end = std::max(end, e);
        std::lock_guard lock(mu);
        for (; covered < end && covered < o_.probes; ++covered) {
          seen[covered] = true;
          visible[covered] = now;
        }
        if (covered >= o_.probes) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
    const auto start = Clock::now();
    for (uint32_t i = 0; i < o_.probes; ++i) {
      auto reply =
          control_->ProduceJson("bench_probe", "{\"id\":\"p\",\"seq\":" + std::to_string(i) +
                                                   ",\"payload\":\"probe\"}\n");
      const auto now = Clock::now();
      if (!reply.ok() || reply->offsets.size() != 1 || reply->offsets[0] != i) {
        if (m.errors++ == 0) {
          m.first_error = reply.ok() ? "offset " + std::to_string(reply->offsets[0]) +
                                           " for probe " + std::to_string(i)
                                     : reply.status().ToString();
        }
        continue;
      }
      {
        std::lock_guard lock(mu);
        acked[i] = now;
      }
      std::this_thread::sleep_until(start +
                                    std::chrono::milliseconds(o_.probe_interval_ms) * (i + 1));
    }
    const auto limit = Clock::now() + std::chrono::seconds(30);
    while (Clock::now() < limit) {
      {
        std::lock_guard lock(mu);
        if (std::all_of(seen.begin(), seen.end(), [](bool b) { return b; })) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    done = true;
    poller.join();
    for (uint32_t i = 0; i < o_.probes; ++i) {
      if (!seen[i]) {
        if (m.errors++ == 0)
          m.first_error = "probe " + std::to_string(i) + " never appeared in an object";
        continue;
      }
      ++m.requests;
      ++m.rows;
      m.latency_ns.push_back(visible[i] > acked[i] ? Ns(visible[i] - acked[i]) : 0);
    }
    m.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::sort(m.latency_ns.begin(), m.latency_ns.end());
    return m;
  }

  /// Waits until the objects of bench_s3 hold every produced record.
  Status WaitUploaded() {
    const auto limit = Clock::now() + std::chrono::seconds(60);
    std::map<std::string, uint64_t> objects;
    while (Clock::now() < limit) {
      objects = ListObjects("bulk/", std::move(objects));
      uint64_t end = 0;
      for (const auto& [key, e] : objects) end = std::max(end, e);
      if (end >= produced_["bench_s3"]) return Status::OK();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return Status::IOError("the s3 stream's records were not all uploaded within 60 s");
  }

  /// The same point queries (key, offset) of `stream`, one at a time (unnamed: Run names it).
  Measure Reads(const std::string& stream,
                const std::vector<std::pair<std::string, uint64_t>>& queries) {
    Measure m;
    const auto start = Clock::now();
    for (const auto& [key, offset] : queries) {
      const auto t = Clock::now();
      auto records = control_->QueryAt(stream, key, offset);
      const auto d = Clock::now() - t;
      if (!records.ok() || records->batch.num_rows() != 1) {
        if (m.errors++ == 0) m.first_error = records.ok() ? "no row" : records.status().ToString();
        continue;
      }
      ++m.requests;
      ++m.rows;
      m.latency_ns.push_back(Ns(d));
    }
    m.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::sort(m.latency_ns.begin(), m.latency_ns.end());
    return m;
  }

  int Run() {
    if (Status s = Start(); !s.ok()) {
      std::fprintf(stderr, "higgins-bench s3: %s\n", s.ToString().c_str());
      return 1;
    }
    std::vector<Measure> all;
    bool failed = false;
    auto add = [&](const char* name, Result<Measure> m, const char* unit) {
      if (!m.ok()) {
        std::fprintf(stderr, "higgins-bench s3: %s\n", m.status().ToString().c_str());
        failed = true;
        return;
      }
      m->name = name;
      Print(o_, *m, unit);
      if (m->errors > 0) failed = true;
      all.push_back(*std::move(m));
    };
    for (int round = 0; round < 2; ++round) {
      add("produce-file", Produce("bench_file"), "records");
      add("produce-s3", Produce("bench_s3"), "records");
    }
    add("ack-to-object", Visibility(), "probes");
    if (Status s = WaitUploaded(); !s.ok()) {
      std::fprintf(stderr, "higgins-bench s3: %s\n", s.ToString().c_str());
      return 3;
    }
    // Distinct entries: request r holds offset r of every key (one bucket, keys round-robin,
    // batch a multiple of keys or not: each request's first record is a distinct entry).
    const uint64_t per_key = std::min(produced_["bench_s3"], produced_["bench_file"]) / o_.keys;
    std::vector<uint64_t> offsets(per_key);
    for (uint64_t i = 0; i < per_key; ++i) offsets[i] = i;
    std::mt19937_64 rng(7);
    std::shuffle(offsets.begin(), offsets.end(), rng);
    std::vector<std::pair<std::string, uint64_t>> queries;
    for (uint64_t i = 0; i < std::min<uint64_t>(o_.queries, per_key); ++i) {
      queries.emplace_back("k" + std::to_string(rng() % o_.keys), offsets[i]);
    }
    add("read-s3-cold", Reads("bench_s3", queries), "queries");
    add("read-s3-warm", Reads("bench_s3", queries), "queries");
    add("read-file", Reads("bench_file", queries), "queries");

    auto find = [&](const std::string& name) {
      std::vector<const Measure*> out;
      for (const auto& m : all)
        if (m.name == name) out.push_back(&m);
      return out;
    };
    double file_rate = 0, s3_rate = 0;
    for (const Measure* m : find("produce-file")) file_rate += m->per_s();
    for (const Measure* m : find("produce-s3")) s3_rate += m->per_s();
    const auto cold = find("read-s3-cold"), warm = find("read-s3-warm"), file = find("read-file");
    if (!cold.empty() && !warm.empty() && !file.empty() && file_rate > 0) {
      const double c50 = QuantileUs(cold[0]->latency_ns, 0.5),
                   w50 = QuantileUs(warm[0]->latency_ns, 0.5);
      const double f50 = QuantileUs(file[0]->latency_ns, 0.5);
      std::printf(
          "ratios: produce s3/file %.2f; read p50 cold/warm %.1f, warm/file %.2f, cold/file %.1f\n",
          s3_rate / file_rate, w50 > 0 ? c50 / w50 : 0, f50 > 0 ? w50 / f50 : 0,
          f50 > 0 ? c50 / f50 : 0);
    }
    return failed ? 3 : 0;
  }

 private:
  const S3BenchOptions& o_;
  ServerProcess s3rver_;
  ServerProcess broker_;
  std::unique_ptr<s3::ObjectStore> store_;
  std::unique_ptr<Client> control_;
  std::map<std::string, std::atomic<uint64_t>> next_request_;
  std::map<std::string, uint64_t> produced_;
};

}  // namespace

int RunS3Bench(const S3BenchOptions& options) {
  return S3Bench(options).Run();
}

}  // namespace higgins::bench
