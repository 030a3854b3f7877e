// The query and subscription operations of Broker (broker_api.h): protocol-free answers from
// the streams, window views and the subscription manager.
#include "broker/broker.h"
#include "common/quote.h"

namespace higgins::broker {

namespace {

using Kind = QueryRequest::Kind;

Result<stream::QueryRows> QueryStream(const stream::StreamLog& log, const QueryRequest& request,
                                      uint64_t range_limit) {
  switch (request.kind) {
    case Kind::kOffset: return log.At(request.key, request.offset.value());
    case Kind::kLatest: return log.Latest(request.key);
    case Kind::kTimestamp:
      if (request.timestamp_ms < 0) {
        return Status::InvalidArgument("a timestamp query needs a timestamp of 0 or more");
      }
      return log.FirstAtOrAfter(request.key, request.timestamp_ms);
    case Kind::kRange: return log.Range(request.key, request.offset.value(), request.end.value(),
                                     range_limit);
  }
  return Status::InvalidArgument("unknown query kind");
}

}  // namespace

Result<QueryAnswer> Broker::Query(const QueryRequest& request) const {
  HIGGINS_ASSIGN_OR_RETURN(auto log, FindStream(request.stream));
  auto answer = QueryLog(log, request);
  if (!answer.ok()) return answer.status().WithContext("stream " + Quote(request.stream));
  return answer;
}

Result<QueryAnswer> Broker::QueryLog(const std::shared_ptr<stream::StreamLog>& log,
                                     const QueryRequest& request) const {
  QueryAnswer answer;
  answer.schema = log->schema();
  auto window = FindWindow(request.stream);
  if (!window) {
    HIGGINS_ASSIGN_OR_RETURN(answer.rows, QueryStream(*log, request, options_.max_range_records));
    return answer;
  }
  std::optional<uint64_t> number;
  switch (request.kind) {
    case Kind::kOffset: number = request.offset.value(); break;  // the window number
    case Kind::kLatest: break;
    default: return Status::InvalidArgument("window streams answer OFFSET and LATEST queries");
  }
  std::optional<int64_t> now_ms;
  if (window->base_uses_clock) now_ms = NowMs();
  HIGGINS_ASSIGN_OR_RETURN(stream::WindowRows rows,
                           stream::QueryWindow(*window->base, window->spec, request.key, number,
                                               now_ms, options_.max_range_records));
  answer.rows = rows.members;
  answer.window = std::move(rows);
  return answer;
}

Result<SubscriptionId> Broker::CreateSubscription(std::string_view stream, SubscriptionStart start,
                                                  std::chrono::milliseconds timeout) {
  HIGGINS_ASSIGN_OR_RETURN(auto ref, SubscriptionRef(stream));
  return subscriptions_->Create(std::string(stream), ref, start, timeout);
}

Result<uint64_t> Broker::Take(const SubscriptionId& id, std::string_view stream,
                              ConsumerId consumer, uint64_t n, subscription::PushSink sink) {
  return subscriptions_->Take(id, stream, consumer, n, std::move(sink));
}

void Broker::Acknowledge(const SubscriptionId& id, std::string_view stream,
                         std::vector<subscription::OffsetRange> ranges, AcknowledgeDone done) {
  subscriptions_->Acknowledge(id, stream, std::move(ranges), std::move(done));
}

Result<subscription::SubscriptionReport> Broker::GetSubscription(const SubscriptionId& id,
                                                                 std::string_view stream) const {
  return subscriptions_->Get(id, stream);
}

Result<std::vector<subscription::SubscriptionReport>> Broker::ListSubscriptions(
    std::string_view stream) const {
  if (!stream.empty()) HIGGINS_RETURN_IF_ERROR(FindStream(stream).status());
  return subscriptions_->List(stream);
}

Status Broker::DeleteSubscription(const SubscriptionId& id, std::string_view stream) {
  return subscriptions_->Delete(id, stream);
}

void Broker::RemoveConsumer(ConsumerId consumer) {
  subscriptions_->RemoveConsumer(consumer);
}

void Broker::ConsumerReady(ConsumerId consumer) {
  subscriptions_->ConsumerReady(consumer);
}

}  // namespace higgins::broker
