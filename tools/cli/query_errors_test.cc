#include "query_errors.h"

#include <gtest/gtest.h>

namespace higgins::cli {
namespace {

TEST(QueryErrors, WindowQueryKindsBecomeOptions) {
  const Status translated = InCliWords(
      Status::InvalidArgument("stream 'w': window streams answer OFFSET and LATEST queries"));
  EXPECT_EQ(translated.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(translated.message(),
            "stream 'w': window streams answer --offset and --latest queries");
}

TEST(QueryErrors, RangeAndTimestampBecomeFromAndAtTime) {
  EXPECT_EQ(
      InCliWords(Status::InvalidArgument("a RANGE index needs `index`; TIMESTAMP too")).message(),
      "a --from index needs `index`; --at-time too");
}

TEST(QueryErrors, OnlyWholeUpperCaseWordsAreTranslated) {
  const Status kept = Status::NotFound("stream 'OFFSETS': partition 'LATEST_1' has no offset 4");
  EXPECT_EQ(InCliWords(kept), kept);
  EXPECT_TRUE(InCliWords(Status::OK()).ok());
}

TEST(QueryErrors, NothingThereIsNotFoundNamingTheStream) {
  EXPECT_TRUE(FoundNothing(Status::NotFound("stream 'x/errors': partition 'k' has no records"),
                           "x/errors"));
  EXPECT_TRUE(FoundNothing(
      Status::NotFound("stream 'e': partition 'k1' has no offset 99 (latest is 3)"), "e"));
}

TEST(QueryErrors, AnUnknownStreamOrOtherFailureIsNotNothingThere) {
  EXPECT_FALSE(FoundNothing(Status::NotFound("stream 'nope' does not exist"), "nope"));
  EXPECT_FALSE(FoundNothing(Status::InvalidArgument("stream 'e': bad"), "e"));
  EXPECT_FALSE(FoundNothing(Status::NotFound("stream 'other': partition 'k' has no records"), "e"));
  EXPECT_FALSE(FoundNothing(Status::OK(), "e"));
}

}  // namespace
}  // namespace higgins::cli
