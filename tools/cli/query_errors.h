#pragma once

// How `query` reports what the broker answered: in the CLI's words, and with the exit status of
// a query that found nothing told apart from a failure. Pure.

#include <string_view>

#include "higgins/status.h"

namespace higgins::cli {

/// The exit status of a query that found nothing (docs/cli.md, "Exit status and errors").
inline constexpr int kExitFoundNothing = 3;

/// `status` with the protocol's names of query kinds replaced by the options that ask for them:
/// OFFSET by --offset, LATEST by --latest, RANGE by --from, TIMESTAMP by --at-time (whole
/// upper-case words only). Other statuses, and OK, are returned as they are.
Status InCliWords(Status status);

/// Whether `status` says that stream `stream` exists but holds nothing where the query looked
/// (a partition without records, an offset, time or window past the end): NotFound naming the
/// stream as `stream 'S': ...`. An unknown stream (`stream 'S' does not exist`) is a failure.
bool FoundNothing(const Status& status, std::string_view stream);

}  // namespace higgins::cli
