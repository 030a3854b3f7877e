#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kafka/errors.h"

namespace higgins::server::kafka {

/// The group coordinator of Kafka's classic consumer group protocol (docs/kafka.md, "Consumer
/// groups"), for the one broker that coordinates every group. The broker relays what members
/// say: it picks the protocol (assignor) all members support, makes the first member the leader,
/// hands the leader every member's metadata, and hands each member what the leader assigned it.
///
/// Static members (KIP-345: a `group.instance.id`, JoinGroup v5+) keep their place across
/// restarts: one that joins again without its member id, within its session timeout, gets a new
/// member id and the old one's assignment without a rebalance (when its metadata is unchanged
/// and the group is Stable); the old member id is fenced (FENCED_INSTANCE_ID). Static members
/// leave on session timeout or by LeaveGroup with their instance id, never by closing.
///
/// States of a group: Empty (no members) → PreparingRebalance (waiting for every member to
/// join again, at most the rebalance timeout) → CompletingRebalance (joined; waiting for the
/// leader's SyncGroup) → Stable. A join of a new member, a member whose metadata changed, a
/// leave, or a member whose session timed out (no heartbeat within its session timeout) starts
/// a rebalance; members learn of it from REBALANCE_IN_PROGRESS on their heartbeat.
///
/// Sans I/O: time comes in as arguments (`now`), and delayed answers (a JoinGroup waiting for the
/// others, a SyncGroup waiting for the leader) go to callbacks, run without the coordinator's
/// lock held, on the thread that completed them (a Join, Sync, Leave or Tick call). Thread-safe.
class GroupCoordinator {
 public:
  using Clock = std::chrono::steady_clock;
  using ErrorCode = higgins::kafka::ErrorCode;

  struct Options {
    /// Session timeouts outside this range are refused with INVALID_SESSION_TIMEOUT (Kafka's
    /// group.min.session.timeout.ms and group.max.session.timeout.ms, with a lower minimum).
    std::chrono::milliseconds min_session_timeout{1000};
    std::chrono::milliseconds max_session_timeout{std::chrono::minutes(30)};
    /// Groups kept; at the limit a new group replaces one without members, and only when every
    /// group has members is a new one refused with COORDINATOR_NOT_AVAILABLE.
    size_t max_groups = 10'000;
    size_t max_members_per_group = 1'000;  // one more member: GROUP_MAX_SIZE_REACHED
    size_t max_metadata_bytes = 1 << 20;   // per protocol's metadata and per assignment
  };

  struct Protocol {
    std::string name;      // e.g. "range", "roundrobin", "cooperative-sticky"
    std::string metadata;  // opaque to the broker

