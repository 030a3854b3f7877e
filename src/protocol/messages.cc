#include "protocol/messages.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>

#include "higgins/bit_util.h"
#include "protocol/frame.h"

namespace higgins::protocol {

using google::protobuf::internal::WireFormatLite;
using higgins::wire::Message;

Result<Message> ParseMessage(std::string_view body) {
  if (body.size() > static_cast<size_t>(INT_MAX)) {
    return Status::InvalidArgument("malformed message: " + std::to_string(body.size()) +
                                   " bytes is more than protobuf can parse");
  }
  Message message;
  if (!message.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
    return Status::InvalidArgument(
        "malformed message: " + std::to_string(body.size()) +
        " bytes are not a higgins.Message (bad wire format, or invalid UTF-8 in a string field)");
  }
  return message;
}

std::optional<uint64_t> PeekCorrelationId(std::string_view body) {
  const int size = static_cast<int>(std::min<size_t>(body.size(), INT_MAX));
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(body.data()), size);
  constexpr uint32_t kCorrelationIdTag =
      WireFormatLite::MakeTag(Message::kCorrelationIdFieldNumber, WireFormatLite::WIRETYPE_VARINT);
  std::optional<uint64_t> id;
  for (uint32_t tag = in.ReadTag(); tag != 0; tag = in.ReadTag()) {
    if (tag == kCorrelationIdTag) {
      uint64_t value = 0;
      if (!in.ReadVarint64(&value)) break;
      id = value;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      break;
    }
  }
  return id;
}

Status AppendMessageFrame(const Message& message, uint32_t max_frame_bytes, std::string* out) {
  const size_t size = message.ByteSizeLong();
  if (size > max_frame_bytes || size > static_cast<size_t>(INT_MAX)) {
    return Status::ResourceExhausted(std::string(MessageTypeName(message.type())) + " of " +
                                     std::to_string(size) + " bytes exceeds the frame limit of " +
                                     std::to_string(max_frame_bytes) + " bytes");
  }
  const size_t start = out->size();
  out->resize(start + kFrameHeaderBytes + size);
  auto* header = reinterpret_cast<uint8_t*>(out->data() + start);
  bit_util::StoreBE32(header, static_cast<uint32_t>(size));
  uint8_t* end = message.SerializeWithCachedSizesToArray(header + kFrameHeaderBytes);
  if (end != header + kFrameHeaderBytes + size) {
    out->resize(start);
    return Status::Internal("a Message changed while it was serialized");
  }
  return Status::OK();
}

Result<std::string> SerializeFrame(const Message& message, uint32_t max_frame_bytes) {
  std::string frame;
  HIGGINS_RETURN_IF_ERROR(AppendMessageFrame(message, max_frame_bytes, &frame));
  return frame;
}

bool HasBody(const Message& m) {
  switch (m.type()) {
    case Message::ERROR: return m.has_error();
    case Message::CREATESUBSCRIPTIONREQUEST: return m.has_createsubscriptionrequest();
    case Message::CREATESUBSCRIPTIONRESPONSE: return m.has_createsubscriptionresponse();
    case Message::PRODUCEREQUEST: return m.has_producerequest();
    case Message::PRODUCERESPONSE: return m.has_produceresponse();
    case Message::METADATAREQUEST: return m.has_metadatarequest();
    case Message::METADATARESPONSE: return m.has_metadataresponse();
    case Message::PING: return m.has_ping();
    case Message::PONG: return m.has_pong();
    case Message::TAKERECORDSREQUEST: return m.has_takerecordsrequest();
    case Message::TAKERECORDSRESPONSE: return m.has_takerecordsresponse();
    case Message::CREATECONFIGURATIONREQUEST: return m.has_createconfigurationrequest();
    case Message::CREATECONFIGURATIONRESPONSE: return m.has_createconfigurationresponse();
    case Message::DELETECONFIGURATIONREQUEST: return m.has_deleteconfigurationrequest();
    case Message::DELETECONFIGURATIONRESPONSE: return m.has_deleteconfigurationresponse();
    case Message::GETINDEXREQUEST: return m.has_getindexrequest();
    case Message::GETINDEXRESPONSE: return m.has_getindexresponse();
    case Message::UPLOADMODULEREQUEST: return m.has_uploadmodulerequest();
    case Message::UPLOADMODULERESPONSE: return m.has_uploadmoduleresponse();
    case Message::GETCURRENTTOPOGRAPHYREQUEST: return m.has_getcurrenttopographyrequest();
    case Message::GETCURRENTTOPOGRAPHYRESPONSE: return m.has_getcurrenttopographyresponse();
    case Message::GETSUBSCRIPTIONREQUEST: return m.has_getsubscriptionrequest();
    case Message::GETSUBSCRIPTIONRESPONSE: return m.has_getsubscriptionresponse();
    case Message::ACKNOWLEDGEREQUEST: return m.has_acknowledgerequest();
    case Message::ACKNOWLEDGERESPONSE: return m.has_acknowledgeresponse();
    case Message::DELETESUBSCRIPTIONREQUEST: return m.has_deletesubscriptionrequest();
    case Message::DELETESUBSCRIPTIONRESPONSE: return m.has_deletesubscriptionresponse();
    default: return false;
  }
}

