#include "arrow/json/temporal.h"

#include <chrono>

namespace higgins::arrow::json {
namespace {

constexpr int64_t kMinDays = -719'528;   // 0000-01-01
constexpr int64_t kMaxDays = 2'932'896;  // 9999-12-31

int UnitDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 0;
    case TimeUnit::kMilli: return 3;
    case TimeUnit::kMicro: return 6;
    case TimeUnit::kNano: return 9;
  }
  return 0;
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

/// Reads exactly `n` digits at `*pos`, advancing it. Returns -1 when they are not all digits.
int ReadDigits(std::string_view text, size_t* pos, int n) {
  if (*pos + static_cast<size_t>(n) > text.size()) return -1;
  int value = 0;
  for (int i = 0; i < n; ++i) {
    const char c = text[*pos + static_cast<size_t>(i)];
    if (!IsDigit(c)) return -1;
    value = value * 10 + (c - '0');
  }
  *pos += static_cast<size_t>(n);
  return value;
}

bool Expect(std::string_view text, size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

/// "YYYY-MM-DD" at the start of `text` -> days since the epoch.
bool ReadDate(std::string_view text, size_t* pos, int64_t* days) {
  const int year = ReadDigits(text, pos, 4);
  if (year < 0 || !Expect(text, pos, '-')) return false;
  const int month = ReadDigits(text, pos, 2);
  if (month < 0 || !Expect(text, pos, '-')) return false;
  const int day = ReadDigits(text, pos, 2);
  if (day < 0) return false;
  const std::chrono::year_month_day ymd{std::chrono::year{year},
                                        std::chrono::month{static_cast<unsigned>(month)},
                                        std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok()) return false;
  *days = std::chrono::sys_days{ymd}.time_since_epoch().count();
  return true;
}

enum class FractionResult { kOk, kSyntax, kTooPrecise };

/// Reads an optional ".digits" at `*pos` into `unit`s (right-padded with zeros). Digits beyond
/// the unit's precision must be zeros.
FractionResult ReadFraction(std::string_view text, size_t* pos, TimeUnit unit, int64_t* units) {
  *units = 0;
  if (*pos >= text.size() || text[*pos] != '.') return FractionResult::kOk;
  ++*pos;
  const int digits = UnitDigits(unit);
  int count = 0;
  bool too_precise = false;
  while (*pos < text.size() && IsDigit(text[*pos])) {
    if (count < digits) {
      *units = *units * 10 + (text[*pos] - '0');
    } else if (text[*pos] != '0') {
      too_precise = true;
    }
    ++count;
    ++*pos;
  }
  if (count == 0) return FractionResult::kSyntax;
  for (int i = count; i < digits; ++i) *units *= 10;
  return too_precise ? FractionResult::kTooPrecise : FractionResult::kOk;
}

Status TooPrecise(TimeUnit unit) {
  return Status::InvalidArgument("more fractional digits than the unit (" +
                                 std::string(TimeUnitName(unit)) + ") holds");
}

/// A time of day: whole seconds since midnight [0, 86400) and the fraction of the next second in
/// units of the TimeUnit it goes with [0, UnitsPerSecond(unit)).
struct Clock {
  int64_t seconds_of_day = 0;
  int64_t fraction = 0;
};

/// Reads "HH:MM" plus optional ":SS" and fraction into `*clock`; `require_seconds` for times of
/// day.
Status ReadClock(std::string_view text, size_t* pos, TimeUnit unit, bool require_seconds,
                 std::string_view what, Clock* clock) {
  const int hour = ReadDigits(text, pos, 2);
  if (hour < 0 || !Expect(text, pos, ':')) return Status::InvalidArgument(std::string(what));
  const int minute = ReadDigits(text, pos, 2);
  if (minute < 0) return Status::InvalidArgument(std::string(what));
  int second = 0;
  clock->fraction = 0;
  if (*pos < text.size() && text[*pos] == ':') {
    ++*pos;
    second = ReadDigits(text, pos, 2);
    if (second < 0) return Status::InvalidArgument(std::string(what));
    switch (ReadFraction(text, pos, unit, &clock->fraction)) {
      case FractionResult::kOk: break;
      case FractionResult::kSyntax: return Status::InvalidArgument(std::string(what));
      case FractionResult::kTooPrecise: return TooPrecise(unit);
    }
  } else if (require_seconds) {
    return Status::InvalidArgument(std::string(what));
  }
  if (hour > 23 || minute > 59 || second > 59) {
    return Status::InvalidArgument(std::string(what) + ": hour, minute or second out of range");
  }
  clock->seconds_of_day = hour * int64_t{3600} + minute * int64_t{60} + second;
  return Status::OK();
}

/// Reads an optional UTC offset (Z, +HH:MM, +HHMM, +HH) at `*pos` into seconds east of UTC.
bool ReadOffset(std::string_view text, size_t* pos, int64_t* offset_seconds) {
  *offset_seconds = 0;
  if (*pos == text.size()) return true;
  const char sign = text[*pos];
  if (sign == 'Z' || sign == 'z') {
    ++*pos;
    return true;
  }
  if (sign != '+' && sign != '-') return false;
  ++*pos;
  const int hours = ReadDigits(text, pos, 2);
  if (hours < 0 || hours > 23) return false;
  int minutes = 0;
  if (*pos < text.size()) {
    if (text[*pos] == ':') ++*pos;
    minutes = ReadDigits(text, pos, 2);
    if (minutes < 0 || minutes > 59) return false;
  }
  *offset_seconds = (sign == '-' ? -1 : 1) * (hours * int64_t{3600} + minutes * int64_t{60});
  return true;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (value, width) as printf's %0*d
void AppendPadded(int64_t value, int width, std::string* out) {
  char digits[20];
  for (int i = width - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out->append(digits, static_cast<size_t>(width));
}

void AppendClock(const Clock& clock, TimeUnit unit, std::string* out) {
  AppendPadded(clock.seconds_of_day / 3600, 2, out);
  out->push_back(':');
  AppendPadded(clock.seconds_of_day / 60 % 60, 2, out);
  out->push_back(':');
  AppendPadded(clock.seconds_of_day % 60, 2, out);
  if (unit != TimeUnit::kSecond) {
    out->push_back('.');
    AppendPadded(clock.fraction, UnitDigits(unit), out);
  }
}

int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

}  // namespace

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1'000;
    case TimeUnit::kMicro: return 1'000'000;
    case TimeUnit::kNano: return 1'000'000'000;
  }
  return 1;
}

Result<int32_t> ParseDate32(std::string_view text) {
  size_t pos = 0;
  int64_t days = 0;
  if (!ReadDate(text, &pos, &days) || pos != text.size()) {
    return Status::InvalidArgument("not a date (YYYY-MM-DD)");
  }
  return static_cast<int32_t>(days);
}

Result<int64_t> ParseTimestamp(std::string_view text, TimeUnit unit) {
  constexpr std::string_view kWhat = "not an ISO 8601 date-time";
  size_t pos = 0;
  int64_t days = 0;
  if (!ReadDate(text, &pos, &days)) return Status::InvalidArgument(std::string(kWhat));
  int64_t seconds = days * kSecondsPerDay;
  int64_t fraction = 0;
  if (pos < text.size()) {
    const char sep = text[pos];
    if (sep != 'T' && sep != 't' && sep != ' ') return Status::InvalidArgument(std::string(kWhat));
    ++pos;
    Clock clock;
    HIGGINS_RETURN_IF_ERROR(ReadClock(text, &pos, unit, false, kWhat, &clock));
    int64_t offset = 0;
    if (!ReadOffset(text, &pos, &offset) || pos != text.size()) {
      return Status::InvalidArgument(std::string(kWhat));
    }
    seconds += clock.seconds_of_day - offset;
    fraction = clock.fraction;
  }
  // Before the epoch, borrow a second so that the intermediate product cannot overflow when
  // the final value fits (e.g. the earliest nanosecond timestamp).
  if (seconds < 0 && fraction > 0) {
    seconds += 1;
    fraction -= UnitsPerSecond(unit);
  }
  int64_t value = 0;
  if (__builtin_mul_overflow(seconds, UnitsPerSecond(unit), &value) ||
      __builtin_add_overflow(value, fraction, &value)) {
    return Status::OutOfRange("out of range");
  }
  return value;
}

Result<int64_t> ParseTimeOfDay(std::string_view text, TimeUnit unit) {
  constexpr std::string_view kWhat = "not a time of day (HH:MM:SS[.fraction])";
  size_t pos = 0;
  Clock clock;
  HIGGINS_RETURN_IF_ERROR(ReadClock(text, &pos, unit, true, kWhat, &clock));
  if (pos != text.size()) return Status::InvalidArgument(std::string(kWhat));
  return clock.seconds_of_day * UnitsPerSecond(unit) + clock.fraction;
}

bool FormatDate(int64_t days, std::string* out) {
  if (days < kMinDays || days > kMaxDays) return false;
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  AppendPadded(static_cast<int>(ymd.year()), 4, out);
  out->push_back('-');
  AppendPadded(static_cast<unsigned>(ymd.month()), 2, out);
  out->push_back('-');
  AppendPadded(static_cast<unsigned>(ymd.day()), 2, out);
  return true;
}

bool FormatTimestamp(int64_t value, TimeUnit unit, std::string* out) {
  const int64_t per_second = UnitsPerSecond(unit);
  int64_t seconds = value / per_second;
  int64_t fraction = value % per_second;
  if (fraction < 0) {
    fraction += per_second;
    --seconds;
  }
  const int64_t days = FloorDiv(seconds, kSecondsPerDay);
  if (!FormatDate(days, out)) return false;
  out->push_back('T');
  AppendClock({.seconds_of_day = seconds - days * kSecondsPerDay, .fraction = fraction}, unit, out);
  out->push_back('Z');
  return true;
}

bool FormatTimeOfDay(int64_t value, TimeUnit unit, std::string* out) {
  const int64_t per_second = UnitsPerSecond(unit);
  if (value < 0 || value >= kSecondsPerDay * per_second) return false;
  AppendClock({.seconds_of_day = value / per_second, .fraction = value % per_second}, unit, out);
  return true;
}

}  // namespace higgins::arrow::json
