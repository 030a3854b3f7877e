// higgins-cli: the Higgins command line. `arrow` subcommands work without a broker; broker
// commands arrive with the broker and client issues.
//
// Exit status: 0 on success, 1 when the command failed (the reason is on stderr), 2 for a usage
// error (unknown option, missing argument).
#include <CLI/CLI.hpp>

#include <iostream>
#include <new>

#include "arrow_commands.h"

int main(int argc, char** argv) {
  CLI::App app{"higgins-cli: command line for the Higgins streaming platform", "higgins-cli"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  std::string host = "127.0.0.1";
  int port = 4932;
  app.add_option("--host", host, "Broker host")->capture_default_str();
  app.add_option("--port", port, "Broker port")->capture_default_str();

  int exit_code = 0;
  higgins::cli::AddArrowCommands(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // --help exits 0
  } catch (const std::bad_alloc&) {
    std::cerr << "higgins-cli: ResourceExhausted: out of memory\n";
    return 1;
  }
  return exit_code;
}
