// The classic consumer group protocol, with time passed in: joins that wait for every member,
// the leader's assignments, heartbeats during a rebalance, session expiry, leaves, commits.
#include "server/kafka/group_coordinator.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <optional>

namespace higgins::server::kafka {
namespace {

using ErrorCode = higgins::kafka::ErrorCode;
using Clock = GroupCoordinator::Clock;
using std::chrono::milliseconds;

GroupCoordinator::JoinRequest Join(std::string member_id, std::string client = "c",
                                   std::vector<GroupCoordinator::Protocol> protocols = {
                                       {"range", "meta"}}) {
  GroupCoordinator::JoinRequest r;
  r.group_id = "g";
  r.member_id = std::move(member_id);
  r.client_id = std::move(client);
  r.session_timeout = milliseconds(3000);
  r.rebalance_timeout = milliseconds(5000);
  r.protocol_type = "consumer";
  r.protocols = std::move(protocols);
  return r;
}

class GroupCoordinatorTest : public ::testing::Test {
 protected:
  /// Joins and returns the result, or nullopt while the join waits.
  std::optional<GroupCoordinator::JoinResult>* StartJoin(GroupCoordinator::JoinRequest r) {
    auto* slot = &joins_.emplace_back();
    coordinator_.Join(std::move(r), now_,
                      [slot](GroupCoordinator::JoinResult result) { *slot = std::move(result); });
    return slot;
  }
  std::optional<GroupCoordinator::SyncResult>* StartSync(
      const std::string& member, int32_t generation, std::map<std::string, std::string> a = {}) {
    auto* slot = &syncs_.emplace_back();
    coordinator_.Sync("g", generation, member, std::move(a), now_,
                      [slot](GroupCoordinator::SyncResult result) { *slot = std::move(result); });
    return slot;
  }

