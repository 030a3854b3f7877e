// higgins-bench derived-throughput: join and window throughput beside plain produce throughput
// in the same run, against a broker it starts (derived_throughput.h; docs/performance.md, "Joins
// and windows").
//
// Threads: each measurement runs `concurrency` workers, each on its own connection, sending its
// next request when the previous one is answered (closed loop) until the measurement's time is
// up; the requests are numbered from one shared counter, which decides their stream and keys.
#include "derived_throughput.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "higgins/client.h"
#include "report_util.h"
#include "server_process.h"

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;
/// Prefix of the error a check returns for a reply that did not hold what was asked.
constexpr std::string_view kWrong = "wrong reply: ";

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// ---- measurements -----------------------------------------------------------------------------

/// One closed-loop measurement, merged over its workers.
struct Measure {
  std::string name;
  uint64_t requests = 0;  // answered without error
  uint64_t rows = 0;      // records acknowledged (produce) or returned (query)
  uint64_t errors = 0;
  uint64_t wrong = 0;     // replies that did not hold what was asked
  std::string first_error;
  std::vector<uint64_t> latency_ns;  // per request, send to reply
  Clock::time_point start{};         // of the first request
  double seconds = 0;                // from the start until the last reply

  // join only
  int64_t lag_at_end = -1;   // records the join still had to join when producing ended
  double join_seconds = -1;  // from the first produce until the join had caught up
  double catch_up_seconds = -1;
  uint64_t joined = 0;       // the join stream's record count at the end

  void Error(std::string text) {
    if (errors++ == 0 && first_error.empty()) first_error = std::move(text);
  }
  void Wrong(std::string text) {
    if (wrong++ == 0 && first_error.empty()) first_error = std::move(text);
  }
  void Merge(Measure&& o) {
    requests += o.requests;
    rows += o.rows;
    wrong += o.wrong;
    if (first_error.empty()) first_error = std::move(o.first_error);
    errors += o.errors;
    latency_ns.insert(latency_ns.end(), o.latency_ns.begin(), o.latency_ns.end());
  }
  double rows_per_s() const { return seconds > 0 ? static_cast<double>(rows) / seconds : 0; }
  double requests_per_s() const {
    return seconds > 0 ? static_cast<double>(requests) / seconds : 0;
  }
  double join_per_s() const {
    return join_seconds > 0 ? static_cast<double>(rows) / join_seconds : 0;
  }
};

void AppendNumber(std::string* out, uint64_t v) {
  char digits[24];
  out->append(digits, std::to_chars(digits, digits + sizeof(digits), v).ptr);
}

class ThroughputRun {
 public:
  explicit ThroughputRun(const DerivedThroughputOptions& options) : o_(options) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    tag_ = std::to_string(getpid()) + "_" + std::to_string(ms % 1'000'000'000);
    storage_ = o_.storage == "file" ? "disk" : "mem";
  }

  Status Setup(uint16_t port) {
    port_ = port;
    HIGGINS_ASSIGN_OR_RETURN(control_, Connect());
    const std::string storage = o_.storage == "file" ? "[storage.disk]\ntype = \"file\"\n"
                                                     : "[storage.mem]\ntype = \"memory\"\n";
    // The product README's schemas (src/config/readme_examples.h), under names of their own.
    return control_->UploadConfiguration(storage + R"toml(
[schema.bench_customer]
id = "string"
first_name = "string"
last_name = "string"
age = "int32"

[schema.bench_address]
customer_id = "string"
address_line_1 = "string"
city = "string"
province = "string"

[schema.bench_customer_address]
customer_id = "string"
customer_first_name = "string"
age = "int32"
address_line_1 = "string"
city = "string"

[schema.bench_value]
id = "string"
some_data = "string"
other_data = "string"
i = "int32"
)toml");
  }

  /// Fresh stream names of one phase.
  std::string Name(const std::string& role, const std::string& phase) const {
    return "bench_" + role + "_" + phase + "_" + tag_;
  }

