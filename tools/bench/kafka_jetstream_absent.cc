// The JetStream baseline of `higgins-bench kafka` when higgins-bench is built without libnats
// (libnats-dev not found at configure time).
#include "kafka_jetstream.h"

namespace higgins::bench {

bool KafkaJetStreamAvailable() {
  return false;
}

Status RunKafkaJetStream(const KafkaBenchOptions& /*o*/, JetStreamRates* /*rates*/) {
  return Status::NotFound(
      "this higgins-bench was built without libnats (install libnats-dev and re-run cmake)");
}

}  // namespace higgins::bench