  GroupCoordinator coordinator_{GroupCoordinator::Options{}};
  Clock::time_point now_ = Clock::time_point() + std::chrono::hours(1);
  std::deque<std::optional<GroupCoordinator::JoinResult>> joins_;
  std::deque<std::optional<GroupCoordinator::SyncResult>> syncs_;
};

TEST_F(GroupCoordinatorTest, OneMemberJoinsLeadsAndGetsItsAssignment) {
  auto* join = StartJoin(Join(""));
  ASSERT_TRUE(*join);
  EXPECT_EQ((*join)->error, ErrorCode::kNone);
  EXPECT_EQ((*join)->generation, 1);
  EXPECT_EQ((*join)->protocol_name, "range");
  EXPECT_EQ((*join)->leader, (*join)->member_id);
  ASSERT_EQ((*join)->members.size(), 1u);
  EXPECT_EQ((*join)->members[0].metadata, "meta");
  EXPECT_EQ(coordinator_.StateOf("g"), "CompletingRebalance");
  const std::string me = (*join)->member_id;
  auto* sync = StartSync(me, 1, {{me, "all of it"}});
  ASSERT_TRUE(*sync);
  EXPECT_EQ((*sync)->error, ErrorCode::kNone);
  EXPECT_EQ((*sync)->assignment, "all of it");
  EXPECT_EQ(coordinator_.StateOf("g"), "Stable");
  EXPECT_EQ(coordinator_.Heartbeat("g", 1, me, now_), ErrorCode::kNone);
}

TEST_F(GroupCoordinatorTest, NewMembersFirstGetTheirIdWithMemberIdRequired) {
  auto request = Join("");
  request.require_known_member_id = true;
  auto* first = StartJoin(request);
  ASSERT_TRUE(*first);
  EXPECT_EQ((*first)->error, ErrorCode::kMemberIdRequired);
  ASSERT_FALSE((*first)->member_id.empty());
  auto again = Join((*first)->member_id);
  again.require_known_member_id = true;
  auto* second = StartJoin(again);
  ASSERT_TRUE(*second);
  EXPECT_EQ((*second)->error, ErrorCode::kNone);
  EXPECT_EQ((*second)->member_id, (*first)->member_id);
  // An id the coordinator never gave out is refused.
  auto* stranger = StartJoin(Join("nobody-7"));
  ASSERT_TRUE(*stranger);
  EXPECT_EQ((*stranger)->error, ErrorCode::kUnknownMemberId);
}

TEST_F(GroupCoordinatorTest, ASecondMemberRebalancesAndTheLeaderAssignsBoth) {
  auto* a = StartJoin(Join("", "a"));
  const std::string first = (*a)->member_id;
  StartSync(first, 1, {{first, "p0,p1"}});
  // b joins: the group waits for a to join again; a learns of it from its heartbeat.
  auto* b = StartJoin(Join("", "b"));
  EXPECT_FALSE(*b);
  EXPECT_EQ(coordinator_.StateOf("g"), "PreparingRebalance");
  // While it rebalances, nothing is settled: members without metadata or assignments.
  EXPECT_EQ(coordinator_.Describe("g").protocol_name, "");
  EXPECT_EQ(coordinator_.Describe("g").members.at(0).assignment, "");
  EXPECT_EQ(coordinator_.Heartbeat("g", 1, first, now_), ErrorCode::kRebalanceInProgress);
  // a still holds its partitions: it may commit what it consumed before it rejoins.
  EXPECT_EQ(coordinator_.CheckCommit("g", 1, first, now_), ErrorCode::kNone);
  auto* a2 = StartJoin(Join(first, "a"));
  ASSERT_TRUE(*a2);
  ASSERT_TRUE(*b);
  EXPECT_EQ((*a2)->generation, 2);
  EXPECT_EQ((*b)->generation, 2);
  EXPECT_EQ((*a2)->leader, first);
  EXPECT_EQ((*a2)->members.size(), 2u);  // the leader sees everyone
  EXPECT_TRUE((*b)->members.empty());
  const std::string second = (*b)->member_id;
  // The follower's sync waits for the leader's.
  auto* sync_b = StartSync(second, 2);
  EXPECT_FALSE(*sync_b);
  // Between the join and the leader's sync, nobody holds the partitions.
  EXPECT_EQ(coordinator_.CheckCommit("g", 2, second, now_), ErrorCode::kRebalanceInProgress);
  auto* sync_a = StartSync(first, 2, {{first, "p0"}, {second, "p1"}});
  ASSERT_TRUE(*sync_a);
  ASSERT_TRUE(*sync_b);
  EXPECT_EQ((*sync_a)->assignment, "p0");
  EXPECT_EQ((*sync_b)->assignment, "p1");
  // DescribeGroups' view of the stable group: both members, their metadata and assignments.
  const GroupCoordinator::Description described = coordinator_.Describe("g");
  EXPECT_EQ(described.state, "Stable");
  EXPECT_EQ(described.protocol_type, "consumer");
  EXPECT_EQ(described.protocol_name, "range");
  ASSERT_EQ(described.members.size(), 2u);
  for (const GroupCoordinator::MemberDescription& m : described.members) {
    EXPECT_EQ(m.metadata, "meta");
    EXPECT_EQ(m.assignment, m.member_id == first ? "p0" : "p1");
    EXPECT_EQ(m.client_id, m.member_id == first ? "a" : "b");
  }
  EXPECT_EQ(coordinator_.List(),
            (std::vector<std::pair<std::string, std::string>>{{"g", "consumer"}}));
  EXPECT_EQ(coordinator_.Describe("nobody").state, "Dead");
  EXPECT_TRUE(coordinator_.Describe("nobody").members.empty());
  // An old generation is refused.
  EXPECT_EQ(coordinator_.Heartbeat("g", 1, second, now_), ErrorCode::kIllegalGeneration);
  EXPECT_EQ(coordinator_.CheckCommit("g", 1, second, now_), ErrorCode::kIllegalGeneration);
  EXPECT_EQ(coordinator_.CheckCommit("g", 2, second, now_), ErrorCode::kNone);
}

TEST_F(GroupCoordinatorTest, ASilentMemberIsRemovedAfterItsSessionTimeout) {
  auto* a = StartJoin(Join("", "a"));
  const std::string first = (*a)->member_id;
  StartSync(first, 1, {{first, "x"}});
  auto* b = StartJoin(Join("", "b"));
  auto* a2 = StartJoin(Join(first, "a"));
  const std::string second = (*b)->member_id;
  StartSync(first, 2, {{first, "p0"}, {second, "p1"}});
  StartSync(second, 2);
  ASSERT_EQ((*a2)->generation, 2);
  // b keeps heartbeating; a falls silent (killed).
  for (int i = 0; i < 3; ++i) {
    now_ += milliseconds(1200);  // a's 3 s session ends between the second and third
    EXPECT_EQ(coordinator_.Heartbeat("g", 2, second, now_), ErrorCode::kNone);
    coordinator_.Tick(now_);
  }
  EXPECT_EQ(coordinator_.MemberCount("g"), 1u);
  EXPECT_EQ(coordinator_.Heartbeat("g", 2, second, now_), ErrorCode::kRebalanceInProgress);
  auto* b2 = StartJoin(Join(second, "b"));
  ASSERT_TRUE(*b2);
  EXPECT_EQ((*b2)->generation, 3);
  EXPECT_EQ((*b2)->leader, second);  // the old leader is gone
  EXPECT_EQ(coordinator_.Heartbeat("g", 3, first, now_), ErrorCode::kUnknownMemberId);
}

TEST_F(GroupCoordinatorTest, MembersThatDoNotRejoinWithinTheRebalanceTimeoutAreDropped) {
  auto* a = StartJoin(Join("", "a"));
  const std::string first = (*a)->member_id;
  StartSync(first, 1, {{first, "x"}});
  auto* b = StartJoin(Join("", "b"));
  EXPECT_FALSE(*b);
  // a heartbeats (so its session lives) but never joins again.
  now_ += milliseconds(2500);
  coordinator_.Heartbeat("g", 1, first, now_);
  coordinator_.Tick(now_);
  EXPECT_FALSE(*b);
  now_ += milliseconds(2600);  // past the 5 s rebalance timeout
  coordinator_.Tick(now_);
  ASSERT_TRUE(*b);
  EXPECT_EQ((*b)->error, ErrorCode::kNone);
  EXPECT_EQ((*b)->leader, (*b)->member_id);
  EXPECT_EQ(coordinator_.MemberCount("g"), 1u);
}

TEST_F(GroupCoordinatorTest, LeavingRebalancesTheRestAndTheLastLeaveEmptiesTheGroup) {
  auto* a = StartJoin(Join("", "a"));
  const std::string first = (*a)->member_id;
  StartSync(first, 1, {{first, "x"}});
  auto* b = StartJoin(Join("", "b"));
  StartJoin(Join(first, "a"));
  const std::string second = (*b)->member_id;
  StartSync(first, 2, {{first, "p0"}, {second, "p1"}});
  EXPECT_EQ(coordinator_.Leave("g", first, now_), ErrorCode::kNone);
  EXPECT_EQ(coordinator_.Leave("g", first, now_), ErrorCode::kUnknownMemberId);
  EXPECT_EQ(coordinator_.StateOf("g"), "PreparingRebalance");
  auto* b2 = StartJoin(Join(second, "b"));
  ASSERT_TRUE(*b2);
  EXPECT_EQ((*b2)->generation, 3);
  EXPECT_EQ(coordinator_.Leave("g", second, now_), ErrorCode::kNone);
  EXPECT_EQ(coordinator_.StateOf("g"), "Empty");
  // With no members, commits from outside the protocol are allowed again.
  EXPECT_EQ(coordinator_.CheckCommit("g", -1, "", now_), ErrorCode::kNone);
}

TEST_F(GroupCoordinatorTest, ProtocolsMustOverlapAndTheMostPreferredCommonOneWins) {
  auto* a = StartJoin(Join("", "a", {{"roundrobin", "1"}, {"range", "2"}}));
  const std::string first = (*a)->member_id;
  EXPECT_EQ((*a)->protocol_name, "roundrobin");
  StartSync(first, 1, {{first, "x"}});
  auto* odd = StartJoin(Join("", "z", {{"sticky", "3"}}));
  ASSERT_TRUE(*odd);
  EXPECT_EQ((*odd)->error, ErrorCode::kInconsistentGroupProtocol);
  auto* b = StartJoin(Join("", "b", {{"range", "4"}}));
  auto* a2 = StartJoin(Join(first, "a", {{"roundrobin", "1"}, {"range", "2"}}));
  ASSERT_TRUE(*b);
  EXPECT_EQ((*a2)->protocol_name, "range");  // the only one both support
  EXPECT_EQ((*a2)->members.size(), 2u);
  for (const auto& m : (*a2)->members) EXPECT_TRUE(m.metadata == "2" || m.metadata == "4");
}

TEST_F(GroupCoordinatorTest, BadRequestsGetTheirErrors) {
  auto request = Join("");
  request.session_timeout = milliseconds(10);
  auto* short_session = StartJoin(request);
  ASSERT_TRUE(*short_session);
  EXPECT_EQ((*short_session)->error, ErrorCode::kInvalidSessionTimeout);
  request = Join("");
  request.group_id.clear();
  auto* no_group = StartJoin(request);
  EXPECT_EQ((*no_group)->error, ErrorCode::kInvalidGroupId);
  auto* unknown_sync = StartSync("nobody", 1);
  EXPECT_EQ((*unknown_sync)->error, ErrorCode::kUnknownMemberId);
  EXPECT_EQ(coordinator_.Heartbeat("nogroup", 1, "x", now_), ErrorCode::kUnknownMemberId);
}

}  // namespace
}  // namespace higgins::server::kafka

