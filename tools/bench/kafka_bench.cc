#include "kafka_bench.h"

#include <librdkafka/rdkafka.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "higgins/client.h"
#include "kafka_bench_internal.h"
#include "kafka_jetstream.h"
#include "server_process.h"

namespace higgins::bench {
namespace {

using Clock = std::chrono::steady_clock;

uint16_t FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  uint16_t port = 0;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  if (fd >= 0) ::close(fd);
  return port;  // 0 (none found): the broker starts without Kafka, and the Kafka phases fail
}

double Seconds(Clock::time_point from) {
  return std::chrono::duration<double>(Clock::now() - from).count();
}

bool Fail(const std::string& what) {
  std::fprintf(stderr, "higgins-bench kafka: %s\n", what.c_str());
  return false;
}

/// What the deliveries of one producer came to. Written by librdkafka's delivery callback, which
/// runs inside rd_kafka_poll / rd_kafka_flush on the producing thread; read after the flush.
struct Deliveries {
  uint64_t delivered = 0;
  uint64_t failed = 0;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque);

/// A librdkafka handle with `settings`; a producer reports deliveries to OnDelivery, counted in
/// `deliveries` (which must outlive it) when that is not null. Null, and a message, on a bad
/// setting.
rd_kafka_t* NewHandle(rd_kafka_type_t type,
                      const std::vector<std::pair<std::string, std::string>>& settings,
                      Deliveries* deliveries = nullptr) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (type == RD_KAFKA_PRODUCER) {
    rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
    rd_kafka_conf_set_opaque(conf, deliveries);
  }
  for (const auto& [name, value] : settings) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      Fail(name + ": " + error);
      rd_kafka_conf_destroy(conf);
      return nullptr;
    }
  }
  rd_kafka_t* handle = rd_kafka_new(type, conf, error, sizeof(error));
  if (handle == nullptr) Fail(error);
  return handle;
}

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* deliveries = static_cast<Deliveries*>(opaque);
  if (deliveries == nullptr) return;
  if (message->err) {
    ++deliveries->failed;
  } else {
    ++deliveries->delivered;
  }
}

/// One connection's share of the native produce: NDJSON requests of `batch` records, at most
/// `in_flight` unanswered. Empty, or what went wrong.
std::string NativeProduceShare(Client& client, const KafkaBenchOptions& o, Share share) {
  std::deque<Pending<ProduceResult>> in_flight;
  std::string key;
  for (uint64_t first = share.first; first < share.end; first += o.batch) {
    std::string ndjson;
    for (uint64_t i = first; i < std::min<uint64_t>(share.end, first + o.batch); ++i) {
      ndjson += KafkaBenchRecord(i, o, &key);
      ndjson.push_back('\n');
    }
    if (in_flight.size() >= o.in_flight) {
      auto done = in_flight.front().Get();
      in_flight.pop_front();
      if (!done.ok()) return done.status().ToString();
    }
    in_flight.push_back(client.ProduceJsonAsync("kb_native", ndjson));
  }
  for (auto& p : in_flight) {
    auto done = p.Get();
    if (!done.ok()) return done.status().ToString();
  }
  return {};
}

/// `connections` native connections, each producing its share on a thread of its own; the
/// rate is all the records over the time from the first send to the last acknowledgement.
bool NativeProduce(uint16_t port, const KafkaBenchOptions& o, double* rate) {
  std::vector<std::unique_ptr<Client>> clients;
  for (uint32_t c = 0; c < o.connections; ++c) {
    ClientOptions options;
    options.port = port;
    auto client = Client::Connect(options);
    if (!client.ok()) return Fail("native produce: " + client.status().ToString());
    clients.push_back(*std::move(client));
  }
  std::vector<std::string> errors(o.connections);
  const auto start = Clock::now();
  OnThreads(o.connections, [&](uint32_t c) {
    errors[c] = NativeProduceShare(*clients[c], o, ShareOf(o.records, o.connections, c));
  });
  *rate = static_cast<double>(o.records) / Seconds(start);
  for (const std::string& error : errors) {
    if (!error.empty()) return Fail("native produce: " + error);
  }
  return true;
}

