#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "higgins/result.h"
#include "higgins.pb.h"

namespace higgins::protocol {

/// Parses one frame body into a `higgins.Message`. Only the wire format is checked: unknown
/// fields are kept and an unknown `type` value (an operation of a newer peer) is accepted, so the
/// caller can still answer it with Error UNIMPLEMENTED and the request's correlationId. Whether
/// the body fits its type is a separate check (HasBody).
/// Errors: InvalidArgument "malformed message: ..." when the bytes are not a valid Message (bad
/// varint, tag or length, a truncated field, invalid UTF-8 in a `string` field), or when the
/// body is 2 GiB or more (protobuf's limit).
/// Note: protobuf reports invalid UTF-8 through its log handler (stderr unless the process
/// installs one with google::protobuf::SetLogHandler).
Result<higgins::wire::Message> ParseMessage(std::string_view body);

/// The correlationId (field 27) of a body that ParseMessage may have rejected: the last one found
/// among the top-level fields before the first wire-format error, or nullopt. Lets an Error
/// MALFORMED_MESSAGE reply still carry the client's id.
std::optional<uint64_t> PeekCorrelationId(std::string_view body);

/// Appends `message` to `out` as one frame: the 4-byte big-endian length, then the serialized
/// Message. `message` must not be serialized concurrently by another thread (protobuf caches
/// sizes in it). Errors: ResourceExhausted when the body is above `max_frame_bytes`; `out` is
/// then unchanged.
Status AppendMessageFrame(const higgins::wire::Message& message, uint32_t max_frame_bytes,
                          std::string* out);

/// `message` as one frame, as AppendMessageFrame writes it.
Result<std::string> SerializeFrame(const higgins::wire::Message& message, uint32_t max_frame_bytes);

/// Whether the Message carries the body of its `type` (ping for PING, produceRequest for
/// PRODUCEREQUEST, error for ERROR, ...). False for an unknown type. A frame that lacks it is
/// answered with Error MALFORMED_MESSAGE (docs/protocol.md, "Errors").
bool HasBody(const higgins::wire::Message& message);

/// The reply type of a request type (PING -> PONG, PRODUCEREQUEST -> PRODUCERESPONSE, ...), or
/// nullopt when `type` is not a request (a response, ERROR, or an unknown value).
std::optional<higgins::wire::Message::Type> ReplyTypeOf(higgins::wire::Message::Type type);

/// The `type` name as spelt in proto/higgins.proto ("PRODUCEREQUEST"), or "UNKNOWN" for a value
/// the enum does not list. The pointer is valid for the life of the process.
const char* MessageTypeName(higgins::wire::Message::Type type);

/// `text` with every byte that is not part of well-formed UTF-8 written as `\xHH` (uppercase hex),
/// for `string` fields of replies that quote client bytes (names and keys are `bytes` on the
/// wire): protobuf parsers refuse a whole Message whose `string` field is not UTF-8.
std::string EscapeInvalidUtf8(std::string_view text);

/// StatusCode <-> ErrorCode: the two enums list the same categories with the same numbers.
higgins::wire::ErrorCode ToErrorCode(StatusCode code);
/// An ErrorCode value this build does not know (sent by a newer peer) becomes kInternal.
StatusCode FromErrorCode(higgins::wire::ErrorCode code);

}  // namespace higgins::protocol