namespace higgins::server::kafka {
namespace {

GroupCoordinator::JoinRequest StaticJoin(std::string member_id, std::string instance,
                                         std::string metadata = "meta") {
  GroupCoordinator::JoinRequest r = Join(std::move(member_id), "c", {{"range", metadata}});
  r.instance_id = std::move(instance);
  r.require_known_member_id = true;  // v5: not asked of static members
  return r;
}

// KIP-345: a static member that restarts (joins without its member id, within its session)
// takes its old place without a rebalance; its old member id is fenced.
TEST_F(GroupCoordinatorTest, AStaticMemberRejoinsWithoutARebalanceAndFencesItsOldId) {
  auto* a = StartJoin(StaticJoin("", "host-a"));
  ASSERT_TRUE(*a);
  ASSERT_EQ((*a)->error, ErrorCode::kNone) << "no MEMBER_ID_REQUIRED for a static member";
  const std::string a1 = (*a)->member_id;
  StartSync(a1, 1, {{a1, "p0,p1"}});
  auto* b = StartJoin(StaticJoin("", "host-b"));
  auto* a_again = StartJoin(StaticJoin(a1, "host-a"));
  ASSERT_TRUE(*b);
  ASSERT_TRUE(*a_again);
  const std::string b1 = (*b)->member_id;
  StartSync(b1, 2);
  StartSync(a1, 2, {{a1, "p0"}, {b1, "p1"}});
  EXPECT_EQ(coordinator_.StateOf("g"), "Stable");
  EXPECT_EQ(coordinator_.Describe("g").members.at(0).instance_id, "host-a");

  // b restarts: a new member id, the same generation and assignment, no rebalance for a.
  auto* b_restarted = StartJoin(StaticJoin("", "host-b"));
  ASSERT_TRUE(*b_restarted);
  EXPECT_EQ((*b_restarted)->error, ErrorCode::kNone);
  const std::string b2 = (*b_restarted)->member_id;
  EXPECT_NE(b2, b1);
  EXPECT_EQ((*b_restarted)->generation, 2);
  EXPECT_EQ(coordinator_.StateOf("g"), "Stable");
  EXPECT_EQ(coordinator_.Heartbeat("g", 2, a1, now_, "host-a"), ErrorCode::kNone);
  auto* sync = StartSync(b2, 2);
  ASSERT_TRUE(*sync);
  EXPECT_EQ((*sync)->assignment, "p1");
  // The old id is fenced wherever it shows up.
  EXPECT_EQ(coordinator_.Heartbeat("g", 2, b1, now_, "host-b"), ErrorCode::kFencedInstanceId);
  EXPECT_EQ(coordinator_.CheckCommit("g", 2, b1, now_, "host-b"), ErrorCode::kFencedInstanceId);
  EXPECT_EQ((*StartJoin(StaticJoin(b1, "host-b")))->error, ErrorCode::kFencedInstanceId);
  EXPECT_EQ(coordinator_.Leave("g", b1, now_, "host-b"), ErrorCode::kFencedInstanceId);
  EXPECT_EQ(coordinator_.MemberCount("g"), 2u);
  // An instance id that was never seen, with a member id, is unknown.
  EXPECT_EQ((*StartJoin(StaticJoin("someone", "host-z")))->error, ErrorCode::kUnknownMemberId);
}

TEST_F(GroupCoordinatorTest, AStaticMemberWithNewMetadataRebalancesAndLeavesByInstanceId) {
  auto* a = StartJoin(StaticJoin("", "host-a"));
  const std::string a1 = (*a)->member_id;
  StartSync(a1, 1, {{a1, "all"}});
  // Restarted with another subscription: a rebalance, completed by its own join.
  auto* changed = StartJoin(StaticJoin("", "host-a", "other topics"));
  ASSERT_TRUE(*changed);
  EXPECT_EQ((*changed)->error, ErrorCode::kNone);
  EXPECT_EQ((*changed)->generation, 2);
  EXPECT_EQ((*changed)->leader, (*changed)->member_id);
  ASSERT_EQ((*changed)->members.size(), 1u);
  EXPECT_EQ((*changed)->members[0].instance_id, "host-a");
  EXPECT_EQ((*changed)->members[0].metadata, "other topics");
  // An admin tool removes it by instance id alone.
  EXPECT_EQ(coordinator_.Leave("g", "", now_, "host-a"), ErrorCode::kNone);
  EXPECT_EQ(coordinator_.StateOf("g"), "Empty");
  EXPECT_EQ(coordinator_.Leave("g", "", now_, "host-a"), ErrorCode::kUnknownMemberId);
}

TEST_F(GroupCoordinatorTest, AStaticMemberIsRemovedAtItsSessionTimeout) {
  auto* a = StartJoin(StaticJoin("", "host-a"));
  const std::string a1 = (*a)->member_id;
  StartSync(a1, 1, {{a1, "all"}});
  now_ += milliseconds(3001);
  coordinator_.Tick(now_);
  EXPECT_EQ(coordinator_.StateOf("g"), "Empty");
  // Its instance id is free again: a join with it is a new member.
  auto* back = StartJoin(StaticJoin("", "host-a"));
  ASSERT_TRUE(*back);
  EXPECT_EQ((*back)->error, ErrorCode::kNone);
  EXPECT_EQ((*back)->generation, 3);
}

// A static member that joins again by its member id without its instance id keeps its instance
// id; once it leaves, a join with that instance id is a new member (this crashed the broker).
TEST_F(GroupCoordinatorTest, AStaticMemberKeepsItsInstanceIdWhenAJoinOmitsIt) {
  auto* a = StartJoin(StaticJoin("", "host-a"));
  const std::string a1 = (*a)->member_id;
  auto* without = StartJoin(Join(a1, "c", {{"range", "changed"}}));
  ASSERT_TRUE(*without);
  EXPECT_EQ((*without)->error, ErrorCode::kNone);
  EXPECT_EQ(coordinator_.Describe("g").members.at(0).instance_id, "host-a");
  EXPECT_EQ(coordinator_.Leave("g", a1, now_), ErrorCode::kNone);
  auto* again = StartJoin(StaticJoin("", "host-a"));
  ASSERT_TRUE(*again);
  EXPECT_EQ((*again)->error, ErrorCode::kNone);
  EXPECT_NE((*again)->member_id, a1);
  EXPECT_EQ(coordinator_.MemberCount("g"), 1u);
}

TEST_F(GroupCoordinatorTest, MemberIdsStayStringsWhateverTheClientId) {
  auto* a = StartJoin(Join("", std::string(32767, 'x')));
  ASSERT_TRUE(*a);
  EXPECT_LE((*a)->member_id.size(), 300u);
  EXPECT_EQ((*a)->member_id.substr(0, 255), std::string(255, 'x'));
}

TEST(GroupCoordinatorLimitsTest, AtTheGroupLimitANewGroupReplacesOneWithoutMembers) {
  GroupCoordinator::Options options;
  options.max_groups = 2;
  GroupCoordinator coordinator(options);
  const Clock::time_point now = Clock::time_point() + std::chrono::hours(1);
  auto join = [&](const std::string& group) {
    GroupCoordinator::JoinRequest r = Join("");
    r.group_id = group;
    r.require_known_member_id = true;  // answered MEMBER_ID_REQUIRED: a group, no member
    ErrorCode error = ErrorCode::kNone;
    coordinator.Join(r, now, [&](GroupCoordinator::JoinResult result) { error = result.error; });
    return error;
  };
  GroupCoordinator::JoinRequest member = Join("");
  member.group_id = "busy";
  coordinator.Join(member, now, [](GroupCoordinator::JoinResult) {});
  EXPECT_EQ(coordinator.MemberCount("busy"), 1u);
  EXPECT_EQ(join("junk-1"), ErrorCode::kMemberIdRequired);
  EXPECT_EQ(join("junk-2"), ErrorCode::kMemberIdRequired);  // replaces junk-1
  EXPECT_EQ(coordinator.StateOf("junk-1"), "Dead");
  EXPECT_EQ(coordinator.MemberCount("busy"), 1u);  // a group with members is never replaced
  EXPECT_EQ(coordinator.List().size(), 2u);
}

}  // namespace
}  // namespace higgins::server::kafka
