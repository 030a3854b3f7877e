// Consumer groups (docs/kafka.md, "Consumer groups"): FindCoordinator, JoinGroup, SyncGroup,
// Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch, DescribeGroups and ListGroups, over the
// GroupCoordinator and the OffsetStore.
#include <spdlog/spdlog.h>

#include <map>

#include "kafka/describe_groups.h"
#include "kafka/find_coordinator.h"
#include "kafka/heartbeat.h"
#include "kafka/join_group.h"
#include "kafka/leave_group.h"
#include "kafka/list_groups.h"
#include "kafka/offset_commit.h"
#include "kafka/offset_fetch.h"
#include "kafka/sync_group.h"
#include "server/kafka/kafka_handler.h"
#include "server/kafka/kafka_requests.h"

namespace higgins::server::kafka {

using namespace higgins::kafka;  // NOLINT(google-build-using-namespace): the codec's names

namespace {

constexpr size_t kMaxCommitMetadataBytes = 4096;  // Kafka's offset.metadata.max.bytes

GroupCoordinator::Clock::time_point Now() {
  return GroupCoordinator::Clock::now();
}

}  // namespace

KafkaReply KafkaHandler::FindCoordinator(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeFindCoordinatorRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed FindCoordinator request: " + request.status().message());
  }
  FindCoordinatorResponse response;
  if (request->key_type != kCoordinatorKeyGroup) {
    response.error_code = ErrorCode::kCoordinatorNotAvailable;
    response.error_message = "transactions are not supported";
  } else if (offsets_ == nullptr) {
    response.error_code = ErrorCode::kCoordinatorNotAvailable;
    response.error_message = "this broker keeps no committed offsets";
  } else {
    // One broker coordinates every group.
    response.node_id = options_.node_id;
    response.host = options_.advertised_host;
    response.port = options_.advertised_port;
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeFindCoordinatorResponse(response, header.api_version, writer);
  })};
}

void KafkaHandler::JoinGroup(const RequestHeader& header, Reader& reader, Done done) {
  auto request = DecodeJoinGroupRequest(reader, header.api_version);
  if (!request.ok())
    return done(CloseWith("malformed JoinGroup request: " + request.status().message()));
  GroupCoordinator::JoinRequest join;
  join.group_id = std::string(request->group_id);
  join.member_id = std::string(request->member_id);
  join.client_id = std::string(header.client_id.value_or(""));
  join.session_timeout = std::chrono::milliseconds(request->session_timeout_ms);
  join.rebalance_timeout =
      std::chrono::milliseconds(request->rebalance_timeout_ms < 0 ? request->session_timeout_ms
                                                                  : request->rebalance_timeout_ms);
  join.protocol_type = std::string(request->protocol_type);
  for (const JoinGroupProtocol& p : request->protocols) {
    join.protocols.push_back({std::string(p.name), std::string(p.metadata)});
  }
  join.require_known_member_id = header.api_version >= 4;
  join.instance_id = std::string(request->group_instance_id.value_or(""));
  coordinator_.Join(std::move(join), Now(),
                    [header, done = std::move(done)](GroupCoordinator::JoinResult result) {
                      JoinGroupResponse response;
                      response.error_code = result.error;
                      response.generation_id = result.generation;
                      response.protocol_name = std::move(result.protocol_name);
                      response.leader = std::move(result.leader);
                      response.member_id = std::move(result.member_id);
                      for (GroupCoordinator::Member& m : result.members) {
                        std::optional<std::string> instance;
                        if (!m.instance_id.empty()) instance = std::move(m.instance_id);
                        response.members.push_back(
                            {std::move(m.member_id), std::move(instance), std::move(m.metadata)});
                      }
                      done(KafkaReply{ResponseFrame(header, [&](Writer& writer) {
                        EncodeJoinGroupResponse(response, header.api_version, writer);
                      })});
                    });
}

void KafkaHandler::SyncGroup(const RequestHeader& header, Reader& reader, Done done) {
  auto request = DecodeSyncGroupRequest(reader, header.api_version);
  if (!request.ok())
    return done(CloseWith("malformed SyncGroup request: " + request.status().message()));
  std::map<std::string, std::string> assignments;
  for (const SyncGroupAssignment& a : request->assignments) {
    assignments[std::string(a.member_id)] = std::string(a.assignment);
  }
  coordinator_.Sync(
      std::string(request->group_id), request->generation_id, std::string(request->member_id),
      std::move(assignments), Now(),
      [header, done = std::move(done)](GroupCoordinator::SyncResult result) {
        SyncGroupResponse response;
        response.error_code = result.error;
        response.assignment = std::move(result.assignment);
        done(KafkaReply{ResponseFrame(header, [&](Writer& writer) {
          EncodeSyncGroupResponse(response, header.api_version, writer);
        })});
      },
      std::string(request->group_instance_id.value_or("")));
}

