// `higgins-cli subscribe`: follows a stream through a subscription, like a tail: takes records
// in batches, prints each delivery, then acknowledges exactly what it printed (nothing with
// --no-ack). `higgins-cli create-subscription` only creates one.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "broker_commands.h"
#include "io.h"
#include "records_printer.h"
#include "report.h"
#include "stop_on_signals.h"
#include "subscription_text.h"

namespace higgins::cli {
namespace {

// How long one wait for a delivery lasts before SIGINT / SIGTERM is looked at again.
constexpr std::chrono::milliseconds kSignalCheck{100};

// What a new subscription is made of: subscribe's and create-subscription's options.
struct CreationOptions {
  std::string stream;
  std::string from = "current";
  uint64_t visibility_timeout_ms = 0;
};

struct SubscribeOptions {
  CreationOptions creation;
  uint64_t count = 0;
  std::string output = "table";
  std::string subscription;
  bool keep = false;
  bool no_ack = false;
  uint64_t batch = 100;
  CLI::Option* count_option = nullptr;
  CLI::Option* subscription_option = nullptr;
};

// The consuming loop of one subscription on one connection.
//
// Demand: the command keeps at most min(--batch, records still wanted) records asked for and
// not yet received (`outstanding_`), topping up with a take once half of it has arrived. Every
// push counts against it (a window counts one), so the broker never pushes more than --count
// wants unless its own demand accounting differs; extra records are simply not printed nor
// acknowledged (they go back to the subscription when the connection closes).
class Consumer {
 public:
  Consumer(Client& client, const SubscribeOptions& o, std::string id, RecordsPrinter& printer)
      : client_(client), o_(o), id_(std::move(id)), printer_(printer) {}

  // Runs until --count records are printed, a signal, or an error.
  Status Run() {
    const bool limited = o_.count_option->count() > 0;
    while (!StopOnSignals::requested() && !(limited && printed_ >= o_.count)) {
      HIGGINS_RETURN_IF_ERROR(TopUp(limited ? o_.count - printed_ : UINT64_MAX));
      HIGGINS_ASSIGN_OR_RETURN(auto delivery, client_.NextDelivery(kSignalCheck));
      if (!delivery) continue;
      HIGGINS_RETURN_IF_ERROR(PrintBurst(*std::move(delivery), limited));
    }
    return Status::OK();
  }

  uint64_t printed() const { return printed_; }
  uint64_t acknowledged() const { return acknowledged_; }

 private:
  Status TopUp(uint64_t wanted) {
    const uint64_t target = std::min(o_.batch, wanted);
    if (outstanding_ > target / 2) return Status::OK();
    const uint64_t n = target - outstanding_;
    if (n == 0) return Status::OK();
    // The demand the reply gives may already count pushes sent before it: not used.
    HIGGINS_RETURN_IF_ERROR(client_.Take(id_, n, o_.creation.stream).status());
    outstanding_ += n;
    return Status::OK();
  }

  // Prints `first` and every delivery already waiting, flushes standard output, then
  // acknowledges what was printed.
  Status PrintBurst(Delivery first, bool limited) {
    std::vector<AckRange> printed;
    std::optional<Delivery> next(std::move(first));
    while (next) {
      if (next->subscription_id == id_) {
        HIGGINS_RETURN_IF_ERROR(PrintOne(next->records, limited, &printed));
      }
      if (limited && printed_ >= o_.count) break;
      HIGGINS_ASSIGN_OR_RETURN(next, client_.NextDelivery(std::chrono::milliseconds(0)));
    }
    HIGGINS_RETURN_IF_ERROR(printer_.Flush());
    if (std::fflush(stdout) != 0) {
      return Status::IOError(std::string("cannot write to standard output: ") +
                             std::strerror(errno));
    }
    if (printed.empty() || o_.no_ack) return Status::OK();
    HIGGINS_RETURN_IF_ERROR(client_.Acknowledge(id_, printed, o_.creation.stream)
                                .WithContext("acknowledging the records printed"));
    acknowledged_ = printed_;
    return Status::OK();
  }

