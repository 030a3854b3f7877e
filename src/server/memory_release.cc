#include "server/memory_release.h"

#include <malloc.h>

namespace higgins::server {

void MemoryRelease::Schedule() {
  if (scheduled_.exchange(true)) return;
  asio::post(timer_.get_executor(), [self = shared_from_this()] {
    self->timer_.expires_after(self->delay_);
    self->timer_.async_wait([self](const boost::system::error_code& ec) {
      self->scheduled_ = false;
      if (!ec) ReleaseNow();
    });
  });
}

void MemoryRelease::ReleaseNow() {
  ::malloc_trim(0);
}

}  // namespace higgins::server
