#include "protocol/messages.h"

#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include "protocol/frame.h"

namespace higgins::protocol {
namespace {

using namespace higgins::wire;  // the generated protocol types

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

Message Ping(uint64_t correlation_id) {
  Message m;
  m.set_type(Message::PING);
  m.mutable_ping();
  m.set_correlationid(correlation_id);
  return m;
}

// The example of docs/protocol.md ("Framing"): keep the two in step.
TEST(MessagesTest, PingFrameMatchesTheDocumentedBytes) {
  auto frame = SerializeFrame(Ping(1), kDefaultMaxFrameBytes);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(Hex(*frame), "00 00 00 07 08 07 4a 00 d8 01 01");

  Message pong;
  pong.set_type(Message::PONG);
  pong.mutable_pong();
  pong.set_correlationid(1);
  EXPECT_EQ(Hex(SerializeFrame(pong, kDefaultMaxFrameBytes).value()),
            "00 00 00 07 08 08 52 00 d8 01 01");
}

TEST(MessagesTest, ProduceRequestRoundTripsThroughTheFrameDecoder) {
  Message m;
  m.set_type(Message::PRODUCEREQUEST);
  m.mutable_producerequest()->set_stream_name("amount");
  m.mutable_producerequest()->set_payload(R"({"id":"k","data":21})");
  m.mutable_producerequest()->set_format(higgins::wire::JSON);
  m.set_correlationid(9);

  std::string stream;
  ASSERT_TRUE(AppendMessageFrame(m, kDefaultMaxFrameBytes, &stream).ok());
  ASSERT_TRUE(AppendMessageFrame(Ping(10), kDefaultMaxFrameBytes, &stream).ok());
  FrameDecoder decoder;
  ASSERT_TRUE(
      decoder.Consume({reinterpret_cast<const uint8_t*>(stream.data()), stream.size()}).ok());

  auto first = ParseMessage(decoder.Next().value());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->SerializeAsString(), m.SerializeAsString());
  EXPECT_TRUE(HasBody(*first));
  auto second = ParseMessage(decoder.Next().value());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->type(), Message::PING);
  EXPECT_EQ(second->correlationid(), 10u);
}

TEST(MessagesTest, GarbageIsAMalformedMessage) {
  const auto r = ParseMessage("\xff\xff\xff");
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message().rfind("malformed message: ", 0), 0u) << r.status().message();
}

TEST(MessagesTest, TruncatedFieldIsAMalformedMessage) {
  Message m;
  m.set_type(Message::PRODUCEREQUEST);
  m.mutable_producerequest()->set_payload(std::string(100, 'p'));
  const std::string body = m.SerializeAsString();
  EXPECT_EQ(ParseMessage(std::string_view(body).substr(0, body.size() - 1)).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(MessagesTest, InvalidUtf8InAStringFieldIsAMalformedMessage) {
  // metadataRequest (field 7) { name (field 1) = "\xff" }
  const std::string body("\x08\x05\x3a\x03\x0a\x01\xff", 7);
  google::protobuf::LogSilencer silence;
  EXPECT_EQ(ParseMessage(body).status().code(), StatusCode::kInvalidArgument);
}

TEST(MessagesTest, EmptyBodyIsAnErrorTypeMessageWithoutItsBody) {
  const auto r = ParseMessage("");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->type(), Message::ERROR);
  EXPECT_FALSE(HasBody(*r));
  EXPECT_FALSE(r->has_correlationid());
}

TEST(MessagesTest, UnknownTypeAndUnknownFieldsAreKept) {
  // type = 99, correlationId = 5, and field 1000 (varint 1) that this build does not know.
  const std::string body("\x08\x63\xd8\x01\x05\xc0\x3e\x01", 8);
  const auto r = ParseMessage(body);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(static_cast<int>(r->type()), 99);
  EXPECT_FALSE(Message::Type_IsValid(r->type()));
  EXPECT_EQ(r->correlationid(), 5u);
  EXPECT_STREQ(MessageTypeName(r->type()), "UNKNOWN");
  EXPECT_EQ(ReplyTypeOf(r->type()), std::nullopt);
  EXPECT_FALSE(HasBody(*r));
}

TEST(MessagesTest, RequestWithoutItsBodyIsDetected) {
  Message m;
  m.set_type(Message::PING);
  EXPECT_FALSE(HasBody(m));
  m.mutable_getindexrequest();  // another operation's body does not count
  EXPECT_FALSE(HasBody(m));
  m.mutable_ping();
  EXPECT_TRUE(HasBody(m));
}

TEST(MessagesTest, CorrelationIdIsRecoveredFromAMalformedBody) {
  // type = PING, correlationId = 300, then a length-delimited field cut short.
  const std::string body("\x08\x07\xd8\x01\xac\x02\x4a\x05\x00", 9);
  EXPECT_FALSE(ParseMessage(body).ok());
  EXPECT_EQ(PeekCorrelationId(body), 300u);
  EXPECT_EQ(PeekCorrelationId("\xff\xff\xff"), std::nullopt);
  EXPECT_EQ(PeekCorrelationId(""), std::nullopt);
}

TEST(MessagesTest, MessageOverTheFrameLimitIsRefused) {
  Message m;
  m.set_type(Message::GETINDEXRESPONSE);
  m.mutable_getindexresponse()->add_records()->set_data(std::string(100, 'd'));
  std::string out = "keep";
  const Status s = AppendMessageFrame(m, 50, &out);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message().rfind("GETINDEXRESPONSE of ", 0), 0u) << s.message();
  EXPECT_EQ(out, "keep");
  EXPECT_EQ(SerializeFrame(m, 50).status().code(), StatusCode::kResourceExhausted);
  const size_t size = m.ByteSizeLong();
  EXPECT_TRUE(SerializeFrame(m, static_cast<uint32_t>(size)).ok());
}

