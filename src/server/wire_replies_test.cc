// The reply helpers that keep replies within the frame limit.
#include "server/wire_replies.h"

#include <gtest/gtest.h>

#include <string>

namespace higgins::server {
namespace {

using higgins::wire::Message;

Message ProduceReplyWithErrors(int lines) {
  Message m;
  m.set_type(Message::PRODUCERESPONSE);
  m.set_correlationid(7);
  auto* body = m.mutable_produceresponse();
  for (int i = 0; i < lines; ++i) body->add_errors("row " + std::to_string(i) + ": not an int32");
  body->set_code(higgins::wire::INVALID_ARGUMENT);
  return m;
}

TEST(CutErrorsToFitTest, AReplyThatFitsIsLeftAsItIs) {
  Message m = ProduceReplyWithErrors(3);
  const Message before = m;
  EXPECT_TRUE(CutErrorsToFit(&m, m.ByteSizeLong()));
  EXPECT_EQ(m.SerializeAsString(), before.SerializeAsString());
}

TEST(CutErrorsToFitTest, TheLastLinesGoAndOneLineCountsThem) {
  Message m = ProduceReplyWithErrors(1000);
  ASSERT_GT(m.ByteSizeLong(), 2048u);
  ASSERT_TRUE(CutErrorsToFit(&m, 2048));
  EXPECT_LE(m.ByteSizeLong(), 2048u);
  const auto& errors = m.produceresponse().errors();
  ASSERT_GE(errors.size(), 2);
  const int kept = errors.size() - 1;
  EXPECT_EQ(errors[0], "row 0: not an int32");
  EXPECT_EQ(errors[kept - 1], "row " + std::to_string(kept - 1) + ": not an int32");
  EXPECT_EQ(errors[kept], "... and " + std::to_string(1000 - kept) +
                              " more error line(s), left out to keep the reply within the frame "
                              "limit");
  EXPECT_EQ(m.produceresponse().code(), higgins::wire::INVALID_ARGUMENT);
  EXPECT_EQ(m.correlationid(), 7u);
  // Little room is wasted: less than two lines and the counting line.
  EXPECT_GT(m.ByteSizeLong(), 2048u - 2 * 23 - errors[kept].size() - 4);
}

TEST(CutErrorsToFitTest, AReplyWithoutErrorsCannotBeCut) {
  Message m;
  m.set_type(Message::PONG);
  m.mutable_pong()->set_data(std::string(5000, 'p'));
  EXPECT_FALSE(CutErrorsToFit(&m, 4096));
  EXPECT_EQ(m.pong().data().size(), 5000u);
}

}  // namespace
}  // namespace higgins::server
