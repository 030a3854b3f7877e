#include "stream/window_view.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "common/quote.h"

namespace higgins::stream {
namespace {

using Type = config::WindowSpec::Type;

uint64_t SlideOf(const config::WindowSpec& spec) {
  return spec.slide != 0 ? spec.slide : spec.interval;
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

/// Where the time windows of one partition lie: window w starts at start0 + w·S; `latest` is
/// the number of the last window. `first_ms` and `last_ms` are the partition's first and newest
/// timestamps, at or after the epoch.
struct TimeLayout {
  uint64_t start0 = 0;
  uint64_t latest = 0;
};

// (first, last): an ordered pair of timestamps.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
TimeLayout LayoutOf(const config::WindowSpec& spec, uint64_t first_ms, uint64_t last_ms) {
  const uint64_t interval = spec.interval;
  const uint64_t slide = SlideOf(spec);
  TimeLayout layout;
  // The smallest multiple of S above first − I: the earliest-starting window holding the first.
  layout.start0 = first_ms < interval ? 0 : ((first_ms - interval) / slide + 1) * slide;
  // The latest start at or before last is (last / S)·S, and it is at or after start0 since S ≤ I.
  layout.latest = ((last_ms / slide) * slide - layout.start0) / slide;
  return layout;
}

Status NoSuchWindow(std::string_view key, uint64_t window, uint64_t latest) {
  return Status::NotFound("window " + std::to_string(window) + " of partition " + Quote(key) +
                          " does not exist yet (the latest is " + std::to_string(latest) + ")");
}

Status NoRecords(std::string_view key) {
  return Status::NotFound("partition " + Quote(key) + " has no records");
}

/// The first offset of `key` whose timestamp is at or after `timestamp_ms`, or `count` when
/// there is none below `count`.
// A timestamp (ms) and the record count returned when no record is at or after it; the
// names and the unit suffix tell them apart.
// NOLINTNEXTLINE(bugprone-easily-swappable-parameters)
uint64_t OffsetAtOrAfter(const StreamIndex& index, std::string_view key, uint64_t timestamp_ms,
                         uint64_t count) {
  if (timestamp_ms > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return count;
  auto offset = index.FirstAtOrAfter(key, static_cast<int64_t>(timestamp_ms));
  return offset.ok() ? std::min(*offset, count) : count;
}

/// The records at offsets [from, to) of `key`, or an empty batch of the base's schema.
Result<QueryRows> Members(const StreamLog& base, std::string_view key, uint64_t window,
                          uint64_t from, uint64_t to, uint64_t max_records) {
  if (to - from > max_records) {
    return Status::ResourceExhausted(
        "window " + std::to_string(window) + " of partition " + Quote(key) + " holds " +
        std::to_string(to - from) + " records, more than the limit of " +
        std::to_string(max_records) + " per query (--max-range-records)");
  }
  if (to > from) return base.Range(key, from, to, to - from);
  QueryRows empty;
  empty.first_offset = from;
  std::vector<arrow::Array> columns;
  for (const arrow::Field& field : base.schema()->fields()) {
    columns.push_back(arrow::ArrayBuilder(field.type).Finish());
  }
  HIGGINS_ASSIGN_OR_RETURN(empty.batch,
                           arrow::RecordBatch::Make(base.schema(), 0, std::move(columns)));
  return empty;
}

Result<WindowRows> CountWindow(const StreamLog& base, const config::WindowSpec& spec,
                               std::string_view key, std::optional<uint64_t> window,
                               uint64_t max_records) {
  const uint64_t count = base.index().Count(key);
  if (count == 0) return NoRecords(key);
  const uint64_t slide = SlideOf(spec);
  const uint64_t latest = (count - 1) / slide;
  WindowRows out;
  out.window = window.value_or(latest);
  if (out.window > latest) return NoSuchWindow(key, out.window, latest);
  out.start = out.window * slide;
  out.end = SaturatingAdd(out.start, spec.interval);
  out.closed = count >= out.end;
  HIGGINS_ASSIGN_OR_RETURN(out.members, Members(base, key, out.window, out.start,
                                                std::min(count, out.end), max_records));
  return out;
}

Result<WindowRows> TimeWindow(StreamLog& base, const config::WindowSpec& spec, std::string_view key,
                              std::optional<uint64_t> window, std::optional<int64_t> now_ms,
                              uint64_t max_records) {
  // Sealed before the partition is read: every record timestamped before `sealed` is visible
  // by then, so the snapshot below holds them all.
  const int64_t sealed_ms = now_ms ? base.SealBefore(*now_ms) : int64_t{-1};
  const StreamIndex& index = base.index();
  const uint64_t count = index.Count(key);
  if (count == 0) return NoRecords(key);
  HIGGINS_ASSIGN_OR_RETURN(RowRef first, index.At(key, 0));
  HIGGINS_ASSIGN_OR_RETURN(RowRef last, index.At(key, count - 1));
  if (first.entry.timestamp_ms < 0) {
    return Status::OutOfRange("partition " + Quote(key) +
                              " holds records timestamped before the Unix epoch; time windows "
                              "start at the epoch");
  }
  const auto first_ms = static_cast<uint64_t>(first.entry.timestamp_ms);
  const auto last_ms = static_cast<uint64_t>(last.entry.timestamp_ms);
  const TimeLayout layout = LayoutOf(spec, first_ms, last_ms);
  WindowRows out;
  out.by_time = true;
  out.window = window.value_or(layout.latest);
  if (out.window > layout.latest) return NoSuchWindow(key, out.window, layout.latest);
  out.start = layout.start0 + out.window * SlideOf(spec);
  out.end = SaturatingAdd(out.start, spec.interval);
  out.closed =
      last_ms >= out.end || (sealed_ms >= 0 && static_cast<uint64_t>(sealed_ms) >= out.end);
  const uint64_t from = OffsetAtOrAfter(index, key, out.start, count);
  const uint64_t to = OffsetAtOrAfter(index, key, out.end, count);
  HIGGINS_ASSIGN_OR_RETURN(out.members,
                           Members(base, key, out.window, from, std::max(from, to), max_records));
  return out;
}

}  // namespace

Result<WindowRows> QueryWindow(StreamLog& base, const config::WindowSpec& spec,
                               std::string_view key, std::optional<uint64_t> window,
                               std::optional<int64_t> now_ms, uint64_t max_records) {
  HIGGINS_RETURN_IF_ERROR(base.CheckKey(key));
  if (spec.interval == 0) return Status::Internal("a window of interval 0");
  if (spec.type == Type::kCount) return CountWindow(base, spec, key, window, max_records);
  return TimeWindow(base, spec, key, window, now_ms, max_records);
}

uint64_t WindowCount(const StreamLog& base, const config::WindowSpec& spec, std::string_view key) {
  const StreamIndex& index = base.index();
  const uint64_t count = index.Count(key);
  if (count == 0 || spec.interval == 0) return 0;
  if (spec.type == Type::kCount) return (count - 1) / SlideOf(spec) + 1;
  auto first = index.At(key, 0);
  auto last = index.At(key, count - 1);
  if (!first.ok() || !last.ok()) return 0;
  const auto ms = [](int64_t t) { return static_cast<uint64_t>(std::max<int64_t>(t, 0)); };
  return LayoutOf(spec, ms(first->entry.timestamp_ms), ms(last->entry.timestamp_ms)).latest + 1;
}

}  // namespace higgins::stream