std::optional<Message::Type> ReplyTypeOf(Message::Type type) {
  switch (type) {
    case Message::CREATESUBSCRIPTIONREQUEST: return Message::CREATESUBSCRIPTIONRESPONSE;
    case Message::PRODUCEREQUEST: return Message::PRODUCERESPONSE;
    case Message::METADATAREQUEST: return Message::METADATARESPONSE;
    case Message::PING: return Message::PONG;
    case Message::TAKERECORDSREQUEST: return Message::TAKERECORDSRESPONSE;
    case Message::CREATECONFIGURATIONREQUEST: return Message::CREATECONFIGURATIONRESPONSE;
    case Message::DELETECONFIGURATIONREQUEST: return Message::DELETECONFIGURATIONRESPONSE;
    case Message::GETINDEXREQUEST: return Message::GETINDEXRESPONSE;
    case Message::UPLOADMODULEREQUEST: return Message::UPLOADMODULERESPONSE;
    case Message::GETCURRENTTOPOGRAPHYREQUEST: return Message::GETCURRENTTOPOGRAPHYRESPONSE;
    case Message::GETSUBSCRIPTIONREQUEST: return Message::GETSUBSCRIPTIONRESPONSE;
    case Message::ACKNOWLEDGEREQUEST: return Message::ACKNOWLEDGERESPONSE;
    case Message::DELETESUBSCRIPTIONREQUEST: return Message::DELETESUBSCRIPTIONRESPONSE;
    default: return std::nullopt;
  }
}

const char* MessageTypeName(Message::Type type) {
  // The generated names live in static storage for the life of the process.
  return Message::Type_IsValid(type) ? Message::Type_Name(type).c_str() : "UNKNOWN";
}

higgins::wire::ErrorCode ToErrorCode(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return higgins::wire::OK;
    case StatusCode::kInvalidArgument: return higgins::wire::INVALID_ARGUMENT;
    case StatusCode::kNotFound: return higgins::wire::NOT_FOUND;
    case StatusCode::kAlreadyExists: return higgins::wire::ALREADY_EXISTS;
    case StatusCode::kOutOfRange: return higgins::wire::OUT_OF_RANGE;
    case StatusCode::kNotSupported: return higgins::wire::NOT_SUPPORTED;
    case StatusCode::kCorruption: return higgins::wire::CORRUPTION;
    case StatusCode::kIOError: return higgins::wire::IO_ERROR;
    case StatusCode::kResourceExhausted: return higgins::wire::RESOURCE_EXHAUSTED;
    case StatusCode::kInternal: return higgins::wire::INTERNAL;
    case StatusCode::kDeadlineExceeded: return higgins::wire::DEADLINE_EXCEEDED;
  }
  return higgins::wire::INTERNAL;
}

StatusCode FromErrorCode(higgins::wire::ErrorCode code) {
  switch (code) {
    case higgins::wire::OK: return StatusCode::kOk;
    case higgins::wire::INVALID_ARGUMENT: return StatusCode::kInvalidArgument;
    case higgins::wire::NOT_FOUND: return StatusCode::kNotFound;
    case higgins::wire::ALREADY_EXISTS: return StatusCode::kAlreadyExists;
    case higgins::wire::OUT_OF_RANGE: return StatusCode::kOutOfRange;
    case higgins::wire::NOT_SUPPORTED: return StatusCode::kNotSupported;
    case higgins::wire::CORRUPTION: return StatusCode::kCorruption;
    case higgins::wire::IO_ERROR: return StatusCode::kIOError;
    case higgins::wire::RESOURCE_EXHAUSTED: return StatusCode::kResourceExhausted;
    case higgins::wire::DEADLINE_EXCEEDED: return StatusCode::kDeadlineExceeded;
    case higgins::wire::INTERNAL:
    default: return StatusCode::kInternal;
  }
}

namespace {

/// Length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), or 0 when it does not start with one.
size_t Utf8SequenceLength(std::string_view s) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
  const uint8_t b0 = byte(0);
  if (b0 < 0x80) return 1;
  size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < n; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

std::string EscapeInvalidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  static constexpr char kHex[] = "0123456789ABCDEF";
  while (!text.empty()) {
    const size_t n = Utf8SequenceLength(text);
    if (n > 0) {
      out.append(text.substr(0, n));
      text.remove_prefix(n);
    } else {
      const auto b = static_cast<uint8_t>(text[0]);
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
      text.remove_prefix(1);
    }
  }
  return out;
}

}  // namespace higgins::protocol