KafkaReply KafkaHandler::Heartbeat(const RequestHeader& header, Reader& reader) {
  auto request = DecodeHeartbeatRequest(reader, header.api_version);
  if (!request.ok()) return CloseWith("malformed Heartbeat request: " + request.status().message());
  HeartbeatResponse response;
  response.error_code = coordinator_.Heartbeat(
      std::string(request->group_id), request->generation_id, std::string(request->member_id),
      Now(), std::string(request->group_instance_id.value_or("")));
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeHeartbeatResponse(response, header.api_version, writer);
  })};
}

KafkaReply KafkaHandler::LeaveGroup(const RequestHeader& header, Reader& reader) {
  auto request = DecodeLeaveGroupRequest(reader, header.api_version);
  if (!request.ok())
    return CloseWith("malformed LeaveGroup request: " + request.status().message());
  LeaveGroupResponse response;
  const std::string group(request->group_id);
  if (header.api_version < 3) {
    response.error_code = coordinator_.Leave(group, std::string(request->member_id), Now());
  } else {
    for (const LeaveGroupMember& m : request->members) {
      LeaveGroupMemberResponse& out = response.members.emplace_back();
      out.member_id = std::string(m.member_id);
      if (m.group_instance_id) out.group_instance_id = std::string(*m.group_instance_id);
      out.error_code =
          coordinator_.Leave(group, out.member_id, Now(), out.group_instance_id.value_or(""));
    }
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeLeaveGroupResponse(response, header.api_version, writer);
  })};
}

void KafkaHandler::OffsetCommit(const RequestHeader& header, Reader& reader, Done done) {
  auto request = DecodeOffsetCommitRequest(reader, header.api_version);
  if (!request.ok()) {
    return done(CloseWith("malformed OffsetCommit request: " + request.status().message()));
  }
  const std::string group(request->group_id);
  ErrorCode group_error = ErrorCode::kNone;
  if (offsets_ == nullptr) {
    group_error = ErrorCode::kCoordinatorNotAvailable;
  } else if (group.empty()) {
    group_error = ErrorCode::kInvalidGroupId;
  } else {
    group_error =
        coordinator_.CheckCommit(group, request->generation_id, std::string(request->member_id),
                                 Now(), std::string(request->group_instance_id.value_or("")));
  }
  auto response = std::make_shared<OffsetCommitResponse>();
  std::vector<OffsetStore::Commit> commits;
  for (const OffsetCommitTopic& topic : request->topics) {
    OffsetCommitTopicResponse& out_topic = response->topics.emplace_back();
    out_topic.name = std::string(topic.name);
    auto logs = api_->DescribeBuckets(topic.name);
    for (const OffsetCommitPartition& p : topic.partitions) {
      OffsetCommitPartitionResponse& out = out_topic.partitions.emplace_back();
      out.partition_index = p.partition_index;
      if (group_error != ErrorCode::kNone) {
        out.error_code = group_error;
      } else if (!logs.ok() || p.partition_index < 0 ||
                 static_cast<uint32_t>(p.partition_index) >= logs->buckets) {
        out.error_code = ErrorCode::kUnknownTopicOrPartition;
      } else if (p.committed_metadata && p.committed_metadata->size() > kMaxCommitMetadataBytes) {
        out.error_code = ErrorCode::kOffsetMetadataTooLarge;
      } else {
        OffsetStore::Committed c;
        c.offset = p.committed_offset;
        c.leader_epoch = p.committed_leader_epoch;
        if (p.committed_metadata) c.metadata = std::string(*p.committed_metadata);
        commits.push_back({out_topic.name, p.partition_index, std::move(c)});
      }
    }
  }
  auto answer = [header, response, done = std::move(done)] {
    done(KafkaReply{ResponseFrame(header, [&](Writer& writer) {
      EncodeOffsetCommitResponse(*response, header.api_version, writer);
    })});
  };
  if (commits.empty()) return answer();
  // Stored off this thread, with the other commits of the moment (OffsetCommitter); the
  // partitions accepted above are answered with the store's outcome.
  committer_->Submit(group, std::move(commits),
                     [group, response, answer = std::move(answer)](const Status& s) {
                       if (!s.ok()) {
                         spdlog::error("Kafka OffsetCommit of group {}: {}", group, s.ToString());
                         for (auto& topic : response->topics) {
                           for (auto& p : topic.partitions) {
                             if (p.error_code == ErrorCode::kNone) {
                               p.error_code = ErrorCode::kKafkaStorageError;
                             }
                           }
                         }
                       }
                       answer();
                     });
}

