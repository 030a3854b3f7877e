#include "client/delivery_queue.h"

#include <gtest/gtest.h>

#include <thread>

namespace higgins::client_internal {
namespace {

using std::chrono::milliseconds;

PushedRecord At(uint64_t offset) {
  PushedRecord pushed;
  pushed.subscription_id = "id";
  pushed.record.set_offset(offset);
  return pushed;
}

TEST(DeliveryQueueTest, RecordsComeOutInArrivalOrder) {
  DeliveryQueue queue;
  queue.Push(At(1));
  queue.Push(At(2));
  EXPECT_EQ(queue.size(), 2u);
  auto first = queue.Pop(milliseconds(0));
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->record.offset(), 1u);
  auto second = queue.Pop(milliseconds(0));
  ASSERT_TRUE(second.ok() && second->has_value());
  EXPECT_EQ((*second)->record.offset(), 2u);
}

TEST(DeliveryQueueTest, EmptyQueueTimesOutWithNothing) {
  DeliveryQueue queue;
  auto none = queue.Pop(milliseconds(0));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  const auto start = std::chrono::steady_clock::now();
  none = queue.Pop(milliseconds(20));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(20));
}

TEST(DeliveryQueueTest, WaitingPopWakesOnPush) {
  DeliveryQueue queue;
  std::thread pusher([&] {
    std::this_thread::sleep_for(milliseconds(10));
    queue.Push(At(7));
  });
  auto got = queue.Pop(std::chrono::hours(24 * 400));  // no limit
  pusher.join();
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->record.offset(), 7u);
}

TEST(DeliveryQueueTest, ClosedQueueHandsOutWhatItHoldsThenTheReason) {
  DeliveryQueue queue;
  queue.Push(At(1));
  queue.Close(Status::IOError("gone"));
  queue.Push(At(2));                                 // after the close: dropped
  queue.Close(Status::Corruption("second reason"));  // the first reason stays
  auto first = queue.Pop(milliseconds(1000));
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->record.offset(), 1u);
  EXPECT_EQ(queue.Pop(milliseconds(1000)).status(), Status::IOError("gone"));
  EXPECT_EQ(queue.Pop(milliseconds(0)).status(), Status::IOError("gone"));
}

TEST(DeliveryQueueTest, CloseWakesAWaitingPop) {
  DeliveryQueue queue;
  std::thread closer([&] {
    std::this_thread::sleep_for(milliseconds(10));
    queue.Close(Status::IOError("gone"));
  });
  auto got = queue.Pop(std::chrono::hours(1));
  closer.join();
  EXPECT_EQ(got.status(), Status::IOError("gone"));
}

}  // namespace
}  // namespace higgins::client_internal
