#include "server/produce_coalescer.h"

namespace higgins::server {

void ProduceCoalescer::Add(RequestHandler::QueuedProduce produce) {
  std::lock_guard lock(mu_);
  queue_.push_back(std::move(produce));
  if (scheduled_) return;
  scheduled_ = true;
  asio::post(io_, [self = shared_from_this()] { self->Flush(); });
}

void ProduceCoalescer::Flush() {
  std::vector<RequestHandler::QueuedProduce> batch;
  {
    std::lock_guard lock(mu_);
    batch.swap(queue_);
    scheduled_ = false;
  }
  handler_->HandleProduces(batch);
}

}  // namespace higgins::server