    friend bool operator==(const Protocol&, const Protocol&) = default;
  };
  struct JoinRequest {
    std::string group_id;
    std::string member_id;  // empty for a new member
    std::string client_id;
    std::chrono::milliseconds session_timeout{10'000};
    std::chrono::milliseconds rebalance_timeout{10'000};
    std::string protocol_type;  // "consumer" for consumers
    std::vector<Protocol> protocols;
    /// JoinGroup v4+: a new member first gets MEMBER_ID_REQUIRED with its id, and joins again
    /// with it (KIP-394). Not for static members.
    bool require_known_member_id = false;
    /// `group.instance.id` (JoinGroup v5+): a static member; empty for a dynamic one.
    std::string instance_id;
  };
  struct Member {
    std::string member_id;
    std::string instance_id;  // empty: dynamic
    std::string metadata;     // for the chosen protocol
  };
  struct JoinResult {
    ErrorCode error = ErrorCode::kNone;
    int32_t generation = -1;
    std::string protocol_name;
    std::string leader;
    std::string member_id;
    std::vector<Member> members;  // the leader's answer only
  };
  struct SyncResult {
    ErrorCode error = ErrorCode::kNone;
    std::string assignment;
  };

  explicit GroupCoordinator(Options options);

  /// JoinGroup: `done` runs once every member has joined (or the rebalance timeout removed those
  /// that did not), or at once for an error or a member already in the current generation.
  void Join(JoinRequest request, Clock::time_point now, std::function<void(JoinResult)> done);
  /// SyncGroup: the leader's `assignments` (member id → assignment) complete the rebalance;
  /// `done` runs for every member once the leader's has come. `instance_id`, in this and the
  /// calls below, is the caller's group.instance.id (empty: none): FENCED_INSTANCE_ID when it
  /// belongs to another member id now.
  void Sync(const std::string& group_id, int32_t generation, const std::string& member_id,
            std::map<std::string, std::string> assignments, Clock::time_point now,
            std::function<void(SyncResult)> done, const std::string& instance_id = "");
  /// Heartbeat: NONE, or UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS,
  /// FENCED_INSTANCE_ID.
  ErrorCode Heartbeat(const std::string& group_id, int32_t generation, const std::string& member_id,
                      Clock::time_point now, const std::string& instance_id = "");
  /// LeaveGroup of one member: NONE, UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID. A static member
  /// may be named by its instance id alone (`member_id` empty), as admin tools do.
  ErrorCode Leave(const std::string& group_id, const std::string& member_id, Clock::time_point now,
                  const std::string& instance_id = "");
  /// Whether an OffsetCommit by (generation, member) may commit for the group: NONE, or
  /// UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, FENCED_INSTANCE_ID, or REBALANCE_IN_PROGRESS between
  /// a rebalance's join and the leader's sync (a commit of the current generation while the
  /// group prepares a rebalance is taken, as Kafka takes it: members commit on revoke).
  /// Generation -1 with no member id is a commit from outside the group protocol (assign()
  /// consumers, tools): allowed while the group has no members. A member's commit counts as a
  /// heartbeat.
  ErrorCode CheckCommit(const std::string& group_id, int32_t generation,
                        const std::string& member_id, Clock::time_point now,
                        const std::string& instance_id = "");
  /// Expires sessions and rebalance timeouts; call it often (every 100 ms).
  void Tick(Clock::time_point now);

  /// For tests and listings: the group's state name ("Empty", "PreparingRebalance",
  /// "CompletingRebalance", "Stable"), or "Dead" when the coordinator has no such group.
  std::string StateOf(const std::string& group_id) const;

  /// A group as DescribeGroups tells it (DescribeGroupsResponse.json): state (StateOf), protocol
  /// type, and its members in member id order. The chosen protocol, and each member's metadata
  /// for it and assignment, only while the group is Stable (as Kafka does: they are settled
  /// then); empty otherwise. A group the coordinator does not have is "Dead", with no members.
  struct MemberDescription {
    std::string member_id;
    std::string instance_id;  // empty: dynamic
    std::string client_id;
    std::string metadata;
    std::string assignment;
  };
  struct Description {
    std::string state;
    std::string protocol_type;
    std::string protocol_name;
    std::vector<MemberDescription> members;
  };
  Description Describe(const std::string& group_id) const;
  /// Every group the coordinator has (members or not), as (group id, protocol type), in id order.
  std::vector<std::pair<std::string, std::string>> List() const;
  size_t MemberCount(const std::string& group_id) const;

 private:
  enum class State { kEmpty, kPreparingRebalance, kCompletingRebalance, kStable };
  static const char* StateName(State state);
  struct MemberState {
    std::string instance_id;  // empty: dynamic
    std::string client_id;
    std::chrono::milliseconds session_timeout{0};
    std::chrono::milliseconds rebalance_timeout{0};
    std::vector<Protocol> protocols;
    std::string assignment;
    Clock::time_point session_deadline;
    std::function<void(JoinResult)> pending_join;
    std::function<void(SyncResult)> pending_sync;
  };
  struct Group {
    State state = State::kEmpty;
    int32_t generation = 0;
    std::string protocol_type;
    std::string protocol_name;
    std::string leader;
    std::map<std::string, MemberState> members;  // by member id, in id order
    std::vector<std::string> join_order;         // member ids in the order they first joined
    Clock::time_point rebalance_deadline;
    /// Member ids handed out with MEMBER_ID_REQUIRED, not yet joined (KIP-394), with expiry.
    std::map<std::string, Clock::time_point> pending_ids;
    /// Static members: group.instance.id → its current member id (KIP-345).
    std::map<std::string, std::string, std::less<>> static_members;
  };
  /// Callbacks collected under the lock, run after it is released.
  using Actions = std::vector<std::function<void()>>;

  void JoinLocked(Group& group, JoinRequest request, Clock::time_point now,
                  std::function<void(JoinResult)> done, Actions& actions);
  /// A static member known by its instance id joins again without its member id (it
  /// restarted): it takes over member `old_id`'s place under a new id.
  void RejoinStatic(Group& group, const std::string& old_id, JoinRequest request,
                    Clock::time_point now, std::function<void(JoinResult)> done, Actions& actions);
  /// Who sent a request: its member id and, for a static member, its instance id.
  struct Caller {
    std::string_view member_id;
    std::string_view instance_id;  // empty: dynamic
  };
  /// Whether the caller's instance id (not empty) is a static member other than its member id.
  static bool Fenced(const Group& group, Caller caller);
  /// Every member with its metadata for the chosen protocol (the leader's JoinGroup answer).
  static std::vector<Member> Everyone(const Group& group);
  static bool SupportsAll(const Group& group, const std::vector<Protocol>& protocols);
  static std::string ChooseProtocol(const Group& group);
  void PrepareRebalance(Group& group, Clock::time_point now, Actions& actions);
  /// Completes the join phase once every member has a pending join (or `force`: the rebalance
  /// timeout has passed, and members that did not join are removed).
  void MaybeCompleteJoin(Group& group, Clock::time_point now, bool force, Actions& actions);
  void RemoveMember(Group& group, const std::string& member_id, Actions& actions);
  std::string NewMemberId(const std::string& client_id);

  const Options options_;
  mutable std::mutex mu_;
  std::map<std::string, Group, std::less<>> groups_;
  uint64_t next_member_ = 1;
};

}  // namespace higgins::server::kafka