/// One producer's share of the Kafka produce, flushed (every record acknowledged or failed).
void KafkaProduceShare(rd_kafka_t* producer, rd_kafka_topic_t* topic, const KafkaBenchOptions& o,
                       Share share) {
  std::string key;
  for (uint64_t i = share.first; i < share.end; ++i) {
    std::string value = KafkaBenchRecord(i, o, &key);
    while (rd_kafka_produce(topic, 0, RD_KAFKA_MSG_F_COPY, value.data(), value.size(), key.data(),
                            key.size(), nullptr) != 0) {
      rd_kafka_poll(producer, 1);  // the local queue is full: let deliveries drain it
    }
    if (i % 1000 == 0) rd_kafka_poll(producer, 0);
  }
  rd_kafka_flush(producer, 120'000);
}

/// `connections` librdkafka producers (each with its own connection to the broker), each
/// producing its share on a thread of its own, until every record is acknowledged.
bool KafkaProduce(const std::string& bootstrap, const KafkaBenchOptions& o, double* rate) {
  std::vector<Deliveries> deliveries(o.connections);
  std::vector<rd_kafka_t*> producers;
  std::vector<rd_kafka_topic_t*> topics;
  std::vector<std::pair<std::string, std::string>> settings = {
      {"bootstrap.servers", bootstrap},          {"linger.ms", "5"},
      {"batch.num.messages", "10000"},           {"queue.buffering.max.messages", "2000000"},
      {"queue.buffering.max.kbytes", "2097151"}, {"acks", "all"},
  };
  for (const std::string& setting : o.kafka_producer_settings) {
    const auto equals = setting.find('=');
    if (equals == std::string::npos) return Fail("--kafka-set " + setting + ": not name=value");
    settings.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
  }
  bool made = true;
  for (uint32_t c = 0; c < o.connections && made; ++c) {
    rd_kafka_t* producer = NewHandle(RD_KAFKA_PRODUCER, settings, &deliveries[c]);
    made = producer != nullptr;
    if (made) {
      producers.push_back(producer);
      topics.push_back(rd_kafka_topic_new(producer, "kb_kafka", nullptr));
    }
  }
  if (made) {
    const auto start = Clock::now();
    OnThreads(o.connections, [&](uint32_t c) {
      KafkaProduceShare(producers[c], topics[c], o, ShareOf(o.records, o.connections, c));
    });
    Deliveries total;
    for (const Deliveries& d : deliveries) {
      total.delivered += d.delivered;
      total.failed += d.failed;
    }
    *rate = static_cast<double>(total.delivered) / Seconds(start);
    if (total.delivered != o.records || total.failed != 0) {
      made = Fail("Kafka produce: " + std::to_string(total.delivered) + " delivered, " +
                  std::to_string(total.failed) + " failed");
    }
  }
  for (rd_kafka_topic_t* topic : topics) rd_kafka_topic_destroy(topic);
  for (rd_kafka_t* producer : producers) rd_kafka_destroy(producer);
  return made;
}

rd_kafka_t* Consumer(const std::string& bootstrap, int64_t from) {
  rd_kafka_t* consumer = NewHandle(RD_KAFKA_CONSUMER, {{"bootstrap.servers", bootstrap},
                                                       {"group.id", "kb"},
                                                       {"enable.auto.commit", "false"},
                                                       {"fetch.wait.max.ms", "10"}});
  if (consumer == nullptr) return nullptr;
  rd_kafka_poll_set_consumer(consumer);
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, "kb_kafka", 0)->offset = from;
  rd_kafka_assign(consumer, list);
  rd_kafka_topic_partition_list_destroy(list);
  return consumer;
}

bool KafkaConsume(const std::string& bootstrap, const KafkaBenchOptions& o, double* rate) {
  rd_kafka_t* consumer = Consumer(bootstrap, 0);
  if (consumer == nullptr) return false;
  uint64_t seen = 0;
  const auto start = Clock::now();
  while (seen < o.records && Seconds(start) < 120) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer, 100);
    if (message == nullptr) continue;
    if (!message->err) ++seen;
    rd_kafka_message_destroy(message);
  }
  *rate = static_cast<double>(seen) / Seconds(start);
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  if (seen < o.records) return Fail("Kafka consume: read " + std::to_string(seen) + " records");
  return true;
}

