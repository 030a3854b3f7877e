// The JetStream target when higgins-bench is built without libnats (libnats-dev not found at
// configure time): `higgins-bench subscribe` then measures Higgins alone.
#include "subscribe_target.h"

namespace higgins::bench {

bool JetStreamAvailable() {
  return false;
}

Result<std::unique_ptr<SubscribeTarget>> MakeJetStreamTarget(uint16_t /*port*/,
                                                             const std::string& /*storage*/,
                                                             int /*timeout_ms*/) {
  return Status::NotFound(
      "this higgins-bench was built without libnats (install libnats-dev and re-run cmake)");
}

}  // namespace higgins::bench
