#include "server/byte_budget.h"

namespace higgins::server {

ByteBudget::Account::~Account() {
  ReleaseRequest(request_bytes());
  ReleaseReply(reply_bytes());
}

void ByteBudget::Account::AddRequest(size_t bytes) {
  request_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  budget_->request_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void ByteBudget::Account::ReleaseRequest(size_t bytes) {
  request_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  budget_->request_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
}

void ByteBudget::Account::AddReply(size_t bytes) {
  reply_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  budget_->reply_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void ByteBudget::Account::ReleaseReply(size_t bytes) {
  reply_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
  budget_->reply_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
}

bool ByteBudget::Account::OwnRequestsFull(size_t unframed) const {
  // A frame being received counts only beside requests already waiting: alone, it is always
  // read to its end (it is at most the frame limit), or a limit below the frame limit would
  // stop it halfway for good.
  const size_t own = request_bytes();
  return own > 0 && own + unframed >= budget_->limits_.request_bytes_per_connection;
}

bool ByteBudget::Account::RequestsFull(size_t unframed) const {
  return OwnRequestsFull(unframed) ||
         budget_->request_bytes() >= budget_->limits_.request_bytes_total;
}

bool ByteBudget::Account::RepliesFull() const {
  return reply_bytes() >= budget_->limits_.reply_bytes_per_connection ||
         budget_->reply_bytes() >= budget_->limits_.reply_bytes_total;
}

bool ByteBudget::Account::OnlyTotalsFull(size_t unframed) const {
  const bool own_full =
      OwnRequestsFull(unframed) || reply_bytes() >= budget_->limits_.reply_bytes_per_connection;
  return !own_full && budget_->TotalsFull();
}

bool ByteBudget::TotalsFull() const {
  return request_bytes() >= limits_.request_bytes_total ||
         reply_bytes() >= limits_.reply_bytes_total;
}

}  // namespace higgins::server