bool Latency(const std::string& bootstrap, const KafkaBenchOptions& o, uint64_t end,
             std::vector<double>* latencies_ms) {
  rd_kafka_t* consumer = Consumer(bootstrap, static_cast<int64_t>(end));
  rd_kafka_t* producer =
      NewHandle(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap}, {"linger.ms", "0"}});
  if (consumer == nullptr || producer == nullptr) return false;
  rd_kafka_topic_t* topic = rd_kafka_topic_new(producer, "kb_kafka", nullptr);
  const auto total = static_cast<uint64_t>(o.latency_rate * o.latency_seconds);
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (latencies_ms->size() < total && !done) {
      rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer, 100);
      if (message == nullptr) continue;
      if (!message->err && message->len > 0) {
        // The value starts {"id":"t","n":<send time in ns since the clock's epoch>,...
        const std::string value(static_cast<const char*>(message->payload), message->len);
        const auto at = value.find("\"n\":");
        const int64_t sent = std::stoll(value.substr(at + 4));
        const int64_t now = Clock::now().time_since_epoch().count();
        latencies_ms->push_back(static_cast<double>(now - sent) / 1e6);
      }
      rd_kafka_message_destroy(message);
    }
  });
  // Let the consumer reach the end before the first record is sent.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const auto start = Clock::now();
  const std::string key = "t";
  const std::string padding(o.record_bytes > 40 ? o.record_bytes - 40 : 1, 'x');
  for (uint64_t i = 0; i < total; ++i) {
    std::this_thread::sleep_until(start + std::chrono::nanoseconds(static_cast<int64_t>(
                                              1e9 * static_cast<double>(i) / o.latency_rate)));
    const std::string value =
        "{\"id\":\"t\",\"n\":" + std::to_string(Clock::now().time_since_epoch().count()) +
        ",\"payload\":\"" + padding + "\"}";
    std::string copy = value;  // librdkafka takes a non-const pointer (and copies: MSG_F_COPY)
    rd_kafka_produce(topic, 0, RD_KAFKA_MSG_F_COPY, copy.data(), copy.size(),
                     const_cast<char*>(key.data()), key.size(), nullptr);
    rd_kafka_poll(producer, 0);
  }
  rd_kafka_flush(producer, 30'000);
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (latencies_ms->size() < total && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  done = true;
  reader.join();
  rd_kafka_topic_destroy(topic);
  rd_kafka_destroy(producer);
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  return latencies_ms->size() == total ||
         Fail("latency: " + std::to_string(latencies_ms->size()) + " of " + std::to_string(total) +
              " records came back");
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1,
                         static_cast<size_t>(p * static_cast<double>(values.size())))];
}

/// Records/s of a throughput phase and the CPU it took.
struct Phase {
  double rate = 0;
  CpuUse cpu;
};

struct HigginsPhases {
  Phase native;
  Phase produce;
  Phase consume;
};

/// b / a, or 0 when a is 0 (a phase that did not run).
double Ratio(double a, double b) {
  return a > 0 ? b / a : 0;
}

/// CPU microseconds per record.
double PerRecordUs(double seconds, uint64_t records) {
  return records > 0 ? seconds * 1e6 / static_cast<double>(records) : 0;
}

void JsonPhase(const char* name, const Phase& p, uint64_t records) {
  std::printf(",\"%s\":%.0f,\"%s_cpu_client_us\":%.3f,\"%s_cpu_server_us\":%.3f", name, p.rate,
              name, PerRecordUs(p.cpu.client, records), name, PerRecordUs(p.cpu.server, records));
}

void TextPhase(const std::string& what, const Phase& p, uint64_t records, const std::string& also) {
  std::printf("%-58s %9.0f records/s%s; CPU per record: client %.2f us, server %.2f us\n",
              what.c_str(), p.rate, also.c_str(), PerRecordUs(p.cpu.client, records),
              PerRecordUs(p.cpu.server, records));
}

std::string Times(const char* of, double ratio) {
  char text[64];
  std::snprintf(text, sizeof(text), " (%.2fx %s)", ratio, of);
  return text;
}

void Report(const KafkaBenchOptions& o, const HigginsPhases& h, const JetStreamRates& js,
            const std::vector<double>& latencies) {
  const double p50 = Percentile(latencies, 0.50), p99 = Percentile(latencies, 0.99);
  const Phase js_produce{js.produce, js.produce_cpu}, js_consume{js.consume, js.consume_cpu};
  if (o.json) {
    std::printf("{\"records\":%llu,\"record_bytes\":%u,\"storage\":\"%s\",\"connections\":%u",
                static_cast<unsigned long long>(o.records), o.record_bytes, o.storage.c_str(),
                o.connections);
    JsonPhase("native_produce", h.native, o.records);
    JsonPhase("kafka_produce", h.produce, o.records);
    JsonPhase("kafka_consume", h.consume, o.records);
    std::printf(",\"produce_ratio\":%.3f,\"latency_ms_p50\":%.3f,\"latency_ms_p99\":%.3f",
                Ratio(h.native.rate, h.produce.rate), p50, p99);
    if (o.jetstream_port != 0) {
      std::printf(",\"jetstream_consumer\":\"%s\",\"jetstream_max_pending\":%u",
                  o.jetstream_consumer.c_str(), o.jetstream_max_pending);
      JsonPhase("jetstream_produce", js_produce, o.records);
      JsonPhase("jetstream_consume", js_consume, o.records);
      std::printf(",\"kafka_jetstream_produce_ratio\":%.3f,\"kafka_jetstream_consume_ratio\":%.3f",
                  Ratio(js.produce, h.produce.rate), Ratio(js.consume, h.consume.rate));
    }
    std::printf("}\n");
    return;
  }
  const std::string n = std::to_string(o.connections);
  std::printf("records: %llu of about %u bytes, %s storage, %u connection(s)\n",
              static_cast<unsigned long long>(o.records), o.record_bytes, o.storage.c_str(),
              o.connections);
  TextPhase("native produce (" + n + " x " + std::to_string(o.in_flight) + " in flight of " +
                std::to_string(o.batch) + ")",
            h.native, o.records, "");
  TextPhase("Kafka produce (" + n + " librdkafka producers, linger 5 ms)", h.produce, o.records,
            Times("native", Ratio(h.native.rate, h.produce.rate)));
  TextPhase("Kafka consume (librdkafka, from offset 0)", h.consume, o.records, "");
  if (o.jetstream_port != 0) {
    TextPhase("JetStream produce (" + n + " connections, " +
                  std::to_string(o.jetstream_max_pending) + " pending each)",
              js_produce, o.records, Times("by Kafka", Ratio(js.produce, h.produce.rate)));
    TextPhase("JetStream consume (" + o.jetstream_consumer + " consumer)", js_consume, o.records,
              Times("by Kafka", Ratio(js.consume, h.consume.rate)));
  }
  std::printf("Kafka produce->consume latency at %.0f/s: p50 %.2f ms, p99 %.2f ms\n",
              o.latency_rate, p50, p99);
}

}  // namespace