  std::string SourceBlock(const std::string& name, const std::string& schema,
                          const std::string& key) const {
    return "[streams." + name + "]\nschema = \"" + schema + "\"\npartition_key = \"" + key +
           "\"\nstorage = \"" + storage_ + "\"\n";
  }

  Status Declare(const std::string& toml, std::vector<std::string> streams) {
    HIGGINS_RETURN_IF_ERROR(control_->UploadConfiguration(toml));
    declared_.insert(declared_.end(), streams.begin(), streams.end());
    return Status::OK();
  }

  /// Deletes what the phases declared, dependents first (they were declared after their bases).
  void Teardown() {
    if (!control_) return;
    for (auto it = declared_.rbegin(); it != declared_.rend(); ++it) {
      if (Status s = control_->DeleteConfiguration(*it); !s.ok()) {
        std::fprintf(stderr, "higgins-bench derived-throughput: deleting '%s': %s\n",
                     it->c_str(), s.ToString().c_str());
      }
    }
    declared_.clear();
  }

  // -- request bodies ---------------------------------------------------------------------------
  // Records of about 80-90 bytes of NDJSON each. Request r of a pair phase: r / 2 is the pair,
  // even r the customers and odd r the addresses of the same batch of keys.

  void CustomerRows(uint64_t pair, std::string* json) const {
    for (uint32_t j = 0; j < o_.batch; ++j) {
      const uint64_t key = (pair * o_.batch + j) % o_.keys;
      *json += R"({"id":"k)";
      AppendNumber(json, key);
      *json += R"(","first_name":"first-)";
      AppendNumber(json, pair);
      *json += R"(","last_name":"last-name-)";
      AppendNumber(json, key);
      *json += R"(","age":)";
      AppendNumber(json, pair % 1'000'000);
      *json += "}\n";
    }
  }
  void AddressRows(uint64_t pair, std::string* json) const {
    for (uint32_t j = 0; j < o_.batch; ++j) {
      const uint64_t key = (pair * o_.batch + j) % o_.keys;
      *json += R"({"customer_id":"k)";
      AppendNumber(json, key);
      *json += R"(","address_line_1":")";
      AppendNumber(json, key);
      *json += R"( Main Road","city":"city-)";
      AppendNumber(json, pair);
      *json += R"(","province":"p)";
      AppendNumber(json, key % 100);
      *json += "\"}\n";
    }
  }
  void ValueRows(uint64_t r, std::string* json) const {
    for (uint32_t j = 0; j < o_.batch; ++j) {
      const uint64_t key = (r * o_.batch + j) % o_.keys;
      *json += R"({"id":"k)";
      AppendNumber(json, key);
      *json += R"(","some_data":"some-)";
      AppendNumber(json, r);
      *json += R"(","other_data":"other-data-)";
      AppendNumber(json, key);
      *json += R"(","i":)";
      AppendNumber(json, r % 1'000'000);
      *json += "}\n";
    }
  }

  /// Runs `concurrency` closed-loop workers for `seconds`. `send` issues request number r on a
  /// worker's client and checks its reply; it returns the rows to count, or an error.
  using Send = std::function<Result<uint64_t>(Client&, uint64_t r, std::mt19937_64&)>;
  Result<Measure> Closed(const std::string& name, double seconds, const Send& send) {
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < o_.concurrency; ++i) {
      HIGGINS_ASSIGN_OR_RETURN(auto client, Connect());
      clients.push_back(std::move(client));
    }
    std::atomic<uint64_t> next{0};
    const Clock::time_point start = Clock::now() + std::chrono::milliseconds(20);
    const Clock::time_point end =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<Measure> parts(clients.size());
    std::vector<Clock::time_point> last(clients.size(), start);
    std::vector<std::thread> workers;
    for (size_t w = 0; w < clients.size(); ++w) {
      workers.emplace_back([&, w] {
        Measure& m = parts[w];
        std::mt19937_64 rng(0x9e3779b97f4a7c15ULL * (w + 1) + std::hash<std::string>{}(name));
        std::this_thread::sleep_until(start);
        for (Clock::time_point now = Clock::now(); now < end; now = Clock::now()) {
          auto rows = send(*clients[w], next.fetch_add(1), rng);
          const Clock::time_point done = Clock::now();
          last[w] = done;
          if (!rows.ok()) {
            if (rows.status().message().starts_with(kWrong)) {
              m.Wrong(rows.status().message().substr(kWrong.size()));
            } else {
              m.Error(rows.status().ToString());
            }
            continue;
          }
          ++m.requests;
          m.rows += *rows;
          m.latency_ns.push_back(static_cast<uint64_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(done - now).count()));
        }
      });
    }
    for (auto& t : workers) t.join();
    Measure out;
    out.name = name;
    for (auto& p : parts) out.Merge(std::move(p));
    out.start = start;
    out.seconds = Seconds(*std::max_element(last.begin(), last.end()) - start);
    std::sort(out.latency_ns.begin(), out.latency_ns.end());
    return out;
  }

  static Result<uint64_t> Rows(Result<ProduceResult> reply) {
    if (!reply.ok()) return reply.status();
    return reply->num_rows();
  }

  // -- phases -----------------------------------------------------------------------------------

  /// Produce alternately into a customer and an address stream; with `join`, a customer_address
  /// join over them.
  Result<Measure> PairPhase(bool join) {
    const std::string phase = join ? "join" : "plain";
    const std::string customer = Name("customer", phase), address = Name("address", phase);
    const std::string joined = Name("customer_address", phase);
    std::string toml = SourceBlock(customer, "bench_customer", "id") +
                       SourceBlock(address, "bench_address", "customer_id");
    std::vector<std::string> streams = {customer, address};
    if (join) {
      toml += "[streams." + joined + "]\ntype = \"join\"\nschema = \"bench_customer_address\"\n"
              "partition_key = \"customer_id\"\nstorage = \"" + storage_ + "\"\nbase = \"" +
              customer + "\"\njoin = [\"" + address + "\"]\nmap = { customer_id = \"" +
              customer + ".id\", customer_first_name = \"" + customer +
              ".first_name\", age = \"" + customer + ".age\", address_line_1 = \"" + address +
              ".address_line_1\", city = \"" + address + ".city\" }\n";
      streams.push_back(joined);
    }
    HIGGINS_RETURN_IF_ERROR(Declare(toml, streams));
    HIGGINS_ASSIGN_OR_RETURN(
        Measure m, Closed(join ? "join" : "plain-pair", o_.seconds,
                          [&](Client& c, uint64_t r, std::mt19937_64&) -> Result<uint64_t> {
                            std::string json;
                            json.reserve(size_t{o_.batch} * 100);
                            if (r % 2 == 0) {
                              CustomerRows(r / 2, &json);
                              return Rows(c.ProduceJson(customer, json));
                            }
                            AddressRows(r / 2, &json);
                            return Rows(c.ProduceJson(address, json));
                          }));
    if (!join) return m;

    // The join's progress: its record count against the acknowledged records, from the first
    // produce on.
    const Clock::time_point produced_end = Clock::now();
    const Clock::time_point start = m.start;
    HIGGINS_ASSIGN_OR_RETURN(uint64_t count, RecordCount(joined));
    m.lag_at_end = static_cast<int64_t>(m.rows) - static_cast<int64_t>(count);
    const Clock::time_point limit =
        produced_end + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(o_.catch_up_timeout_seconds));
    while (count < m.rows && Clock::now() < limit) {
      // Poll every 0.5 % of the time so far (5-50 ms): a listing of 10,000 partitions is not
      // free, and the resolution stays within 0.5 % of the measured time.
      const auto wait = std::clamp(
          std::chrono::duration_cast<std::chrono::milliseconds>((Clock::now() - start) / 200),
          std::chrono::milliseconds(5), std::chrono::milliseconds(50));
      std::this_thread::sleep_for(wait);
      HIGGINS_ASSIGN_OR_RETURN(count, RecordCount(joined));
    }
    const Clock::time_point caught = Clock::now();
    m.joined = count;
    if (count >= m.rows) {
      m.join_seconds = Seconds(caught - start);
      m.catch_up_seconds = Seconds(caught - produced_end);
    }
    if (count > m.rows) {
      m.Wrong("the join holds " + std::to_string(count) + " records for " +
              std::to_string(m.rows) + " produced");
    }
    // A few keys' latest joined records hold both sides (every key got customers and
    // addresses once the first 2 * keys / batch requests were in).
    if (m.requests >= 2ULL * o_.keys / o_.batch + 2) {
      std::mt19937_64 rng(42);
      for (int i = 0; i < 20; ++i) {
        const std::string key = "k" + std::to_string(rng() % o_.keys);
        auto latest = control_->QueryLatest(joined, key);
        if (!latest.ok()) {
          m.Error("join query: " + latest.status().ToString());
          continue;
        }
        const arrow::RecordBatch& b = latest->batch;
        if (b.num_rows() != 1 || b.num_columns() != 5 || b.column(0).IsNull(0) ||
            b.column(0).BinaryValue(0) != key || b.column(1).IsNull(0) || b.column(4).IsNull(0)) {
          m.Wrong("the latest joined record of '" + key + "' does not hold both sides");
        }
      }
    }
    return m;
  }

  /// Produce into a value stream; with `window`, a count window (interval 5) over it, then the
  /// two query measurements.
  Result<std::vector<Measure>> ValuePhase(bool window) {
    const std::string phase = window ? "window" : "plain";
    const std::string value = Name("value", phase), windowed = Name("value_windowed", phase);
    std::string toml = SourceBlock(value, "bench_value", "id");
    std::vector<std::string> streams = {value};
    if (window) {
      toml += "[streams." + windowed + "]\nbase = \"" + value + "\"\ntype = \"window\"\n"
              "partition_key = \"id\"\nschema = \"bench_value\"\nstorage = \"" + storage_ +
              "\"\nwindow = { type = \"count\", interval = \"5\" }\n";
      streams.push_back(windowed);
    }
    HIGGINS_RETURN_IF_ERROR(Declare(toml, streams));
    std::vector<Measure> out;
    HIGGINS_ASSIGN_OR_RETURN(
        Measure produce,
        Closed(window ? "window" : "plain-value", o_.seconds,
               [&](Client& c, uint64_t r, std::mt19937_64&) -> Result<uint64_t> {
                 std::string json;
                 json.reserve(size_t{o_.batch} * 100);
                 ValueRows(r, &json);
                 return Rows(c.ProduceJson(value, json));
               }));
    out.push_back(std::move(produce));
    if (!window) return out;

    // Every key is topped up to a multiple of 5 records, so that every latest window is a closed
    // window of 5 members (with round-robin keys all keys hold about the same count, and the
    // latest windows' sizes would otherwise depend on where producing stopped).
    HIGGINS_RETURN_IF_ERROR(TopUp(value, &out[0]));
    const bool every_key = out[0].rows >= o_.keys;
    auto query = [&](const std::string& stream, bool is_window) {
      return [&, stream, is_window](Client& c, uint64_t, std::mt19937_64& rng) -> Result<uint64_t> {
        const std::string key = "k" + std::to_string(rng() % o_.keys);
        auto latest = c.QueryLatest(stream, key);
        if (!latest.ok()) {
          if (!every_key && latest.status().code() == StatusCode::kNotFound) return 0;
          return latest.status();
        }
        const arrow::RecordBatch& b = latest->batch;
        const int64_t n = b.num_rows();
        const auto wrong = [&](std::string_view answered) {
          std::string message(kWrong);
          message.append("QueryLatest of '").append(key).append("' on ").append(stream);
          return Status::Corruption(message.append(" answered ").append(answered));
        };
        if (is_window ? (!latest->window || n < 1 || n > 5) : (latest->window || n != 1)) {
          return wrong(std::to_string(n) + " rows");
        }
        for (int64_t i = 0; i < n; ++i) {
          if (b.column(0).IsNull(i) || b.column(0).BinaryValue(i) != key) {
            return wrong("another key");
          }
        }
        return static_cast<uint64_t>(n);
      };
    };
    HIGGINS_ASSIGN_OR_RETURN(Measure wq,
                             Closed("window-query", o_.query_seconds, query(windowed, true)));
    out.push_back(std::move(wq));
    HIGGINS_ASSIGN_OR_RETURN(Measure bq,
                             Closed("base-query", o_.query_seconds, query(value, false)));
    out.push_back(std::move(bq));
    return out;
  }

  /// Produces into `value` until each listed partition holds a multiple of 5 records (not
  /// counted in the measurement; a failure is counted as its error).
  Status TopUp(const std::string& value, Measure* m) {
    HIGGINS_ASSIGN_OR_RETURN(auto info, control_->Metadata(value));
    if (info.empty()) return Status::NotFound("no metadata for '" + value + "'");
    if (info.front().partitions_truncated) {
      std::fprintf(stderr, "higgins-bench derived-throughput: only %zu of %llu partitions listed; "
                           "the others are not topped up\n",
                   info.front().partitions.size(),
                   static_cast<unsigned long long>(info.front().partition_count));
    }
    std::string json;
    uint64_t rows = 0;
    auto flush = [&] {
      if (rows == 0) return;
      if (auto r = control_->ProduceJson(value, json); !r.ok()) {
        m->Error("top-up: " + r.status().ToString());
      }
      json.clear();
      rows = 0;
    };
    for (const PartitionInfo& p : info.front().partitions) {
      for (uint64_t n = p.count; n % 5 != 0; ++n, ++rows) {
        json += R"({"id":")" + p.key + R"(","some_data":"top-up","other_data":"x","i":0})" "\n";
      }
      if (rows >= 1000) flush();
    }
    flush();
    return Status::OK();
  }

  // -- output -----------------------------------------------------------------------------------

  void Report(const Measure& m) const {
    const auto& l = m.latency_ns;
    const double max_us = l.empty() ? 0 : static_cast<double>(l.back()) / 1000.0;
    const bool query = m.name.ends_with("-query");
    if (o_.json) {
      std::printf(
          "{\"mode\":\"derived-throughput\",\"phase\":\"%s\",\"storage\":\"%s\",\"batch\":%u,"
          "\"concurrency\":%d,\"keys\":%u,\"seconds\":%.3f,\"requests\":%llu,\"records\":%llu,"
          "\"records_per_s\":%.1f,\"requests_per_s\":%.1f,\"p50_us\":%.1f,\"p99_us\":%.1f,"
          "\"p999_us\":%.1f,\"max_us\":%.1f",
          m.name.c_str(), o_.storage.c_str(), o_.batch, o_.concurrency, o_.keys, m.seconds,
          static_cast<unsigned long long>(m.requests), static_cast<unsigned long long>(m.rows),
          m.rows_per_s(), m.requests_per_s(), QuantileUs(l, 0.5), QuantileUs(l, 0.99),
          QuantileUs(l, 0.999), max_us);
      if (m.name == "join") {
        std::printf(",\"join_records_per_s\":%.1f,\"join_seconds\":%.3f,\"lag_at_end\":%lld,"
                    "\"catch_up_s\":%.3f,\"joined\":%llu",
                    m.join_per_s(), m.join_seconds, static_cast<long long>(m.lag_at_end),
                    m.catch_up_seconds, static_cast<unsigned long long>(m.joined));
      }
      std::printf(",\"errors\":%llu,\"wrong\":%llu,\"first_error\":\"%s\"}\n",
                  static_cast<unsigned long long>(m.errors),
                  static_cast<unsigned long long>(m.wrong), JsonEscape(m.first_error).c_str());
    } else {
      std::printf(
          "derived-throughput %s %s batch=%u concurrency=%d keys=%u: %.0f %s/s (%.0f %s/s) in "
          "%.2f s; %s us p50=%.0f p99=%.0f p999=%.0f max=%.0f",
          m.name.c_str(), o_.storage.c_str(), o_.batch, o_.concurrency, o_.keys, m.rows_per_s(),
          query ? "rec" : "acked rec", m.requests_per_s(), query ? "queries" : "req", m.seconds,
          query ? "query" : "request", QuantileUs(l, 0.5), QuantileUs(l, 0.99), QuantileUs(l, 0.999),
          max_us);
      if (m.name == "join") {
        std::printf("; join %.0f rec/s (%llu records joined %.2f s after the first produce); "
                    "lag when producing ended %lld records, caught up %.2f s later",
                    m.join_per_s(), static_cast<unsigned long long>(m.joined), m.join_seconds,
                    static_cast<long long>(m.lag_at_end), m.catch_up_seconds);
      }
      std::printf("; errors=%llu, wrong=%llu\n", static_cast<unsigned long long>(m.errors),
                  static_cast<unsigned long long>(m.wrong));
      if (!m.first_error.empty()) std::printf("first error: %s\n", m.first_error.c_str());
    }
    std::fflush(stdout);
  }

  /// The summary table (text mode only): records/s and the ratios within this run.
  void Table(const std::vector<Measure>& all) const {
    if (o_.json) return;
    auto find = [&](const std::string& name) -> const Measure* {
      for (const Measure& m : all) {
        if (m.name == name) return &m;
      }
      return nullptr;
    };
    auto ratio = [](double a, double b) -> std::string {
      if (a <= 0 || b <= 0) return "n/a";
      char s[32];
      std::snprintf(s, sizeof(s), "%.2f", a / b);
      return s;
    };
    const Measure* pair = find("plain-pair");
    const Measure* join = find("join");
    const Measure* value = find("plain-value");
    const Measure* window = find("window");
    const Measure* wq = find("window-query");
    const Measure* bq = find("base-query");
    std::printf("\n%s storage, %u records per request, %d requests in flight, %u keys, %.0f s "
                "per phase; ratios against the plain rows of this run (above 1: faster)\n\n",
                o_.storage.c_str(), o_.batch, o_.concurrency, o_.keys, o_.seconds);
    std::printf("| measurement | records/s | ratio |\n|---|---|---|\n");
    auto row = [&](const char* what, const Measure* m, double v, const std::string& r) {
      if (m == nullptr) return;
      std::printf("| %s | %.0f | %s |\n", what, v, r.c_str());
    };
    row("plain: produce into customer + address (acknowledged)", pair,
        pair ? pair->rows_per_s() : 0, "1");
    if (join != nullptr) {
      row("join: produce into customer + address (acknowledged)", join, join->rows_per_s(),
          pair ? ratio(join->rows_per_s(), pair->rows_per_s()) : "n/a");
      row("**join: records joined** (first produce until caught up)", join, join->join_per_s(),
          "**" + (pair ? ratio(join->join_per_s(), pair->rows_per_s()) : std::string("n/a")) +
              "** (target >= 0.5)");
    }
    row("plain: produce into value (acknowledged)", value, value ? value->rows_per_s() : 0, "1");
    if (window != nullptr) {
      row("**window: produce into value (acknowledged)**", window, window->rows_per_s(),
          "**" + (value ? ratio(window->rows_per_s(), value->rows_per_s()) : std::string("n/a")) +
              "** (target >= 0.5)");
    }
    if (wq != nullptr && bq != nullptr) {
      std::printf("| QueryLatest on the base stream: %.0f queries/s | %.0f | 1 |\n",
                  bq->requests_per_s(), bq->rows_per_s());
      std::printf("| QueryLatest on the window stream: %.0f queries/s (%.2f records each) | %.0f "
                  "| %s queries/s, %s records/s |\n",
                  wq->requests_per_s(),
                  wq->requests > 0 ? static_cast<double>(wq->rows) / wq->requests : 0.0,
                  wq->rows_per_s(), ratio(wq->requests_per_s(), bq->requests_per_s()).c_str(),
                  ratio(wq->rows_per_s(), bq->rows_per_s()).c_str());
    }
    if (join != nullptr) {
      std::printf("\njoin lag when producing ended: %lld records (caught up %.2f s later)\n",
                  static_cast<long long>(join->lag_at_end), join->catch_up_seconds);
    }
    std::fflush(stdout);
  }

 private:
  Result<std::unique_ptr<Client>> Connect() const {
    ClientOptions options;
    options.host = o_.external ? o_.host : "127.0.0.1";
    options.port = port_;
    options.request_timeout = std::chrono::milliseconds(o_.timeout_ms);
    return Client::Connect(options);
  }

  Result<uint64_t> RecordCount(const std::string& stream) const {
    HIGGINS_ASSIGN_OR_RETURN(auto info, control_->Metadata(stream));
    if (info.empty()) return Status::NotFound("no metadata for '" + stream + "'");
    return info.front().record_count;
  }

  const DerivedThroughputOptions o_;
  std::string tag_, storage_;
  uint16_t port_ = 0;
  std::unique_ptr<Client> control_;
  std::vector<std::string> declared_;
};

