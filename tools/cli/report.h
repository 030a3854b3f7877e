#pragma once

#include "higgins/status.h"

namespace higgins::cli {

/// Ends a command: flushes standard output and sets `*exit_code` to 0, or, when `status` (or the
/// flush) failed, prints every line of its message to stderr as `higgins-cli: <Code>: <line>` and
/// sets `*exit_code` to 1.
void Report(Status status, int* exit_code);

}  // namespace higgins::cli