std::string KafkaBenchRecord(uint64_t i, const KafkaBenchOptions& o, std::string* key) {
  *key = "k" + std::to_string(i % o.keys);
  std::string out = "{\"id\":\"" + *key + "\",\"n\":" + std::to_string(i) + ",\"payload\":\"";
  const size_t target = o.record_bytes > out.size() + 2 ? o.record_bytes - out.size() - 2 : 1;
  out.append(target, 'x');
  out += "\"}";
  return out;
}

int RunKafkaBench(const KafkaBenchOptions& o) {
  if (o.jetstream_port != 0 && !KafkaJetStreamAvailable()) {
    Fail(
        "--jetstream-port: this higgins-bench was built without libnats (install libnats-dev "
        "and re-run cmake)");
    return 1;
  }
  ServerProcess server;
  const uint16_t kafka_port = FreePort();
  std::vector<std::string> args = o.broker_args;
  args.push_back("--kafka-port=" + std::to_string(kafka_port));
  const std::string binary = o.broker_path.empty() ? DefaultBrokerPath() : o.broker_path;
  if (Status s = StartBroker(&server, binary, args); !s.ok()) {
    Fail(s.ToString());
    return 1;
  }
  ClientOptions client_options;
  client_options.port = server.port();
  auto client = Client::Connect(client_options);  // the control connection: configuration only
  if (!client.ok()) {
    Fail(client.status().ToString());
    return 1;
  }
  const std::string storage = o.storage == "file" ? "[storage.disk]\ntype = \"file\"\n"
                                                  : "[storage.memory]\ntype = \"memory\"\n";
  const std::string config = storage +
                             "[schema.kb]\nid = \"string\"\nn = \"int64\"\npayload = \"string\"\n"
                             "[streams.kb_native]\nschema = \"kb\"\npartition_key = \"id\"\n"
                             "[streams.kb_kafka]\nschema = \"kb\"\npartition_key = \"id\"\n";
  if (Status s = (*client)->UploadConfiguration(config); !s.ok()) {
    Fail(s.ToString());
    return 1;
  }
  const std::string bootstrap = "127.0.0.1:" + std::to_string(kafka_port);
  HigginsPhases h;
  const auto measured = [&](Phase* phase, const auto& run) {
    const CpuMeter meter(server.pid());
    const bool ok = run(&phase->rate);
    phase->cpu = meter.Elapsed();
    return ok;
  };
  std::vector<double> latencies;
  const bool ok =
      measured(&h.native, [&](double* rate) { return NativeProduce(server.port(), o, rate); }) &&
      measured(&h.produce, [&](double* rate) { return KafkaProduce(bootstrap, o, rate); }) &&
      measured(&h.consume, [&](double* rate) { return KafkaConsume(bootstrap, o, rate); }) &&
      Latency(bootstrap, o, o.records, &latencies);
  if (!ok) {
    std::fprintf(stderr, "broker log:\n%s\n", server.Log().c_str());
    return 1;
  }
  // Idle from here on; stopped, the broker cannot take CPU from JetStream.
  client->reset();
  server.Stop();
  JetStreamRates js;
  if (o.jetstream_port != 0) {
    if (Status s = RunKafkaJetStream(o, &js); !s.ok()) {
      Fail(s.ToString());
      return 1;
    }
  }
  Report(o, h, js, latencies);
  return 0;
}

}  // namespace higgins::bench
