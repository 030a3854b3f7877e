#pragma once

#include <cstdint>
#include <variant>

#include "higgins/result.h"
#include "kafka/api_versions.h"
#include "kafka/create_topics.h"
#include "kafka/describe_configs.h"
#include "kafka/describe_groups.h"
#include "kafka/fetch.h"
#include "kafka/find_coordinator.h"
#include "kafka/heartbeat.h"
#include "kafka/init_producer_id.h"
#include "kafka/join_group.h"
#include "kafka/leave_group.h"
#include "kafka/list_groups.h"
#include "kafka/list_offsets.h"
#include "kafka/metadata.h"
#include "kafka/offset_commit.h"
#include "kafka/offset_fetch.h"
#include "kafka/produce.h"
#include "kafka/request_header.h"
#include "kafka/sync_group.h"
#include "kafka/wire.h"

namespace higgins::kafka {

/// A decoded request body of any API in kCodecVersions. Its views point into the frame body.
using Request =
    std::variant<ApiVersionsRequest, MetadataRequest, ProduceRequest, FetchRequest,
                 ListOffsetsRequest, FindCoordinatorRequest, JoinGroupRequest, SyncGroupRequest,
                 HeartbeatRequest, LeaveGroupRequest, OffsetCommitRequest, OffsetFetchRequest,
                 InitProducerIdRequest, DescribeConfigsRequest, CreateTopicsRequest,
                 DescribeGroupsRequest, ListGroupsRequest>;

/// Decodes the request body that follows `header` in `reader` (see DecodeRequestHeader), by
/// header.api_key and header.api_version. Errors: NotSupported for a key or version outside
/// kCodecVersions, Corruption for malformed bytes. The codec knows more than the broker
/// serves: check IsSupported (kSupportedApis) first, and answer what fails it without decoding
/// (for ApiVersions, with UnsupportedApiVersionsResponse).
Result<Request> DecodeRequest(const RequestHeader& header, Reader& reader);

/// The API a Request holds.
ApiKey ApiKeyOf(const Request& request);

/// Writes the body of `request` at `version` (which the codec must know). For tests and tools.
void EncodeRequest(const Request& request, int16_t version, Writer& writer);

}  // namespace higgins::kafka
