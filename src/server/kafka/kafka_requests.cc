#include "server/kafka/kafka_requests.h"

#include <cctype>

namespace higgins::server::kafka {

using higgins::kafka::ErrorCode;

std::string ResponseFrame(const higgins::kafka::RequestHeader& header,
                          const std::function<void(higgins::kafka::Writer&)>& body) {
  std::string frame;
  higgins::kafka::Writer writer(&frame);
  const size_t size = writer.ReserveInt32();
  higgins::kafka::EncodeResponseHeader(header.api_key, header.api_version, header.correlation_id,
                                       writer);
  body(writer);
  writer.FillSizeSince(size);
  return frame;
}

KafkaReply CloseWith(std::string reason) {
  KafkaReply reply;
  reply.close = true;
  reply.close_reason = std::move(reason);
  return reply;
}

ErrorCode ErrorFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return ErrorCode::kNone;
    case StatusCode::kNotFound: return ErrorCode::kUnknownTopicOrPartition;
    case StatusCode::kInvalidArgument: return ErrorCode::kInvalidRecord;
    case StatusCode::kOutOfRange: return ErrorCode::kOffsetOutOfRange;
    case StatusCode::kResourceExhausted: return ErrorCode::kMessageTooLarge;
    case StatusCode::kCorruption: return ErrorCode::kCorruptMessage;
    case StatusCode::kIOError: return ErrorCode::kKafkaStorageError;
    case StatusCode::kDeadlineExceeded: return ErrorCode::kRequestTimedOut;
    default: return ErrorCode::kUnknownServerError;
  }
}

bool IsOneJsonObject(std::string_view text) {
  size_t i = 0;
  auto space = [&] {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
      ++i;
    }
  };
  space();
  if (i == text.size() || text[i] != '{') return false;
  int depth = 0;
  bool in_string = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) {
        ++i;
        break;
      }
    }
  }
  if (depth != 0) return false;
  space();
  return i == text.size();
}

bool LooksLikeArrowIpc(std::string_view value) {
  if (value.starts_with("ARROW1")) return true;
  // An IPC stream starts with a message: the continuation marker 0xFFFFFFFF then a length.
  return value.size() >= 8 && value.substr(0, 4) == std::string_view("\xff\xff\xff\xff", 4);
}

ValueFormat ValueFormatFor(std::optional<std::string_view> client_id) {
  constexpr std::string_view kAsk = "higgins.value=arrow";
  if (!client_id) return ValueFormat::kJson;
  // The words of the client id are separated by anything but letters, digits, '.', '_', '-'
  // and '=': "higgins.value=arrow" must be one of them.
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-' ||
           c == '=';
  };
  const std::string_view id = *client_id;
  for (size_t at = id.find(kAsk); at != std::string_view::npos; at = id.find(kAsk, at + 1)) {
    const size_t after = at + kAsk.size();
    if ((at == 0 || !word(id[at - 1])) && (after == id.size() || !word(id[after])))
      return ValueFormat::kArrow;
  }
  return ValueFormat::kJson;
}

}  // namespace higgins::server::kafka
