#include "broker_commands.h"

#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include "io.h"
#include "report.h"

namespace higgins::cli {
namespace {

// Configurations and modules travel in one request, so more than that cannot be sent.
constexpr size_t kMaxRequestBytes = size_t{64} << 20;
const char kRequestLimit[] =
    "the largest request (67108864 bytes, --max-frame-bytes of the broker)";

Status Ping(const BrokerOptions& broker) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(std::chrono::microseconds rtt, client->Ping());
  char ms[32];
  std::snprintf(ms, sizeof(ms), "%.2f", static_cast<double>(rtt.count()) / 1000.0);
  return WriteStdout("PONG from " + client->address() + " in " + ms + " ms\n");
}

Status CreateConfiguration(const BrokerOptions& broker, const std::string& path) {
  HIGGINS_ASSIGN_OR_RETURN(Buffer toml, ReadAll(path, kMaxRequestBytes, kRequestLimit));
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(std::vector<CatchUp> catch_ups, client->ApplyConfiguration(toml.view()));
  std::string out = "configuration applied\n";
  for (const CatchUp& c : catch_ups) {
    if (c.records == 0) continue;
    out += "stream '" + c.stream + "' started catching up on " + std::to_string(c.records) +
           (c.records == 1 ? " record" : " records") +
           " already in its inputs (its lag: higgins-cli streams " + c.stream + ")\n";
  }
  return WriteStdout(out);
}

Status DeleteConfiguration(const BrokerOptions& broker, const std::string& key) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_RETURN_IF_ERROR(client->DeleteConfiguration(key));
  return WriteStdout("deleted " + key + "\n");
}

Status GetTopography(const BrokerOptions& broker) {
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(std::string toml, client->GetTopography());
  if (!toml.empty() && toml.back() != '\n') toml += '\n';
  return WriteStdout(toml);
}

/// upload-module's options: the module's name and the file holding it ('-': standard input).
struct ModuleUpload {
  std::string name;
  std::string file;
};

Status UploadModule(const BrokerOptions& broker, const ModuleUpload& upload) {
  const std::string& name = upload.name;
  HIGGINS_ASSIGN_OR_RETURN(Buffer wasm, ReadAll(upload.file, kMaxRequestBytes, kRequestLimit));
  HIGGINS_ASSIGN_OR_RETURN(auto client, ConnectToBroker(broker));
  HIGGINS_ASSIGN_OR_RETURN(uint64_t version, client->UploadModule(name, wasm.span()));
  return WriteStdout("module " + name + " version " + std::to_string(version) + " uploaded (" +
                     std::to_string(wasm.size()) + " bytes)\n");
}

}  // namespace

CLI::Validator UnsignedInteger() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::string quoted = "(got '" + text + "')";
        if (text.starts_with('-') && text.size() > 1 &&
            text.find_first_not_of("0123456789", 1) == std::string::npos) {
          return "must not be negative " + quoted;
        }
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          return "not a number: expected an integer " + quoted;
        }
        uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size()) {
          return "too large: at most 18446744073709551615 " + quoted;
        }
        return "";
      },
      "UINT");
}

CLI::Validator NonEmptyName() {
  return CLI::Validator(
      [](std::string& text) -> std::string { return text.empty() ? "must not be empty" : ""; },
      "NAME");
}

void AddBrokerCommands(CLI::App& app, const BrokerOptions* broker, int* exit_code) {
  CLI::App* ping = app.add_subcommand("ping", "Check that a broker answers; print the round trip");
  ping->callback([broker, exit_code] { Report(Ping(*broker), exit_code); });

  auto file = std::make_shared<std::string>();
  CLI::App* create = app.add_subcommand(
      "create-configuration",
      "Merge a TOML configuration (storages, schemas, streams) into the broker's topography");
  create->add_option("-f,--file", *file, "TOML configuration; '-' reads standard input")
      ->required();
  create->callback(
      [broker, file, exit_code] { Report(CreateConfiguration(*broker, *file), exit_code); });

  auto key = std::make_shared<std::string>();
  CLI::App* remove = app.add_subcommand("delete-configuration",
                                        "Delete a declaration from the broker's topography");
  remove
      ->add_option("KEY", *key,
                   "streams.<name>, schema.<name> or storage.<name>; a bare name is a stream")
      ->required()
      ->check(NonEmptyName());
  remove->callback(
      [broker, key, exit_code] { Report(DeleteConfiguration(*broker, *key), exit_code); });

  CLI::App* topography = app.add_subcommand(
      "get-topography", "Print the broker's topography (every declaration) as TOML");
  topography->callback([broker, exit_code] { Report(GetTopography(*broker), exit_code); });

  auto upload = std::make_shared<ModuleUpload>();
  CLI::App* module = app.add_subcommand(
      "upload-module", "Upload a WebAssembly module, the `fn` of map and reduce streams");
  module->add_option("--name", upload->name, "Name the streams' `fn` refers to")
      ->required()
      ->check(NonEmptyName());
  module->add_option("-f,--file", upload->file, "The module (.wasm); '-' reads standard input")
      ->required();
  module->callback(
      [broker, upload, exit_code] { Report(UploadModule(*broker, *upload), exit_code); });

  AddStreamsCommand(app, broker, exit_code);
  AddProduceCommand(app, broker, exit_code);
  AddQueryCommand(app, broker, exit_code);
  AddSubscribeCommand(app, broker, exit_code);
  AddSubscriptionCommands(app, broker, exit_code);
}

}  // namespace higgins::cli
