#include "stream/window_view.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace higgins::stream {
namespace {

using config::WindowSpec;
using Type = config::WindowSpec::Type;

/// A base stream `amount` {id: utf8, data: int32} on memory storage, with records committed at
/// chosen timestamps.
class WindowViewTest : public testing::Test {
 protected:
  void SetUp() override {
    storage_ = storage::MakeMemoryStorage();
    StreamLog::Options o;
    o.name = "amount";
    o.id = StreamId(1);
    o.schema = arrow::MakeSchema({arrow::Field("id", arrow::DataType::Utf8(), false),
                                  arrow::Field("data", arrow::DataType::Int32())});
    o.partition_key = "id";
    o.storage = storage_.get();
    o.sync = false;
    auto log = StreamLog::Open(std::move(o));
    ASSERT_TRUE(log.ok()) << log.status().ToString();
    log_ = *std::move(log);
  }

  PreparedProduce Prepare(const std::string& key, int32_t data) {
    auto prepared = log_->Prepare(R"({"id":")" + key + R"(","data":)" + std::to_string(data) + "}",
                                  PayloadFormat::kJson);
    EXPECT_TRUE(prepared.ok()) << prepared.status().ToString();
    return *std::move(prepared);
  }

  /// Commits {"id": key, "data": data} at `timestamp_ms`; returns its commit timestamp.
  int64_t Put(const std::string& key, int32_t data, int64_t timestamp_ms = 1000) {
    PreparedProduce prepared = Prepare(key, data);
    auto committed = log_->CommitNow(prepared, timestamp_ms);
    EXPECT_TRUE(committed.ok()) << committed.status().ToString();
    return committed.ok() ? committed->timestamp_ms : -1;
  }

  /// Records 1..n on key "a".
  void PutOneTo(int32_t n) {
    for (int32_t i = 1; i <= n; ++i) Put("a", i, 1000 + i);
  }

  Result<WindowRows> Window(const WindowSpec& spec, std::optional<uint64_t> window,
                            std::optional<int64_t> now_ms = std::nullopt,
                            std::string_view key = "a", uint64_t max_records = 100) {
    return QueryWindow(*log_, spec, key, window, now_ms, max_records);
  }

