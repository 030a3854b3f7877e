#pragma once

#include <CLI/CLI.hpp>

namespace higgins::cli {

/// Registers `arrow cat` and `arrow convert` under `app`. They work without a broker. Each
/// subcommand's callback sets `*exit_code` (0 on success, 1 with a message on stderr otherwise).
void AddArrowCommands(CLI::App& app, int* exit_code);

}  // namespace higgins::cli
