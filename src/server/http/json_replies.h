#pragma once

#include <span>
#include <string>
#include <string_view>

#include "broker/broker_api.h"
#include "higgins/status.h"

namespace higgins::server::http {

/// The JSON bodies of the HTTP API (docs/http.md). Each function returns one JSON document.

/// `{"error":{"code":"not_found","message":"..."}}`: `code` is the status code's name in
/// snake case; the message's lines are joined by "\n" with invalid UTF-8 escaped.
std::string ErrorJson(const Status& status);
/// An error of the HTTP layer's own: its code ("unauthorized", "method_not_allowed", ...) and
/// message (valid UTF-8).
struct HttpError {
  std::string_view code;
  std::string_view message;
};
std::string ErrorJson(const HttpError& error);
/// The snake-case name of a status code ("invalid_argument").
std::string_view ErrorCodeName(StatusCode code);

/// One stream of GET /v1/streams: name, kind, partition key, buckets, schema (fields with
/// name, type, nullable), partition and record counts, lag, inputs (base first, then the join
/// participants), fn, window, and the latest offset of each partition listed in `info`
/// (`latest_offsets_truncated` when the broker listed only some).
void AppendStreamJson(const broker::StreamInfo& info, std::string* out);
/// `{"streams":[...]}`.
std::string StreamsJson(std::span<const broker::StreamInfo> streams);

/// A produce's answer: `{"commit_time":"...","records":[{"partition_key":"k","offset":n},...]}`,
/// one entry per row in payload order.
std::string ProduceJson(const stream::ProduceResult& result);

/// The answer to `query`: `{"stream":...,"partition_key":...,"records":[{"offset":n,
/// "commit_time":"...","record":{...}},...]}`; a window stream's answer also has "window"
/// (number, start, end, closed).
std::string QueryJson(const broker::QueryRequest& query, const broker::QueryAnswer& answer);

/// A time in ms since the Unix epoch as RFC 3339 with milliseconds, in UTC
/// ("2026-12-07T08:00:00.123Z").
void AppendCommitTime(int64_t timestamp_ms, std::string* out);

}  // namespace higgins::server::http
