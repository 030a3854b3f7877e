#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace higgins {

/// Error categories. Codes are stable: they are reported on the wire and in logs.
enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument = 1,   // the caller's input is malformed or violates a schema
  kNotFound = 2,          // a named thing (stream, partition, offset, file) does not exist
  kAlreadyExists = 3,
  kOutOfRange = 4,        // a number does not fit its type, an index is past the end
  kNotSupported = 5,      // well-formed but uses a feature Higgins does not implement
  kCorruption = 6,        // stored or received bytes fail structural checks
  kIOError = 7,           // the operating system reported a failure
  kResourceExhausted = 8, // an explicit limit was reached
  kInternal = 9,          // a bug: an invariant did not hold
  kDeadlineExceeded = 10, // no answer within the caller's time limit (client timeouts)
};

std::string_view StatusCodeName(StatusCode code);

/// The outcome of an operation that returns no value. Cheap to copy when OK (no allocation).
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status OutOfRange(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
  static Status NotSupported(std::string m) { return {StatusCode::kNotSupported, std::move(m)}; }
  static Status Corruption(std::string m) { return {StatusCode::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {StatusCode::kIOError, std::move(m)}; }
  static Status ResourceExhausted(std::string m) {
    return {StatusCode::kResourceExhausted, std::move(m)};
  }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status DeadlineExceeded(std::string m) {
    return {StatusCode::kDeadlineExceeded, std::move(m)};
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  /// "InvalidArgument: message", or "OK".
  std::string ToString() const;

  /// Returns a copy whose message is `context + ": " + message()`. OK stays OK.
  Status WithContext(std::string_view context) const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace higgins

#define HIGGINS_CONCAT_INNER(a, b) a##b
#define HIGGINS_CONCAT(a, b) HIGGINS_CONCAT_INNER(a, b)

/// Evaluates `expr` (a Status); returns it from the enclosing function if it is not OK.
#define HIGGINS_RETURN_IF_ERROR(expr)                     \
  do {                                                    \
    ::higgins::Status higgins_status_ = (expr);           \
    if (!higgins_status_.ok()) return higgins_status_;    \
  } while (false)
