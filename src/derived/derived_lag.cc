#include "derived/derived_lag.h"

namespace higgins::derived {
namespace {

uint64_t VisibleRecords(const stream::StreamLog& stream) {
  return stream.index().Partitions(0).records;
}

}  // namespace

uint64_t DerivedLag(const stream::StreamLog& derived,
                    std::span<const stream::StreamLog* const> inputs) {
  const uint64_t done = VisibleRecords(derived);
  uint64_t held = 0;
  for (const stream::StreamLog* input : inputs) held += VisibleRecords(*input);
  return held > done ? held - done : 0;
}

}  // namespace higgins::derived
