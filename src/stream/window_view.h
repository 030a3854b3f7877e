#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "config/configuration.h"
#include "higgins/result.h"
#include "stream/stream_log.h"

namespace higgins::stream {

/// Window streams (docs/architecture.md, "Derived streams", docs/configuration.md "Window streams")
/// are views: nothing is stored for them. Each window of partition k is computed from the base
/// stream's index when it is asked for, so it is exact after a crash (the base is durable) and a
/// produce to the base is visible in its window as soon as the produce is acknowledged.
///
/// Notation: I = spec.interval, S = spec.slide, or I when slide is 0 (tumbling windows).
///
/// Count windows (I, S in records): with n records in partition k, window w holds the base
/// records at offsets [w·S, min(n, w·S + I)); it exists while w·S < n, and is closed once
/// n ≥ w·S + I. The latest window is (n − 1) / S.
///
/// Time windows (I, S in ms): window starts are multiples of S since the Unix epoch and a window
/// covers the commit timestamps [start, start + I). Window 0 of k is the earliest-starting one
/// holding k's first record (start0 = the smallest multiple of S above t_first − I, and at least
/// 0); window w starts at start0 + w·S; the latest is the one starting at (t_last / S)·S, the
/// latest-starting window holding k's newest record. Windows in between may hold no record. A
/// window is closed once no record can still fall in it: k holds a record at or after its end,
/// or (when the base's timestamps come from the broker's clock) that clock has passed its end
/// and no commit with an earlier timestamp is still on its way (StreamLog::SealBefore).

/// One window of one partition.
struct WindowRows {
  /// The member records, consecutive base offsets from members.first_offset, with their
  /// timestamps; the batch has the base stream's schema. It may have no rows (a time window in a
  /// gap): first_offset is then the offset of the first base record after the window.
  QueryRows members;
  uint64_t window = 0;   // the window's number w, its "offset" in the window stream
  bool closed = false;   // no record will ever join or leave it
  bool by_time = false;  // a time window (else a count window)
  /// Count windows: base offsets [start, end) (the end of an open window is where it will end,
  /// possibly beyond the partition's end). Time windows: timestamps [start, end) in ms since the
  /// Unix epoch.
  uint64_t start = 0;
  uint64_t end = 0;
};

/// Window `window` (nullopt: the latest) of partition `key` of the window over `base`.
///
/// `now_ms`: the broker's clock, for time windows over a base whose commit timestamps come from
/// that clock (source streams): the clock then closes windows, and this call seals `base`
/// before it (StreamLog::SealBefore, so commits after it get later timestamps). nullopt for a
/// base of derived records (which copy their inputs' timestamps): a time window then closes only
/// when k holds a record at or after its end. Unused for count windows.
///
/// Errors: InvalidArgument for a key the base's key type cannot hold; NotFound "partition 'k'
/// has no records" and "window W of partition 'k' does not exist yet (the latest is L)";
/// ResourceExhausted "window W of partition 'k' holds N records, more than the limit of M per
/// query" when it has more than `max_records` members; OutOfRange for a time window over records
/// timestamped before the Unix epoch; those of reading the base.
Result<WindowRows> QueryWindow(StreamLog& base, const config::WindowSpec& spec,
                               std::string_view key, std::optional<uint64_t> window,
                               std::optional<int64_t> now_ms, uint64_t max_records);

/// The number of windows of partition `key` (latest window + 1), 0 when it has no records; from
/// the index alone (no I/O). Records before the Unix epoch count as at the epoch.
uint64_t WindowCount(const StreamLog& base, const config::WindowSpec& spec, std::string_view key);

}  // namespace higgins::stream
