#include "server/kafka/group_coordinator.h"

#include <algorithm>

namespace higgins::server::kafka {

namespace {

// How long a member id handed out with MEMBER_ID_REQUIRED waits for its member's second join.
constexpr auto kPendingIdLifetime = std::chrono::minutes(5);

}  // namespace

GroupCoordinator::GroupCoordinator(Options options) : options_(options) {}

std::string GroupCoordinator::NewMemberId(const std::string& client_id) {
  // Kafka's form: the client id, a dash, then something unique. The client id is cut to 255
  // bytes, so that the id stays a STRING (at most 32,767 bytes) whatever the client id.
  constexpr size_t kMaxClientIdBytes = 255;
  const std::string prefix =
      client_id.empty() ? std::string("member") : client_id.substr(0, kMaxClientIdBytes);
  return prefix + "-" + std::to_string(next_member_++);
}

bool GroupCoordinator::SupportsAll(const Group& group, const std::vector<Protocol>& protocols) {
  if (group.members.empty()) return true;
  // Some protocol of the joining member must be supported by every current member.
  return std::any_of(protocols.begin(), protocols.end(), [&](const Protocol& p) {
    return std::all_of(group.members.begin(), group.members.end(), [&](const auto& entry) {
      const auto& theirs = entry.second.protocols;
      return std::any_of(theirs.begin(), theirs.end(),
                         [&](const Protocol& q) { return q.name == p.name; });
    });
  });
}

std::string GroupCoordinator::ChooseProtocol(const Group& group) {
  // Candidates: protocols every member supports. Each member votes for the first candidate in
  // its own order of preference; the most votes win, ties going to the leader's preference.
  const MemberState& leader = group.members.at(group.leader);
  std::vector<std::string> candidates;
  for (const Protocol& p : leader.protocols) {
    const bool everyone =
        std::all_of(group.members.begin(), group.members.end(), [&](const auto& m) {
          return std::any_of(m.second.protocols.begin(), m.second.protocols.end(),
                             [&](const Protocol& q) { return q.name == p.name; });
        });
    if (everyone) candidates.push_back(p.name);
  }
  if (candidates.empty()) return {};
  std::map<std::string, int> votes;
  for (const auto& [id, member] : group.members) {
    for (const Protocol& p : member.protocols) {
      if (std::find(candidates.begin(), candidates.end(), p.name) != candidates.end()) {
        ++votes[p.name];
        break;
      }
    }
  }
  std::string best = candidates.front();
  for (const std::string& c : candidates) {
    if (votes[c] > votes[best]) best = c;
  }
  return best;
}

void GroupCoordinator::Join(JoinRequest request, Clock::time_point now,
                            std::function<void(JoinResult)> done) {
  auto fail = [&](ErrorCode error) {
    JoinResult result;
    result.error = error;
    result.member_id = request.member_id;
    done(std::move(result));
  };
  if (request.group_id.empty()) return fail(ErrorCode::kInvalidGroupId);
  if (request.session_timeout < options_.min_session_timeout ||
      request.session_timeout > options_.max_session_timeout) {
    return fail(ErrorCode::kInvalidSessionTimeout);
  }
  if (request.protocol_type.empty() || request.protocols.empty()) {
    return fail(ErrorCode::kInconsistentGroupProtocol);
  }
  for (const Protocol& p : request.protocols) {
    if (p.metadata.size() > options_.max_metadata_bytes) return fail(ErrorCode::kInvalidRequest);
  }
  Actions actions;
  {
    std::lock_guard lock(mu_);
    auto it = groups_.find(request.group_id);
    if (it == groups_.end() && groups_.size() >= options_.max_groups) {
      // At the limit, a group without members makes room: its committed offsets stay in the
      // offset store, and a member id it handed out but nobody joined with is forgotten.
      auto memberless = std::find_if(groups_.begin(), groups_.end(),
                                     [](const auto& g) { return g.second.members.empty(); });
      if (memberless != groups_.end()) groups_.erase(memberless);
    }
    if (it == groups_.end()) {
      if (groups_.size() >= options_.max_groups) {
        actions.push_back([done, member = request.member_id] {
          JoinResult result;
          result.error = ErrorCode::kCoordinatorNotAvailable;
          result.member_id = member;
          done(std::move(result));
        });
      } else {
        it = groups_.emplace(request.group_id, Group{}).first;
      }
    }
    if (it != groups_.end()) {
      JoinLocked(it->second, std::move(request), now, std::move(done), actions);
    }
  }
  for (auto& action : actions) action();
}

void GroupCoordinator::JoinLocked(Group& group, JoinRequest request, Clock::time_point now,
                                  std::function<void(JoinResult)> done, Actions& actions) {
  auto fail = [&](ErrorCode error, std::string member_id) {
    actions.push_back([done, error, member_id = std::move(member_id)] {
      JoinResult result;
      result.error = error;
      result.member_id = member_id;
      done(std::move(result));
    });
  };
  if (!group.members.empty() &&
      (request.protocol_type != group.protocol_type || !SupportsAll(group, request.protocols))) {
    return fail(ErrorCode::kInconsistentGroupProtocol, request.member_id);
  }
  std::string member_id = request.member_id;
  bool new_static = false;
  if (!request.instance_id.empty()) {
    auto known = group.static_members.find(request.instance_id);
    if (member_id.empty() && known != group.static_members.end()) {
      return RejoinStatic(group, known->second, std::move(request), now, std::move(done), actions);
    }
    if (!member_id.empty() && known == group.static_members.end()) {
      return fail(ErrorCode::kUnknownMemberId, member_id);
    }
    if (!member_id.empty() && known->second != member_id) {
      return fail(ErrorCode::kFencedInstanceId, member_id);
    }
    if (member_id.empty()) {
      // A new static member gets its id at once: its instance id already names it (KIP-345).
      member_id = NewMemberId(request.client_id);
      new_static = true;
    }
  }
  if (member_id.empty()) {
    member_id = NewMemberId(request.client_id);
    if (request.require_known_member_id) {
      // KIP-394: the member joins again with this id, so a retried first join cannot leave a
      // member behind that nobody will ever heartbeat for.
      group.pending_ids[member_id] = now + kPendingIdLifetime;
      return fail(ErrorCode::kMemberIdRequired, member_id);
    }
  } else if (!new_static && !group.members.contains(member_id)) {
    if (!group.pending_ids.erase(member_id)) {
      return fail(ErrorCode::kUnknownMemberId, member_id);
    }
  }
  auto existing = group.members.find(member_id);
  if (existing == group.members.end() && group.members.size() >= options_.max_members_per_group) {
    return fail(ErrorCode::kGroupMaxSizeReached, member_id);
  }
  if (existing != group.members.end() && group.state != State::kPreparingRebalance) {
    // A member of the current generation whose metadata did not change, and which is not the
    // leader (whose join means it wants to assign again), gets the current generation back.
    const bool same = existing->second.protocols == request.protocols;
    if (same && member_id != group.leader) {
      existing->second.session_deadline = now + existing->second.session_timeout;
      JoinResult result;
      result.generation = group.generation;
      result.protocol_name = group.protocol_name;
      result.leader = group.leader;
      result.member_id = member_id;
      actions.push_back([done, result = std::move(result)]() mutable { done(std::move(result)); });
      return;
    }
  }
  if (new_static) group.static_members[request.instance_id] = member_id;
  MemberState& member = group.members[member_id];
  if (existing == group.members.end()) {
    group.join_order.push_back(member_id);
    // A member's instance id is the one it first joined with: RemoveMember frees it by this.
    member.instance_id = request.instance_id;
  }
  if (member.pending_join) {
    // The same member joined again before the first join was answered: that one is superseded.
    actions.push_back([old = std::move(member.pending_join), member_id] {
      JoinResult result;
      result.error = ErrorCode::kUnknownMemberId;
      result.member_id = member_id;
      old(std::move(result));
    });
  }
  member.client_id = request.client_id;
  member.session_timeout = request.session_timeout;
  member.rebalance_timeout = request.rebalance_timeout;
  member.protocols = std::move(request.protocols);
  member.session_deadline = now + member.session_timeout;
  member.pending_join = std::move(done);
  if (group.members.size() == 1) group.protocol_type = request.protocol_type;
  PrepareRebalance(group, now, actions);
  MaybeCompleteJoin(group, now, /*force=*/false, actions);
}

void GroupCoordinator::PrepareRebalance(Group& group, Clock::time_point now, Actions& actions) {
  if (group.state == State::kPreparingRebalance) return;
  group.state = State::kPreparingRebalance;
  std::chrono::milliseconds longest{0};
  for (auto& [id, member] : group.members) {
    longest = std::max(longest, member.rebalance_timeout);
    if (member.pending_sync) {
      actions.push_back([sync = std::move(member.pending_sync)] {
        sync(SyncResult{ErrorCode::kRebalanceInProgress, {}});
      });
      member.pending_sync = nullptr;
    }
  }
  group.rebalance_deadline = now + longest;
}

void GroupCoordinator::MaybeCompleteJoin(Group& group, Clock::time_point now, bool force,
                                         Actions& actions) {
  if (group.state != State::kPreparingRebalance) return;
  const bool all_joined = std::all_of(group.members.begin(), group.members.end(),
                                      [](const auto& m) { return bool(m.second.pending_join); });
  if (!all_joined && !force) return;
  if (!all_joined) {
    std::vector<std::string> late;
    for (const auto& [id, member] : group.members) {
      if (!member.pending_join) late.push_back(id);
    }
    for (const std::string& id : late) RemoveMember(group, id, actions);
  }
  ++group.generation;
  if (group.members.empty()) {
    group.state = State::kEmpty;
    group.leader.clear();
    group.protocol_name.clear();
    return;
  }
  if (!group.members.contains(group.leader)) {
    // The first member to have joined that is still here.
    for (const std::string& id : group.join_order) {
      if (group.members.contains(id)) {
        group.leader = id;
        break;
      }
    }
  }
  group.protocol_name = ChooseProtocol(group);
  group.state = State::kCompletingRebalance;
  const std::vector<Member> everyone = Everyone(group);
  for (auto& [id, member] : group.members) {
    JoinResult result;
    result.generation = group.generation;
    result.protocol_name = group.protocol_name;
    result.leader = group.leader;
    result.member_id = id;
    if (id == group.leader) result.members = everyone;
    member.session_deadline = now + member.session_timeout;
    actions.push_back([join = std::move(member.pending_join),
                       result = std::move(result)]() mutable { join(std::move(result)); });
    member.pending_join = nullptr;
  }
}

std::vector<GroupCoordinator::Member> GroupCoordinator::Everyone(const Group& group) {
  std::vector<Member> everyone;
  for (const auto& [id, member] : group.members) {
    for (const Protocol& p : member.protocols) {
      if (p.name == group.protocol_name) everyone.push_back({id, member.instance_id, p.metadata});
    }
  }
  return everyone;
}

bool GroupCoordinator::Fenced(const Group& group, Caller caller) {
  if (caller.instance_id.empty()) return false;
  auto it = group.static_members.find(caller.instance_id);
  return it != group.static_members.end() && it->second != caller.member_id;
}

void GroupCoordinator::RejoinStatic(Group& group, const std::string& old_id, JoinRequest request,
                                    Clock::time_point now, std::function<void(JoinResult)> done,
                                    Actions& actions) {
  auto node = group.members.extract(old_id);
  if (node.empty()) {
    // Not expected (RemoveMember frees the instance id with its member); never trust it.
    group.static_members.erase(request.instance_id);
    return JoinLocked(group, std::move(request), now, std::move(done), actions);
  }
  const std::string new_id = NewMemberId(request.client_id);
  MemberState& old = node.mapped();
  // The old member id is fenced: what it was waiting for is answered so.
  if (old.pending_join) {
    actions.push_back([join = std::move(old.pending_join), old_id] {
      JoinResult result;
      result.error = ErrorCode::kFencedInstanceId;
      result.member_id = old_id;
      join(std::move(result));
    });
    old.pending_join = nullptr;
  }
  if (old.pending_sync) {
    actions.push_back([sync = std::move(old.pending_sync)] {
      sync(SyncResult{ErrorCode::kFencedInstanceId, {}});
    });
    old.pending_sync = nullptr;
  }
  const bool same = old.protocols == request.protocols;
  node.key() = new_id;
  group.members.insert(std::move(node));
  std::replace(group.join_order.begin(), group.join_order.end(), old_id, new_id);
  if (group.leader == old_id) group.leader = new_id;
  group.static_members[request.instance_id] = new_id;
  MemberState& member = group.members.at(new_id);
  member.client_id = request.client_id;
  member.session_timeout = request.session_timeout;
  member.rebalance_timeout = request.rebalance_timeout;
  member.session_deadline = now + member.session_timeout;
  if (same && group.state == State::kStable) {
    // Nothing changed for the others: no rebalance. Its SyncGroup gets its assignment back (a
    // leader's new assignments are not taken while the group is Stable).
    JoinResult result;
    result.generation = group.generation;
    result.protocol_name = group.protocol_name;
    result.leader = group.leader;
    result.member_id = new_id;
    if (new_id == group.leader) result.members = Everyone(group);
    actions.push_back([done = std::move(done), result = std::move(result)]() mutable {
      done(std::move(result));
    });
    return;
  }
  member.protocols = std::move(request.protocols);
  member.pending_join = std::move(done);
  PrepareRebalance(group, now, actions);
  MaybeCompleteJoin(group, now, /*force=*/false, actions);
}

void GroupCoordinator::RemoveMember(Group& group, const std::string& member_id, Actions& actions) {
  auto it = group.members.find(member_id);
  if (it == group.members.end()) return;
  if (!it->second.instance_id.empty()) {
    auto known = group.static_members.find(it->second.instance_id);
    if (known != group.static_members.end() && known->second == member_id) {
      group.static_members.erase(known);
    }
  }
  if (it->second.pending_join) {
    actions.push_back([join = std::move(it->second.pending_join), member_id] {
      JoinResult result;
      result.error = ErrorCode::kUnknownMemberId;
      result.member_id = member_id;
      join(std::move(result));
    });
  }
  if (it->second.pending_sync) {
    actions.push_back([sync = std::move(it->second.pending_sync)] {
      sync(SyncResult{ErrorCode::kUnknownMemberId, {}});
    });
  }
  group.members.erase(it);
  std::erase(group.join_order, member_id);
}

void GroupCoordinator::Sync(const std::string& group_id, int32_t generation,
                            const std::string& member_id,
                            std::map<std::string, std::string> assignments, Clock::time_point now,
                            std::function<void(SyncResult)> done, const std::string& instance_id) {
  Actions actions;
  {
    std::lock_guard lock(mu_);
    auto it = groups_.find(group_id);
    if (it != groups_.end() && Fenced(it->second, {member_id, instance_id})) {
      actions.push_back([done] { done(SyncResult{ErrorCode::kFencedInstanceId, {}}); });
    } else if (it == groups_.end() || !it->second.members.contains(member_id)) {
      actions.push_back([done] { done(SyncResult{ErrorCode::kUnknownMemberId, {}}); });
    } else {
      Group& group = it->second;
      MemberState& member = group.members.at(member_id);
      if (generation != group.generation) {
        actions.push_back([done] { done(SyncResult{ErrorCode::kIllegalGeneration, {}}); });
      } else if (group.state == State::kPreparingRebalance) {
        actions.push_back([done] { done(SyncResult{ErrorCode::kRebalanceInProgress, {}}); });
      } else if (group.state == State::kStable) {
        member.session_deadline = now + member.session_timeout;
        actions.push_back([done, assignment = member.assignment] {
          done(SyncResult{ErrorCode::kNone, assignment});
        });
      } else {  // CompletingRebalance
        member.session_deadline = now + member.session_timeout;
        member.pending_sync = std::move(done);
        if (member_id == group.leader) {
          for (auto& [id, m] : group.members) {
            auto a = assignments.find(id);
            m.assignment = a == assignments.end() ? std::string() : std::move(a->second);
          }
          group.state = State::kStable;
          for (auto& [id, m] : group.members) {
            if (!m.pending_sync) continue;
            actions.push_back([sync = std::move(m.pending_sync), assignment = m.assignment] {
              sync(SyncResult{ErrorCode::kNone, assignment});
            });
            m.pending_sync = nullptr;
          }
        }
      }
    }
  }
  for (auto& action : actions) action();
}

GroupCoordinator::ErrorCode GroupCoordinator::Heartbeat(const std::string& group_id,
                                                        int32_t generation,
                                                        const std::string& member_id,
                                                        Clock::time_point now,
                                                        const std::string& instance_id) {
  std::lock_guard lock(mu_);
  auto it = groups_.find(group_id);
  if (it == groups_.end()) return ErrorCode::kUnknownMemberId;
  Group& group = it->second;
  if (Fenced(group, {member_id, instance_id})) return ErrorCode::kFencedInstanceId;
  auto member = group.members.find(member_id);
  if (member == group.members.end()) return ErrorCode::kUnknownMemberId;
  member->second.session_deadline = now + member->second.session_timeout;
  if (group.state == State::kPreparingRebalance) return ErrorCode::kRebalanceInProgress;
  if (generation != group.generation) return ErrorCode::kIllegalGeneration;
  return ErrorCode::kNone;
}

// NOLINTNEXTLINE(bugprone-easily-swappable-parameters): (group, member), as every group call
GroupCoordinator::ErrorCode GroupCoordinator::Leave(const std::string& group_id,
                                                    const std::string& member_id,
                                                    Clock::time_point now,
                                                    const std::string& instance_id) {
  Actions actions;
  ErrorCode error = ErrorCode::kNone;
  {
    std::lock_guard lock(mu_);
    auto it = groups_.find(group_id);
    std::string leaving = member_id;
    if (it != groups_.end() && !instance_id.empty()) {
      auto known = it->second.static_members.find(instance_id);
      if (known == it->second.static_members.end()) {
        error = ErrorCode::kUnknownMemberId;
      } else if (!member_id.empty() && known->second != member_id) {
        error = ErrorCode::kFencedInstanceId;
      } else {
        leaving = known->second;
      }
    }
    if (error == ErrorCode::kNone &&
        (it == groups_.end() || !it->second.members.contains(leaving))) {
      error = ErrorCode::kUnknownMemberId;
    }
    if (error == ErrorCode::kNone) {
      Group& group = it->second;
      RemoveMember(group, leaving, actions);
      if (group.members.empty()) {
        ++group.generation;
        group.state = State::kEmpty;
        group.leader.clear();
        group.protocol_name.clear();
      } else {
        PrepareRebalance(group, now, actions);
        MaybeCompleteJoin(group, now, /*force=*/false, actions);
      }
    }
  }
  for (auto& action : actions) action();
  return error;
}

GroupCoordinator::ErrorCode GroupCoordinator::CheckCommit(const std::string& group_id,
                                                          int32_t generation,
                                                          const std::string& member_id,
                                                          Clock::time_point now,
                                                          const std::string& instance_id) {
  std::lock_guard lock(mu_);
  auto it = groups_.find(group_id);
  if (it != groups_.end() && Fenced(it->second, {member_id, instance_id})) {
    return ErrorCode::kFencedInstanceId;
  }
  if (generation < 0 && member_id.empty()) {
    // Outside the group protocol: only while no member holds the group's partitions.
    return it == groups_.end() || it->second.members.empty() ? ErrorCode::kNone
                                                             : ErrorCode::kUnknownMemberId;
  }
  if (it == groups_.end()) return ErrorCode::kIllegalGeneration;
  Group& group = it->second;
  auto member = group.members.find(member_id);
  if (member == group.members.end()) return ErrorCode::kUnknownMemberId;
  member->second.session_deadline = now + member->second.session_timeout;
  if (generation != group.generation) return ErrorCode::kIllegalGeneration;
  // While the group prepares a rebalance, its members still hold their partitions and commit
  // what they consumed before giving them up (librdkafka does so on revoke), as Kafka accepts;
  // between the join and the leader's sync, no generation holds them.
  if (group.state == State::kCompletingRebalance) return ErrorCode::kRebalanceInProgress;
  return ErrorCode::kNone;
}

void GroupCoordinator::Tick(Clock::time_point now) {
  Actions actions;
  {
    std::lock_guard lock(mu_);
    for (auto& [group_id, group] : groups_) {
      std::erase_if(group.pending_ids, [&](const auto& entry) { return entry.second < now; });
      // Members whose session ran out without a heartbeat (a member waiting in a join is
      // waiting for the others, not silent).
      std::vector<std::string> expired;
      for (const auto& [id, member] : group.members) {
        if (!member.pending_join && member.session_deadline < now) expired.push_back(id);
      }
      for (const std::string& id : expired) RemoveMember(group, id, actions);
      if (!expired.empty()) {
        if (group.members.empty()) {
          ++group.generation;
          group.state = State::kEmpty;
          group.leader.clear();
          group.protocol_name.clear();
          continue;
        }
        PrepareRebalance(group, now, actions);
      }
      if (group.state == State::kPreparingRebalance) {
        MaybeCompleteJoin(group, now, /*force=*/now >= group.rebalance_deadline, actions);
      }
    }
  }
  for (auto& action : actions) action();
}

const char* GroupCoordinator::StateName(State state) {
  switch (state) {
    case State::kEmpty: return "Empty";
    case State::kPreparingRebalance: return "PreparingRebalance";
    case State::kCompletingRebalance: return "CompletingRebalance";
    case State::kStable: return "Stable";
  }
  return "Dead";
}

std::string GroupCoordinator::StateOf(const std::string& group_id) const {
  std::lock_guard lock(mu_);
  auto it = groups_.find(group_id);
  return it == groups_.end() ? "Dead" : StateName(it->second.state);
}

GroupCoordinator::Description GroupCoordinator::Describe(const std::string& group_id) const {
  std::lock_guard lock(mu_);
  Description out;
  auto it = groups_.find(group_id);
  if (it == groups_.end()) {
    out.state = "Dead";
    return out;
  }
  const Group& group = it->second;
  out.state = StateName(group.state);
  out.protocol_type = group.protocol_type;
  const bool stable = group.state == State::kStable;
  if (stable) out.protocol_name = group.protocol_name;
  for (const auto& [id, member] : group.members) {
    MemberDescription& m = out.members.emplace_back();
    m.member_id = id;
    m.instance_id = member.instance_id;
    m.client_id = member.client_id;
    if (!stable) continue;
    m.assignment = member.assignment;
    for (const Protocol& p : member.protocols) {
      if (p.name == group.protocol_name) m.metadata = p.metadata;
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> GroupCoordinator::List() const {
  std::lock_guard lock(mu_);
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(groups_.size());
  for (const auto& [id, group] : groups_) out.emplace_back(id, group.protocol_type);
  return out;
}

size_t GroupCoordinator::MemberCount(const std::string& group_id) const {
  std::lock_guard lock(mu_);
  auto it = groups_.find(group_id);
  return it == groups_.end() ? 0 : it->second.members.size();
}

}  // namespace higgins::server::kafka
