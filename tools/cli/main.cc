// higgins-cli: the Higgins command line. `arrow` subcommands work without a broker; broker
// commands arrive with the broker and client issues.
#include <CLI/CLI.hpp>

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
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