bool Wants(const std::string& phases, std::string_view phase) {
  std::string_view rest = phases;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    if (rest.substr(0, comma) == phase) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

int RunDerivedThroughput(const DerivedThroughputOptions& options) {
  ServerProcess broker;
  uint16_t port = options.port;
  if (!options.external) {
    const std::string binary =
        options.broker_path.empty() ? DefaultBrokerPath() : options.broker_path;
    if (Status s = StartBroker(&broker, binary, options.broker_args); !s.ok()) {
      std::fprintf(stderr, "higgins-bench derived-throughput: %s\n", s.ToString().c_str());
      return 1;
    }
    port = broker.port();
    if (!options.json) {
      std::printf("derived-throughput: started %s (pid %d) on port %u\n",
                  (options.broker_path.empty() ? DefaultBrokerPath() : options.broker_path)
                      .c_str(),
                  static_cast<int>(broker.pid()), port);
      std::fflush(stdout);
    }
  }
  ThroughputRun run(options);
  if (Status s = run.Setup(port); !s.ok()) {
    std::fprintf(stderr, "higgins-bench derived-throughput: %s\n", s.ToString().c_str());
    return 1;
  }
  std::vector<Measure> all;
  bool failed = false;
  auto keep = [&](Measure m) {
    run.Report(m);
    failed |= m.errors > 0 || m.wrong > 0;
    all.push_back(std::move(m));
  };
  auto fail = [&](const Status& s) {
    std::fprintf(stderr, "higgins-bench derived-throughput: %s\n", s.ToString().c_str());
    if (!options.external) std::fprintf(stderr, "broker log:\n%s\n", broker.Log().c_str());
    run.Teardown();
    return 1;
  };
  // Each phase on fresh streams, deleted after it (memory storage would otherwise hold every
  // phase's records), with a pause for the broker to settle.
  auto settle = [&] {
    run.Teardown();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  };
  const bool plain = Wants(options.phases, "plain");
  if (plain) {
    auto m = run.PairPhase(false);
    if (!m.ok()) return fail(m.status());
    keep(*std::move(m));
    settle();
  }
  if (Wants(options.phases, "join")) {
    auto m = run.PairPhase(true);
    if (!m.ok()) return fail(m.status());
    keep(*std::move(m));
    settle();
  }
  if (plain) {
    auto m = run.ValuePhase(false);
    if (!m.ok()) return fail(m.status());
    for (Measure& x : *m) keep(std::move(x));
    settle();
  }
  if (Wants(options.phases, "window")) {
    auto m = run.ValuePhase(true);
    if (!m.ok()) return fail(m.status());
    for (Measure& x : *m) keep(std::move(x));
    settle();
  }
  run.Table(all);
  return failed ? 3 : 0;
}

}  // namespace higgins::bench
