#pragma once

#include <cstdint>
#include <string>

#include "higgins/result.h"
#include "udf/engine.h"

namespace higgins::derived {

/// One derived stream's processor as the DerivedEngine runs it: map and reduce
/// (DerivedStream), join (JoinStream). Step is called by one worker at a time.
class DerivedProcessor {
 public:
  virtual ~DerivedProcessor() = default;
  /// Processes up to `max_calls` units of work (UDF calls, join steps). Returns whether visible
  /// input remains unprocessed. Errors: storage errors (the step is retried after the next
  /// commit to an input, from what was committed).
  virtual Result<bool> Step(udf::Sandbox* sandbox, int max_calls) = 0;
  /// The derived stream's name.
  virtual const std::string& name() const = 0;
  /// Input records processed and failed since start (for logs and metadata).
  virtual uint64_t processed() const = 0;
  virtual uint64_t failed() const = 0;
};

}  // namespace higgins::derived