  Status PrintOne(Records& records, bool limited, std::vector<AckRange>* printed) {
    const uint64_t left = limited ? o_.count - printed_ : UINT64_MAX;
    if (records.window) {
      // One window, one record: offset is the window's number.
      outstanding_ -= std::min<uint64_t>(outstanding_, 1);
      if (left == 0) return Status::OK();
      HIGGINS_RETURN_IF_ERROR(printer_.Print(records));
      printed->push_back({records.partition_key, records.offset, records.offset + 1});
      ++printed_;
      return Status::OK();
    }
    const auto rows = static_cast<uint64_t>(records.num_rows());
    outstanding_ -= std::min(outstanding_, rows);
    const uint64_t take = std::min(rows, left);
    if (take == 0) return Status::OK();
    if (take < rows) {
      records.batch = records.batch.Slice(0, static_cast<int64_t>(take));
      if (records.timestamps_ms.size() > take) records.timestamps_ms.resize(take);
    }
    HIGGINS_RETURN_IF_ERROR(printer_.Print(records));
    printed->push_back({records.partition_key, records.offset, records.offset + take});
    printed_ += take;
    return Status::OK();
  }

  Client& client_;
  const SubscribeOptions& o_;
  const std::string id_;
  RecordsPrinter& printer_;
  uint64_t outstanding_ = 0;
  uint64_t printed_ = 0;
  uint64_t acknowledged_ = 0;
};

void Note(const std::string& line) {
  std::fflush(stdout);
  std::cerr << line << "\n";
}

// Creates a subscription as `c` says and notes it on standard error; returns its id.
Result<std::string> CreateNew(Client& client, const CreationOptions& c) {
  HIGGINS_ASSIGN_OR_RETURN(SubscriptionStart start, ParseSubscriptionStart(c.from));
  HIGGINS_ASSIGN_OR_RETURN(
      std::string id, client.CreateSubscription(
                          c.stream, start, std::chrono::milliseconds(c.visibility_timeout_ms)));
  Note("subscription " + id + " created on stream '" + c.stream + "' (from " +
       DescribeStart(start) + ")");
  return id;
}

// The end-of-run line: what was printed and what became of it.
std::string Summary(uint64_t printed, uint64_t acknowledged, bool no_ack) {
  auto records = [](uint64_t n) { return std::to_string(n) + (n == 1 ? " record" : " records"); };
  if (no_ack) return records(printed) + " printed and not acknowledged (--no-ack)";
  std::string summary = records(acknowledged) + " printed and acknowledged";
  if (printed > acknowledged) {
    summary += ", " + std::to_string(printed - acknowledged) + " printed and not acknowledged";
  }
  return summary;
}

Status Run(const BrokerOptions& broker, const SubscribeOptions& o) {
  if (o.output == "arrow" && ::isatty(STDOUT_FILENO) == 1) {
    return Status::InvalidArgument(
        "refusing to write Arrow IPC to a terminal; redirect standard output to a file or a pipe");
  }
  std::unique_ptr<RecordsPrinter> printer = MakePrinter({.output = o.output, .partition = true});
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  const bool create = o.subscription_option->count() == 0;
  std::string id;
  if (!create) {
    // Checks that it exists, and gives the id as deliveries spell it.
    HIGGINS_ASSIGN_OR_RETURN(SubscriptionInfo resumed,
                             client->GetSubscription(o.subscription, o.creation.stream));
    id = resumed.id;
  } else {
    HIGGINS_ASSIGN_OR_RETURN(id, CreateNew(*client, o.creation));
  }
  Status consumed;
  uint64_t printed = 0;
  uint64_t acknowledged = 0;
  {
    StopOnSignals signals;
    Consumer consumer(*client, o, id, *printer);
    consumed = consumer.Run();
    printed = consumer.printed();
    acknowledged = consumer.acknowledged();
  }
  if (consumed.ok()) consumed = printer->Finish();
  std::string summary = Summary(printed, acknowledged, o.no_ack);
  if (create && !o.keep) {
    Status deleted = client->DeleteSubscription(id, o.creation.stream);
    if (consumed.ok() && !deleted.ok())
      consumed = deleted.WithContext("deleting subscription " + id);
    if (deleted.ok()) summary += "; subscription " + id + " deleted";
  } else if (create) {
    summary += "; subscription " + id + " kept (resume with --subscription " + id + ")";
  }
  // A subscription that failed at once (unknown, wrong stream) needs no summary.
  if (consumed.ok() || printed > 0 || create) Note(summary);
  return consumed;
}

// The options that make a new subscription, on `command` (subscribe or create-subscription).
struct CreationFlags {
  CLI::Option* stream;
  CLI::Option* from;
  CLI::Option* timeout;
};

CreationFlags AddCreationOptions(CLI::App* command, CreationOptions* c) {
  CreationFlags flags{};
  flags.stream = command->add_option("-s,--stream", c->stream, "The stream to subscribe to")
                     ->check(NonEmptyName());
  flags.from = command
                   ->add_option("--from", c->from,
                                "Where a new subscription starts in every partition: beginning, "
                                "current (after the records there now), offset:N or time:T (ms "
                                "since the Unix epoch or ISO 8601)")
                   ->check(CLI::Validator(
                       [](std::string& text) {
                         auto parsed = ParseSubscriptionStart(text);
                         return parsed.ok() ? std::string() : parsed.status().message();
                       },
                       "START"))
                   ->capture_default_str();
  flags.timeout =
      command
          ->add_option("--visibility-timeout-ms", c->visibility_timeout_ms,
                       "A new subscription's visibility timeout: records delivered and not "
                       "acknowledged within it are delivered again (default: the broker's, 30 s)")
          ->check(UnsignedInteger())
          ->check(CLI::Range(uint64_t{1}, uint64_t{86'400'000}));
  return flags;
}

Status CreateOnly(const BrokerOptions& broker, const CreationOptions& c) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(std::string id, CreateNew(*client, c));
  return WriteStdout(id + "\n");
}

}  // namespace

