#pragma once

#include <cstdint>
#include <span>

#include "stream/stream_log.h"

namespace higgins::derived {

/// Records of a derived stream's inputs that it has not derived yet: its lag, shown by the
/// streams listing, and when the stream is new, its catch-up (docs/configuration.md, "Derived
/// streams catch up").
///
/// Map and reduce streams derive one record per base record (at the same partition key and
/// offset, a failed record included: DerivedStream), and a join stream one record per record of
/// any participant (JoinStream), so the lag is the inputs' visible records minus the derived
/// stream's. `inputs` are the base for map and reduce, the participants without repeats for a
/// join. The derived count is read first: progress made while counting can only make the result
/// larger than the true lag at the end, never negative.
///
/// Cost: one pass over the partitions of each stream (StreamIndex::Partitions). Thread-safety:
/// any thread (it only reads indexes).
uint64_t DerivedLag(const stream::StreamLog& derived,
                    std::span<const stream::StreamLog* const> inputs);

}  // namespace higgins::derived
