#include "common/serial_executor.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace higgins {
namespace {

TEST(SerialExecutorTest, RunsTasksInPostingOrderAndTheDestructorRunsTheQueuedOnes) {
  std::vector<int> order;  // only the executor's thread writes it
  auto executor = std::make_unique<SerialExecutor>();
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(executor->Post([&order, i] { order.push_back(i); }));
  }
  executor.reset();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[static_cast<size_t>(i)], i);
}

}  // namespace
}  // namespace higgins