void AddSubscribeCommand(CLI::App& app, const BrokerOptions* broker, int* exit_code) {
  auto o = std::make_shared<SubscribeOptions>();
  CLI::App* subscribe = app.add_subcommand(
      "subscribe",
      "Follow a stream through a subscription: print records as they arrive, acknowledging each "
      "once printed (unless --no-ack)");
  const CreationFlags creation = AddCreationOptions(subscribe, &o->creation);
  o->count_option =
      subscribe->add_option("-n,--count", o->count, "Stop after printing this many records")
          ->check(UnsignedInteger())
          ->check(CLI::Validator(
              [](std::string& text) -> std::string {
                const bool zero = text.find_first_not_of('0') == std::string::npos;
                return zero ? "must be at least 1 (got '" + text + "')" : "";
              },
              "N"));
  subscribe->add_option("-o,--output", o->output, "Output format")
      ->check(CLI::IsMember({"table", "json", "ndjson", "arrow"}))
      ->capture_default_str();
  o->subscription_option = subscribe->add_option(
      "--subscription", o->subscription,
      "Resume this subscription (an id printed by an earlier subscribe --keep or "
      "create-subscription) instead of creating one; it is not deleted at the end");
  auto* keep = subscribe->add_flag(
      "--keep", o->keep, "Keep the subscription created (print its id) instead of deleting it");
  subscribe->add_flag("--no-ack", o->no_ack,
                      "Print records without acknowledging them: they are delivered again after "
                      "the visibility timeout, or at once to other consumers when this one ends");
  subscribe->add_option("--batch", o->batch, "Records asked for at a time")
      ->check(UnsignedInteger())
      ->check(CLI::Range(uint64_t{1}, uint64_t{10'000}))
      ->capture_default_str();
  creation.from->excludes(o->subscription_option);
  creation.timeout->excludes(o->subscription_option);
  keep->excludes(o->subscription_option);
  subscribe->callback([broker, o, stream = creation.stream, exit_code] {
    if (o->subscription_option->count() == 0 && stream->count() == 0) {
      throw CLI::ValidationError("--stream", "is required to create a subscription");
    }
    Report(Run(*broker, *o), exit_code);
  });

  auto c = std::make_shared<CreationOptions>();
  CLI::App* create = app.add_subcommand(
      "create-subscription",
      "Create a subscription and print its id (for subscribe --subscription or the client "
      "library)");
  AddCreationOptions(create, c.get()).stream->required();
  create->callback([broker, c, exit_code] { Report(CreateOnly(*broker, *c), exit_code); });
}

}  // namespace higgins::cli
