// higgins-cli: the Higgins command line. `arrow` subcommands work without a broker; the others
// talk to the broker at --host:--port through the client library (include/higgins/client.h).
//
// Exit status: 0 on success, 1 when the command failed (the reason is on stderr as
// `higgins-cli: <Code>: <message>`), 2 for a usage error (unknown option, missing or invalid
// argument).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include "arrow_commands.h"
#include "broker_commands.h"

namespace {

int Main(int argc, char** argv) {
  CLI::App app{"higgins-cli: command line for the Higgins streaming platform", "higgins-cli"};
  app.require_subcommand(1);
  app.fallthrough();  // the global options may also follow the command
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  higgins::cli::BrokerOptions broker;
  app.add_option("--host", broker.host, "Broker host: a name, an IPv4 or IPv6 address ([::1] too)")
      ->envname("HIGGINS_HOST")
      ->transform(CLI::Validator(
          [](std::string& text) -> std::string {
            if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
              text = text.substr(1, text.size() - 2);  // a bracketed IPv6 address
            }
            if (text.empty()) return "must not be empty";
            if (text.find_first_of("[]") != std::string::npos) {
              return "'" + text + "' is not a host name or address";
            }
            if (std::count(text.begin(), text.end(), ':') == 1) {
              return "'" + text + "' includes a port; give the host alone and the port with --port";
            }
            return "";
          },
          "HOST"))
      ->capture_default_str();
  app.add_option("--port", broker.port, "Broker port")
      ->envname("HIGGINS_PORT")
      ->check(higgins::cli::UnsignedInteger())
      ->check(CLI::Range(1, 65535))
      ->capture_default_str();
  app.add_option("--timeout", broker.timeout_seconds,
                 "Seconds allowed to connect and for each reply (default: 5 to connect, 30 per "
                 "reply)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            char* end = nullptr;
            const double seconds = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !(seconds >= 0.001 && seconds <= 86400)) {
              return "must be a number of seconds from 0.001 to 86400 (got '" + text + "')";
            }
            return "";
          },
          "SECONDS"));

  int exit_code = 0;
  higgins::cli::AddArrowCommands(app, &exit_code);
  higgins::cli::AddBrokerCommands(app, &broker, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& e) {
    // CLI11 reports a mistyped command as a missing one; name it instead.
    const std::vector<std::string> rest = app.remaining();
    if (app.get_subcommands().empty() && !rest.empty() && !rest.front().starts_with("-")) {
      std::cerr << "unknown command: " << rest.front()
                << "\nRun with --help or --help-all for more information.\n";
      return 2;
    }
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help exits 0
  } catch (const std::bad_alloc&) {
    std::cerr << "higgins-cli: ResourceExhausted: out of memory\n";
    return 1;
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  // An exception no command handled (a bug) fails the command with its reason rather than
  // aborting through std::terminate (which would not be the documented exit status 1).
  try {
    return Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "higgins-cli: ResourceExhausted: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "higgins-cli: Internal: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "higgins-cli: Internal: unknown exception\n";
  }
  return 1;
}