TEST(MessagesTest, EveryRequestHasItsReplyType) {
  const std::pair<Message::Type, Message::Type> kPairs[] = {
      {Message::CREATESUBSCRIPTIONREQUEST, Message::CREATESUBSCRIPTIONRESPONSE},
      {Message::PRODUCEREQUEST, Message::PRODUCERESPONSE},
      {Message::METADATAREQUEST, Message::METADATARESPONSE},
      {Message::PING, Message::PONG},
      {Message::TAKERECORDSREQUEST, Message::TAKERECORDSRESPONSE},
      {Message::CREATECONFIGURATIONREQUEST, Message::CREATECONFIGURATIONRESPONSE},
      {Message::DELETECONFIGURATIONREQUEST, Message::DELETECONFIGURATIONRESPONSE},
      {Message::GETINDEXREQUEST, Message::GETINDEXRESPONSE},
      {Message::UPLOADMODULEREQUEST, Message::UPLOADMODULERESPONSE},
      {Message::GETCURRENTTOPOGRAPHYREQUEST, Message::GETCURRENTTOPOGRAPHYRESPONSE},
      {Message::GETSUBSCRIPTIONREQUEST, Message::GETSUBSCRIPTIONRESPONSE},
      {Message::ACKNOWLEDGEREQUEST, Message::ACKNOWLEDGERESPONSE},
      {Message::DELETESUBSCRIPTIONREQUEST, Message::DELETESUBSCRIPTIONRESPONSE},
  };
  for (const auto& [request, reply] : kPairs) {
    EXPECT_EQ(ReplyTypeOf(request), reply) << MessageTypeName(request);
    EXPECT_EQ(ReplyTypeOf(reply), std::nullopt) << MessageTypeName(reply);
  }
  EXPECT_EQ(ReplyTypeOf(Message::ERROR), std::nullopt);
  // Every listed type is either a request or the reply of one, or ERROR.
  int listed = 0;
  for (int t = Message::Type_MIN; t <= Message::Type_MAX; ++t) listed += Message::Type_IsValid(t);
  EXPECT_EQ(listed, 2 * static_cast<int>(std::size(kPairs)) + 1);
}

TEST(MessagesTest, EveryMessageTypeHasItsBodyField) {
  for (int t = Message::Type_MIN; t <= Message::Type_MAX; ++t) {
    if (!Message::Type_IsValid(t)) continue;
    Message m;
    m.set_type(static_cast<Message::Type>(t));
    EXPECT_FALSE(HasBody(m)) << t;
    // The body field of type t is field t + 2 (ERROR's `error` is field 2, and so on), then
    // field t + 3 from type 25 on (field 27 is correlationId).
    const auto* field = Message::descriptor()->FindFieldByNumber(t < 25 ? t + 2 : t + 3);
    ASSERT_NE(field, nullptr) << t;
    m.GetReflection()->MutableMessage(&m, field);
    EXPECT_TRUE(HasBody(m)) << MessageTypeName(m.type());
  }
}

TEST(MessagesTest, MessageTypeNamesAreTheProtoNames) {
  EXPECT_STREQ(MessageTypeName(Message::ERROR), "ERROR");
  EXPECT_STREQ(MessageTypeName(Message::PRODUCEREQUEST), "PRODUCEREQUEST");
  EXPECT_STREQ(MessageTypeName(Message::ACKNOWLEDGERESPONSE), "ACKNOWLEDGERESPONSE");
  EXPECT_STREQ(MessageTypeName(static_cast<Message::Type>(-1)), "UNKNOWN");
}

TEST(MessagesTest, ErrorCodesMirrorStatusCodes) {
  for (int c = 0; c <= static_cast<int>(StatusCode::kDeadlineExceeded); ++c) {
    const auto code = static_cast<StatusCode>(c);
    EXPECT_EQ(static_cast<int>(ToErrorCode(code)), c);
    EXPECT_EQ(FromErrorCode(ToErrorCode(code)), code);
  }
  EXPECT_EQ(higgins::wire::ErrorCode_descriptor()->value_count(),
            static_cast<int>(StatusCode::kDeadlineExceeded) + 1);
  EXPECT_EQ(FromErrorCode(static_cast<higgins::wire::ErrorCode>(42)), StatusCode::kInternal);
}

TEST(MessagesTest, EscapeInvalidUtf8KeepsValidTextAndEscapesTheRest) {
  EXPECT_EQ(EscapeInvalidUtf8(""), "");
  EXPECT_EQ(EscapeInvalidUtf8("plain 'text'"), "plain 'text'");
  EXPECT_EQ(EscapeInvalidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_EQ(EscapeInvalidUtf8("\xff\xfe"), "\\xFF\\xFE");
  EXPECT_EQ(EscapeInvalidUtf8("k\xc3"), "k\\xC3");                           // cut sequence
  EXPECT_EQ(EscapeInvalidUtf8("\xc0\xaf"), "\\xC0\\xAF");                    // overlong '/'
  EXPECT_EQ(EscapeInvalidUtf8("\xed\xa0\x80"), "\\xED\\xA0\\x80");           // surrogate
  EXPECT_EQ(EscapeInvalidUtf8("\xf4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(EscapeInvalidUtf8(std::string("a\xe2\x82") + "b"), "a\\xE2\\x82b");
  EXPECT_EQ(EscapeInvalidUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
}

}  // namespace
}  // namespace higgins::protocol