  std::unique_ptr<storage::Storage> storage_;
  std::unique_ptr<StreamLog> log_;
};

/// `data` of the members.
std::vector<int32_t> Data(const WindowRows& w) {
  std::vector<int32_t> out;
  for (int64_t r = 0; r < w.members.batch.num_rows(); ++r) {
    out.push_back(w.members.batch.column(1).Value<int32_t>(r));
  }
  return out;
}

/// The window's shape as one comparable value: number, closed, bounds, first member offset.
struct Shape {
  uint64_t window;
  bool closed;
  uint64_t start;
  uint64_t end;
  uint64_t first_offset;
  std::vector<int32_t> data;
  friend bool operator==(const Shape&, const Shape&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Shape& s) {
    os << "{window " << s.window << (s.closed ? " closed" : " open") << " [" << s.start << ", "
       << s.end << ") from offset " << s.first_offset << ": ";
    for (int32_t d : s.data) os << d << " ";
    return os << "}";
  }
};

Shape ShapeOf(const Result<WindowRows>& w) {
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  if (!w.ok()) return {};
  EXPECT_EQ(w->members.timestamps_ms.size(), static_cast<size_t>(w->members.batch.num_rows()));
  return {w->window, w->closed, w->start, w->end, w->members.first_offset, Data(*w)};
}

constexpr WindowSpec kCount5{Type::kCount, 5, 0};

TEST_F(WindowViewTest, NineRecordsIntervalFiveGiveAClosedWindowOfFiveAndAnOpenOneOfFour) {
  PutOneTo(9);
  EXPECT_EQ(ShapeOf(Window(kCount5, std::nullopt)), (Shape{1, false, 5, 10, 5, {6, 7, 8, 9}}));
  EXPECT_EQ(ShapeOf(Window(kCount5, 1)), (Shape{1, false, 5, 10, 5, {6, 7, 8, 9}}));
  EXPECT_EQ(ShapeOf(Window(kCount5, 0)), (Shape{0, true, 0, 5, 0, {1, 2, 3, 4, 5}}));
  EXPECT_EQ(Window(kCount5, 0)->members.timestamps_ms,
            (std::vector<int64_t>{1001, 1002, 1003, 1004, 1005}));
  EXPECT_EQ(Window(kCount5, 1)->members.timestamps_ms,
            (std::vector<int64_t>{1006, 1007, 1008, 1009}));
  EXPECT_EQ(WindowCount(*log_, kCount5, "a"), 2u);

  Put("a", 10);  // fills window 1
  EXPECT_EQ(ShapeOf(Window(kCount5, std::nullopt)), (Shape{1, true, 5, 10, 5, {6, 7, 8, 9, 10}}));
  Put("a", 11);  // opens window 2
  EXPECT_EQ(ShapeOf(Window(kCount5, std::nullopt)), (Shape{2, false, 10, 15, 10, {11}}));
  EXPECT_EQ(WindowCount(*log_, kCount5, "a"), 3u);
}

TEST_F(WindowViewTest, IntervalOneIsOneClosedWindowPerRecord) {
  PutOneTo(3);
  const WindowSpec one{Type::kCount, 1, 0};
  EXPECT_EQ(ShapeOf(Window(one, std::nullopt)), (Shape{2, true, 2, 3, 2, {3}}));
  EXPECT_EQ(ShapeOf(Window(one, 0)), (Shape{0, true, 0, 1, 0, {1}}));
  EXPECT_EQ(ShapeOf(Window(one, 1)), (Shape{1, true, 1, 2, 1, {2}}));
  EXPECT_EQ(WindowCount(*log_, one, "a"), 3u);
}

TEST_F(WindowViewTest, SlidingIntervalFiveSlideTwo) {
  PutOneTo(9);
  const WindowSpec sliding{Type::kCount, 5, 2};
  EXPECT_EQ(ShapeOf(Window(sliding, 0)), (Shape{0, true, 0, 5, 0, {1, 2, 3, 4, 5}}));
  EXPECT_EQ(ShapeOf(Window(sliding, 1)), (Shape{1, true, 2, 7, 2, {3, 4, 5, 6, 7}}));
  EXPECT_EQ(ShapeOf(Window(sliding, 2)), (Shape{2, true, 4, 9, 4, {5, 6, 7, 8, 9}}));
  EXPECT_EQ(ShapeOf(Window(sliding, 3)), (Shape{3, false, 6, 11, 6, {7, 8, 9}}));
  EXPECT_EQ(ShapeOf(Window(sliding, 4)), (Shape{4, false, 8, 13, 8, {9}}));
  EXPECT_EQ(ShapeOf(Window(sliding, std::nullopt)), (Shape{4, false, 8, 13, 8, {9}}));
  EXPECT_EQ(Window(sliding, 5).status().message(),
            "window 5 of partition 'a' does not exist yet (the latest is 4)");
  EXPECT_EQ(WindowCount(*log_, sliding, "a"), 5u);
}

TEST_F(WindowViewTest, SlidingIntervalThreeSlideOne) {
  PutOneTo(4);
  const WindowSpec sliding{Type::kCount, 3, 1};
  EXPECT_EQ(ShapeOf(Window(sliding, 0)), (Shape{0, true, 0, 3, 0, {1, 2, 3}}));
  EXPECT_EQ(ShapeOf(Window(sliding, 1)), (Shape{1, true, 1, 4, 1, {2, 3, 4}}));
  EXPECT_EQ(ShapeOf(Window(sliding, 2)), (Shape{2, false, 2, 5, 2, {3, 4}}));
  EXPECT_EQ(ShapeOf(Window(sliding, std::nullopt)), (Shape{3, false, 3, 6, 3, {4}}));
  EXPECT_EQ(WindowCount(*log_, sliding, "a"), 4u);
}

TEST_F(WindowViewTest, PartitionsHaveTheirOwnWindows) {
  PutOneTo(6);
  Put("b", 100);
  Put("b", 101);
  EXPECT_EQ(ShapeOf(Window(kCount5, std::nullopt, std::nullopt, "b")),
            (Shape{0, false, 0, 5, 0, {100, 101}}));
  EXPECT_EQ(ShapeOf(Window(kCount5, std::nullopt)), (Shape{1, false, 5, 10, 5, {6}}));
  EXPECT_EQ(WindowCount(*log_, kCount5, "b"), 1u);
  EXPECT_EQ(WindowCount(*log_, kCount5, "nobody"), 0u);
}

TEST_F(WindowViewTest, TimeTumblingWindowsWithAnEmptyWindowInAGap) {
  const WindowSpec tumbling{Type::kTime, 10'000, 0};
  Put("a", 1, 12'000);
  Put("a", 2, 15'500);
  Put("a", 3, 19'999);
  Put("a", 4, 20'000);
  Put("a", 5, 41'000);
  // Window 0 is the one holding the first record: [10 s, 20 s).
  EXPECT_EQ(ShapeOf(Window(tumbling, 0, 45'000)), (Shape{0, true, 10'000, 20'000, 0, {1, 2, 3}}));
  EXPECT_EQ(ShapeOf(Window(tumbling, 1, 45'000)), (Shape{1, true, 20'000, 30'000, 3, {4}}));
  EXPECT_EQ(ShapeOf(Window(tumbling, 2, 45'000)), (Shape{2, true, 30'000, 40'000, 4, {}}));
  EXPECT_EQ(Window(tumbling, 2, 45'000)->members.batch.schema(), log_->schema());
  EXPECT_EQ(ShapeOf(Window(tumbling, std::nullopt, 45'000)),
            (Shape{3, false, 40'000, 50'000, 4, {5}}));
  EXPECT_EQ(Window(tumbling, 0, 45'000)->members.timestamps_ms,
            (std::vector<int64_t>{12'000, 15'500, 19'999}));
  EXPECT_EQ(Window(tumbling, 4, 45'000).status().message(),
            "window 4 of partition 'a' does not exist yet (the latest is 3)");
  EXPECT_EQ(WindowCount(*log_, tumbling, "a"), 4u);
  // Without the clock, only a later record closes a window.
  EXPECT_FALSE(Window(tumbling, 3, std::nullopt)->closed);
  EXPECT_TRUE(Window(tumbling, 2, std::nullopt)->closed);
}

TEST_F(WindowViewTest, TheClockClosesATimeWindowAndLaterCommitsFallAfterIt) {
  const WindowSpec tumbling{Type::kTime, 10'000, 0};
  Put("a", 1, 41'000);
  EXPECT_EQ(ShapeOf(Window(tumbling, std::nullopt, 49'999)),
            (Shape{0, false, 40'000, 50'000, 0, {1}}));
  EXPECT_EQ(ShapeOf(Window(tumbling, std::nullopt, 50'000)),
            (Shape{0, true, 40'000, 50'000, 0, {1}}));
  // A commit whose clock reading predates the query that closed the window lands after it.
  EXPECT_EQ(Put("a", 2, 49'000), 50'000);
  EXPECT_EQ(ShapeOf(Window(tumbling, 0, 50'000)), (Shape{0, true, 40'000, 50'000, 0, {1}}));
  EXPECT_EQ(ShapeOf(Window(tumbling, std::nullopt, 50'000)),
            (Shape{1, false, 50'000, 60'000, 1, {2}}));
}

TEST_F(WindowViewTest, ACommitNotYetPublishedKeepsItsWindowOpen) {
  const WindowSpec tumbling{Type::kTime, 10'000, 0};
  Put("a", 1, 11'000);
  PreparedProduce prepared = Prepare("a", 2);
  PendingEntries pending;
  std::vector<storage::BucketLog*> touched;
  ASSERT_TRUE(log_->Append(prepared, 12'000, &pending, &touched).ok());
  // The clock is past the window's end, but a commit timestamped inside it is on its way.
  EXPECT_EQ(ShapeOf(Window(tumbling, std::nullopt, 25'000)),
            (Shape{0, false, 10'000, 20'000, 0, {1}}));
  ASSERT_TRUE(log_->Publish(pending).ok());
  EXPECT_EQ(ShapeOf(Window(tumbling, std::nullopt, 25'000)),
            (Shape{0, true, 10'000, 20'000, 0, {1, 2}}));
}

TEST_F(WindowViewTest, TimeHoppingWindows) {
  const WindowSpec hopping{Type::kTime, 10'000, 5'000};
  Put("a", 1, 12'000);
  Put("a", 2, 17'000);
  Put("a", 3, 31'000);
  const int64_t now = 35'000;
  EXPECT_EQ(ShapeOf(Window(hopping, 0, now)), (Shape{0, true, 5'000, 15'000, 0, {1}}));
  EXPECT_EQ(ShapeOf(Window(hopping, 1, now)), (Shape{1, true, 10'000, 20'000, 0, {1, 2}}));
  EXPECT_EQ(ShapeOf(Window(hopping, 2, now)), (Shape{2, true, 15'000, 25'000, 1, {2}}));
  EXPECT_EQ(ShapeOf(Window(hopping, 3, now)), (Shape{3, true, 20'000, 30'000, 2, {}}));
  EXPECT_EQ(ShapeOf(Window(hopping, 4, now)), (Shape{4, true, 25'000, 35'000, 2, {3}}));
  EXPECT_EQ(ShapeOf(Window(hopping, std::nullopt, now)), (Shape{5, false, 30'000, 40'000, 2, {3}}));
  EXPECT_EQ(WindowCount(*log_, hopping, "a"), 6u);
}

TEST_F(WindowViewTest, TimeWindowsNearTheEpochStartAtZero) {
  const WindowSpec hopping{Type::kTime, 10'000, 5'000};
  Put("a", 1, 3'000);
  EXPECT_EQ(ShapeOf(Window(hopping, std::nullopt, 4'000)), (Shape{0, false, 0, 10'000, 0, {1}}));
  Put("a", 2, 7'000);
  EXPECT_EQ(ShapeOf(Window(hopping, 0, 8'000)), (Shape{0, false, 0, 10'000, 0, {1, 2}}));
  EXPECT_EQ(ShapeOf(Window(hopping, std::nullopt, 8'000)),
            (Shape{1, false, 5'000, 15'000, 1, {2}}));
}

TEST_F(WindowViewTest, Errors) {
  PutOneTo(9);
  Result<WindowRows> missing = Window(kCount5, std::nullopt, std::nullopt, "zz");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "partition 'zz' has no records");
  EXPECT_EQ(Window({Type::kTime, 10, 0}, 0, 5'000, "zz").status().message(),
            "partition 'zz' has no records");

  Result<WindowRows> past = Window(kCount5, 2);
  EXPECT_EQ(past.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(past.status().message(),
            "window 2 of partition 'a' does not exist yet (the latest is 1)");

  Result<WindowRows> large = Window(kCount5, 0, std::nullopt, "a", 4);
  EXPECT_EQ(large.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(large.status().message(),
            "window 0 of partition 'a' holds 5 records, more than the limit of 4 per query "
            "(--max-range-records)");
  EXPECT_EQ(ShapeOf(Window(kCount5, 1, std::nullopt, "a", 4)),
            (Shape{1, false, 5, 10, 5, {6, 7, 8, 9}}));
  EXPECT_EQ(Window({Type::kTime, 1'000'000, 0}, 0, 5'000, "a", 8).status().message(),
            "window 0 of partition 'a' holds 9 records, more than the limit of 8 per query "
            "(--max-range-records)");
}

}  // namespace
}  // namespace higgins::stream