KafkaReply KafkaHandler::OffsetFetch(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeOffsetFetchRequest(reader, header.api_version);
  if (!request.ok())
    return CloseWith("malformed OffsetFetch request: " + request.status().message());
  OffsetFetchResponse response;
  if (offsets_ == nullptr) {
    response.error_code = ErrorCode::kCoordinatorNotAvailable;
  } else if (!request->topics) {
    // Every partition the group committed (v2+: a null topic list).
    std::map<std::string, OffsetFetchTopicResponse> by_topic;
    for (const OffsetStore::Commit& c : offsets_->FetchAll(request->group_id)) {
      OffsetFetchTopicResponse& t = by_topic[c.topic];
      t.name = c.topic;
      t.partitions.push_back({c.partition, c.committed.offset, c.committed.leader_epoch,
                              c.committed.metadata, ErrorCode::kNone});
    }
    for (auto& [name, topic] : by_topic) response.topics.push_back(std::move(topic));
  } else {
    for (const OffsetFetchTopic& topic : *request->topics) {
      OffsetFetchTopicResponse& out_topic = response.topics.emplace_back();
      out_topic.name = std::string(topic.name);
      for (int32_t partition : topic.partition_indexes) {
        OffsetFetchPartitionResponse& out = out_topic.partitions.emplace_back();
        out.partition_index = partition;
        // Nothing committed: offset -1 and no error, so the consumer applies its
        // auto.offset.reset.
        if (auto c = offsets_->Fetch(request->group_id, topic.name, partition)) {
          out.committed_offset = c->offset;
          out.committed_leader_epoch = c->leader_epoch;
          out.metadata = c->metadata;
        } else {
          out.metadata = std::string();
        }
      }
    }
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeOffsetFetchResponse(response, header.api_version, writer);
  })};
}

void KafkaHandler::Tick() {
  coordinator_.Tick(Now());
  // Producer state expires after a day: a look every minute is enough, and spares a scan of
  // every producer ten times a second.
  const auto now = ProducerStateTable::Clock::now();
  if (now >= next_producer_expiry_) {
    producers_.Expire(now);
    next_producer_expiry_ = now + std::chrono::minutes(1);
  }
}

KafkaReply KafkaHandler::DescribeGroups(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeDescribeGroupsRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed DescribeGroups request: " + request.status().message());
  }
  DescribeGroupsResponse response;
  for (std::string_view id : request->groups) {
    DescribedGroup& out = response.groups.emplace_back();
    out.group_id = std::string(id);
    if (request->include_authorized_operations) out.authorized_operations = 0;
    if (offsets_ == nullptr) {
      out.error_code = ErrorCode::kCoordinatorNotAvailable;
      continue;
    }
    if (id.empty()) {
      out.error_code = ErrorCode::kInvalidGroupId;
      continue;
    }
    GroupCoordinator::Description d = coordinator_.Describe(out.group_id);
    // A group known only by its committed offsets (before any member joined since the broker
    // started) is Empty, as Kafka keeps it; Dead is for a group nothing is known of.
    if (d.state == "Dead" && !offsets_->FetchAll(id).empty()) d.state = "Empty";
    out.group_state = std::move(d.state);
    out.protocol_type = std::move(d.protocol_type);
    out.protocol_data = std::move(d.protocol_name);
    for (GroupCoordinator::MemberDescription& m : d.members) {
      DescribedGroupMember& member = out.members.emplace_back();
      member.member_id = std::move(m.member_id);
      if (!m.instance_id.empty()) member.group_instance_id = std::move(m.instance_id);
      member.client_id = std::move(m.client_id);
      member.member_metadata = std::move(m.metadata);
      member.member_assignment = std::move(m.assignment);
    }
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeDescribeGroupsResponse(response, header.api_version, writer);
  })};
}

KafkaReply KafkaHandler::ListGroups(const RequestHeader& header, Reader& reader) const {
  auto request = DecodeListGroupsRequest(reader, header.api_version);
  if (!request.ok()) {
    return CloseWith("malformed ListGroups request: " + request.status().message());
  }
  ListGroupsResponse response;
  if (offsets_ == nullptr) {
    response.error_code = ErrorCode::kCoordinatorNotAvailable;
  } else {
    // The coordinator's groups, and those known only by their committed offsets.
    std::map<std::string, std::string> groups;
    for (std::string& id : offsets_->Groups()) groups.emplace(std::move(id), "");
    for (auto& [id, protocol_type] : coordinator_.List()) groups[id] = std::move(protocol_type);
    for (auto& [id, protocol_type] : groups) response.groups.push_back({id, protocol_type});
  }
  return KafkaReply{ResponseFrame(header, [&](Writer& writer) {
    EncodeListGroupsResponse(response, header.api_version, writer);
  })};
}

}  // namespace higgins::server::kafka
