#pragma once

#include <string>
#include <vector>

#include "higgins.pb.h"
#include "higgins/client_types.h"
#include "higgins/result.h"

namespace higgins::client_internal {

// Sans-I/O decoding of the broker's replies (docs/protocol.md) into the public values. Every
// function first checks the reply's type: an ERROR message becomes its Status (ErrorStatus), any
// other type than `expected` is Corruption. Operation errors keep the broker's category
// (protocol::FromErrorCode) and text (the `errors` lines joined with newlines). Bytes that fail
// structural checks (an Arrow IPC stream, a partition key, a row index out of range) are
// Corruption naming the field.

/// An ERROR message's Status: the broker's `message`, with a code by Error.type
/// (UNIMPLEMENTED: NotSupported, MALFORMED_MESSAGE: InvalidArgument, FRAME_TOO_LARGE and
/// OVERLOADED: ResourceExhausted, TRUNCATED_FRAME: Corruption, UNKNOWN: Internal).
Status ErrorStatus(const higgins::wire::Error& error);

/// The status of an operation's reply from its `code` and `errors` (joined with newlines): OK
/// when both are empty. Errors without a code (replies that have no code field) are Internal,
/// an unknown category (docs/protocol.md, "Errors").
Status OperationStatus(higgins::wire::ErrorCode code,
                       const google::protobuf::RepeatedPtrField<std::string>& errors);
/// The same for replies with one `error` text.
Status OperationStatus(higgins::wire::ErrorCode code, std::string text);

/// OK when the reply has type `expected`, ErrorStatus for ERROR, Corruption otherwise.
Status CheckReplyType(const higgins::wire::Message& reply, higgins::wire::Message::Type expected);

/// Status of the replies that carry only errors: CREATECONFIGURATIONRESPONSE,
/// DELETECONFIGURATIONRESPONSE, UPLOADMODULERESPONSE and DELETESUBSCRIPTIONRESPONSE.
Status DecodeStatusReply(const higgins::wire::Message& reply,
                         higgins::wire::Message::Type expected);

/// CREATECONFIGURATIONRESPONSE: the catch-ups of the derived streams it added.
Result<std::vector<CatchUp>> DecodeCreateConfiguration(const higgins::wire::Message& reply);
/// UPLOADMODULERESPONSE: the version the upload created.
Result<uint64_t> DecodeUploadModule(const higgins::wire::Message& reply);
/// PONG: the echoed data.
Result<std::string> DecodePong(higgins::wire::Message reply);
/// GETCURRENTTOPOGRAPHYRESPONSE: the TOML text.
Result<std::string> DecodeTopography(higgins::wire::Message reply);
/// PRODUCERESPONSE: every row's partition and offset.
Result<ProduceResult> DecodeProduce(higgins::wire::Message reply);
/// GETINDEXRESPONSE to a request of one index: its record, decoded.
Result<Records> DecodeRecords(higgins::wire::Message reply);
/// One Record of a query reply or a subscription push: the partition key unpadded, the Arrow
/// IPC data decoded (moved out of `record`), counts checked against the rows.
Result<Records> DecodeRecord(higgins::wire::Record* record);
/// METADATARESPONSE: the streams, schemas decoded.
Result<std::vector<StreamInfo>> DecodeMetadata(higgins::wire::Message reply);

}  // namespace higgins::client_internal
