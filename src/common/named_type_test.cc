#include "common/named_type.h"

#include <gtest/gtest.h>

#include <sstream>
#include <type_traits>
#include <unordered_set>

#include "common/ids.h"

namespace higgins {
namespace {

// What the strong types are for: none converts to another, nor to or from its representation
// implicitly, so a call with swapped arguments does not compile.
static_assert(!std::is_convertible_v<StreamId, Sequence>);
static_assert(!std::is_convertible_v<Sequence, StreamId>);
static_assert(!std::is_convertible_v<Sequence, Offset>);
static_assert(!std::is_convertible_v<Offset, Sequence>);
static_assert(!std::is_convertible_v<BucketId, StreamId>);
static_assert(!std::is_convertible_v<uint64_t, StreamId>);
static_assert(!std::is_convertible_v<StreamId, uint64_t>);
static_assert(!std::is_convertible_v<uint32_t, BucketId>);
static_assert(!std::is_convertible_v<std::string, SubscriptionId>);
static_assert(std::is_constructible_v<StreamId, uint64_t>);
static_assert(std::is_trivially_copyable_v<Sequence>);
static_assert(sizeof(Sequence) == sizeof(uint64_t));
static_assert(sizeof(BucketId) == sizeof(uint32_t));

void Open(StreamId, BucketId, Sequence) {}
template <typename... Args>
concept CanOpen = requires(Args... args) {
  Open(args...);
};
static_assert(CanOpen<StreamId, BucketId, Sequence>);
static_assert(!CanOpen<BucketId, StreamId, Sequence>);
static_assert(!CanOpen<StreamId, Sequence, BucketId>);
static_assert(!CanOpen<uint64_t, uint32_t, uint64_t>);

// Only ordinals have arithmetic, and only ordinal ± count and ordinal − ordinal.
template <typename T>
concept Addable = requires(T a, uint64_t n) {
  a + n;
};
template <typename T>
concept Summable = requires(T a, T b) {
  a + b;
};
static_assert(Addable<Sequence>);
static_assert(Addable<Offset>);
static_assert(!Addable<StreamId>);
static_assert(!Summable<Sequence>);
static_assert(std::is_same_v<decltype(Sequence(5) - Sequence(2)), uint64_t>);

TEST(NamedTypeTest, OrdinalArithmetic) {
  Sequence s(10);
  EXPECT_EQ(s + 5, Sequence(15));
  EXPECT_EQ(s - 4, Sequence(6));
  EXPECT_EQ(Sequence(15) - s, 5u);
  s += 3;
  EXPECT_EQ(s, Sequence(13));
  ++s;
  EXPECT_EQ(s.value(), 14u);
  EXPECT_LT(Offset(1), Offset(2));
  EXPECT_EQ(Sequence(), Sequence(0));
}

TEST(NamedTypeTest, HashesPrintsAndNamesErrorsStreams) {
  std::unordered_set<StreamId> ids{StreamId(1), StreamId(2), StreamId(1)};
  EXPECT_EQ(ids.size(), 2u);
  std::ostringstream out;
  out << BucketId(7) << ' ' << SubscriptionId("abc");
  EXPECT_EQ(out.str(), "7 abc");
  EXPECT_EQ(ToString(Sequence(42)), "42");
  EXPECT_EQ(SubscriptionId("abc").value(), "abc");

  const StreamId derived(5);
  const StreamId errors = ErrorsStreamIdOf(derived);
  EXPECT_EQ(errors.value(), (uint64_t{1} << 62) | 5);
  EXPECT_TRUE(IsErrorsStreamId(errors));
  EXPECT_FALSE(IsErrorsStreamId(derived));
}

TEST(NamedTypeTest, BucketsAndPerBucket) {
  PerBucket<Sequence> cursors(3, Sequence(1));
  uint32_t visited = 0;
  for (BucketId b : Buckets(cursors.size())) {
    cursors[b] += b.value();
    ++visited;
  }
  EXPECT_EQ(visited, 3u);
  EXPECT_EQ(cursors[BucketId(2)], Sequence(3));
  for (BucketId b : Buckets(0)) ADD_FAILURE() << b;
}

}  // namespace
}  // namespace higgins
