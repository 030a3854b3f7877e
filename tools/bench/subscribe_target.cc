#include "subscribe_target.h"

#include <charconv>
#include <chrono>

namespace higgins::bench {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void FormatRecord(const RecordFields& fields, std::string* out) {
  char digits[24];
  out->clear();
  *out += R"({"id":"k)";
  out->append(digits, std::to_chars(digits, digits + sizeof(digits), fields.key).ptr);
  *out += R"(","ts":)";
  out->append(digits, std::to_chars(digits, digits + sizeof(digits), fields.stamp_ns).ptr);
  *out += R"(,"payload":")";
  out->append(fields.payload_bytes, 'x');
  *out += "\"}";
}

int64_t ParseStamp(std::string_view json) {
  constexpr std::string_view kField = R"("ts":)";
  const size_t at = json.find(kField);
  if (at == std::string_view::npos) return -1;
  const char* begin = json.data() + at + kField.size();
  int64_t value = -1;
  const auto [end, ec] = std::from_chars(begin, json.data() + json.size(), value);
  return ec == std::errc() && end != begin ? value : -1;
}

void ErrorLog::Add(std::string text) {
  std::lock_guard lock(mu_);
  if (count_.fetch_add(1) == 0) first_ = std::move(text);
}

std::string ErrorLog::first() const {
  std::lock_guard lock(mu_);
  return first_;
}

bool InFlightLimit::Acquire() {
  std::unique_lock lock(mu_);
  const bool stall = in_flight_ >= limit_;
  if (stall) cv_.wait(lock, [&] { return in_flight_ < limit_; });
  ++in_flight_;
  return stall;
}

void InFlightLimit::Release() {
  bool notify;
  {
    std::lock_guard lock(mu_);
    notify = in_flight_-- == limit_;
  }
  if (notify) cv_.notify_one();
}

}  // namespace higgins::bench
